//! The conversation store (SQLite) against the JSON files of earlier builds, on the same corpus in
//! the same run, for `bench/store/run.sh`.
//!
//! Builds a seeded corpus (`CONVERSATIONS` conversations, `MESSAGES` messages in all, one of them
//! exactly 5,000 messages long, the rest ~100 each), writes it through the store's own write path
//! (`put_message`, one call per message, as a turn does) and as `conversations/<id>.json` files in
//! the old format, then times, with many repetitions after a warm-up: the list's first page, a
//! search for a rare and for common words, opening the 5,000-message conversation and appending a
//! message to it. The JSON side does what the old code did (`setup/conversations.rs` and
//! `history_file.rs` before the store): the list stats every file, sorts by modification time and
//! reads the page's files; opening reads and parses the file; an append reads and parses the file,
//! then rewrites it whole atomically (temporary file, fsync, rename, fsync of the folder). The old
//! code had no search: its reference reads and parses every file and scans the text.
//!
//! Usage: `store_bench <dir> [CONVERSATIONS] [MESSAGES]` (defaults 10000 1000000). `<dir>` must be
//! empty or missing; the corpus is left there (the caller deletes it). Timed runs after a warm-up:
//! `REPS` for the store (default 200), `JSON_REPS` for the JSON list, open and append (default 50:
//! each takes tens of milliseconds), `JSON_SEARCH_REPS` for a JSON search (default 5: each reads
//! the whole corpus). With `SUMMARY=<file>` the figures are also written there as JSON.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use rusqlite::{Connection, OpenFlags, OptionalExtension};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use warden_core::conversations::{is_conversation_id, text, ConversationStore};
use warden_protocol::{ContentBlock, Message, Role, ToolResultBlock, ToolUse};

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// The corpus's seed: the same corpus every run.
const SEED: u64 = 0x5eed_2024_0bad_cafe;
/// The long conversation's length.
const BIG: usize = 5_000;
/// The word planted in exactly one message.
const RARE: &str = "quetzalcoatl";
/// A common word of the messages that never appears in a title (the user's text never holds it):
/// its search is answered by the message index alone.
const COMMON: &str = "error";
/// A common word that is in titles as well: its search is answered by the title index first.
const COMMON_IN_TITLES: &str = "file";
/// The page size of the list and of a search (what the window asks for).
const PAGE: u32 = 50;
/// Words in the vocabulary (a Zipf distribution over them).
const VOCABULARY: usize = 4_000;
/// The goals of the issue, in milliseconds (p95).
const GOAL_LIST_MS: f64 = 50.0;
const GOAL_SEARCH_MS: f64 = 50.0;
const GOAL_OPEN_MS: f64 = 200.0;
const GOAL_APPEND_MS: f64 = 1.0;

#[allow(clippy::too_many_lines)] // The benchmark's whole run, each measurement in the order it is printed.
fn main() -> Res<()> {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().ok_or("usage: store_bench <dir> [CONVERSATIONS] [MESSAGES]")?);
    let conversations: usize = args.next().map_or(Ok(10_000), |a| a.parse())?;
    let messages: usize = args.next().map_or(Ok(1_000_000), |a| a.parse())?;
    let reps = env_usize("REPS", 200);
    let json_reps = env_usize("JSON_REPS", 50);
    let json_search_reps = env_usize("JSON_SEARCH_REPS", 5);
    if conversations < 3 || messages < BIG + 2 * (conversations - 1) {
        return Err(format!(
            "{conversations} conversations need at least {} messages (one of {BIG}, two or more each)",
            BIG + 2 * (conversations - 1)
        )
        .into());
    }
    if dir.exists() && std::fs::read_dir(&dir)?.next().is_some() {
        return Err(format!("{} is not empty", dir.display()).into());
    }
    let started = Instant::now();
    let mut out = std::io::stdout().lock();

    // ---- The corpus.
    let corpus = Corpus::plan(conversations, messages);
    let built = corpus.build(&dir)?;
    let store = &built.store;
    writeln!(
        out,
        "corpus: {conversations} conversations, {} messages (one of {BIG}); seed {SEED:#x}\n\
         build: {:.1} s in all; store {:.1} s ({:.0} µs per put_message, {}), JSON files {:.1} s ({}), \
         generating {:.1} s",
        built.messages,
        built.total.as_secs_f64(),
        built.store_time.as_secs_f64(),
        built.store_time.as_secs_f64() * 1e6 / built.messages as f64,
        size(built.db_bytes),
        built.json_time.as_secs_f64(),
        size(built.json_bytes),
        built.gen_time.as_secs_f64(),
    )?;
    for (word, count, titles) in [
        (RARE, built.rare_messages, built.rare_titles),
        (COMMON, built.common_messages, built.common_titles),
        (COMMON_IN_TITLES, built.titled_messages, built.titled_titles),
    ] {
        writeln!(
            out,
            "word \"{word}\": in {count} messages ({:.1}% of all) and {titles} titles (as a search \
             reads it: a word starting with it)",
            count as f64 * 100.0 / built.messages as f64
        )?;
    }

    let json_dir = dir.join("conversations");
    let big_id = corpus.ids[corpus.big].clone();
    let big_path = json_dir.join(format!("{big_id}.json"));
    let rare_id = corpus.ids[corpus.rare.0].clone();

    // ---- Checks: both sides hold the same thing.
    let from_store = store.messages(&big_id)?;
    let from_file = read_history(&big_path)?.messages;
    if from_store.len() != BIG || from_store != from_file {
        return Err("the long conversation differs between the store and its file".into());
    }
    let store_page = store.list(0, PAGE)?;
    let json_page = json_list(&json_dir, 0, PAGE)?;
    let store_ids: HashSet<_> = store_page.conversations.iter().map(|c| c.id.clone()).collect();
    let same_page = json_page.iter().filter(|c| store_ids.contains(&c.id)).count();
    let rare_store: Vec<String> = store.search(RARE, PAGE)?.into_iter().map(|h| h.conversation.id).collect();
    let rare_json = json_search(&json_dir, RARE, PAGE)?;
    if rare_store != [rare_id.clone()] || rare_json != [rare_id.clone()] {
        return Err(format!("the rare word: store found {rare_store:?}, the files {rare_json:?}").into());
    }
    let mut overlaps = Vec::new();
    for word in [COMMON, COMMON_IN_TITLES] {
        let s: Vec<String> = store.search(word, PAGE)?.into_iter().map(|h| h.conversation.id).collect();
        let j = json_search(&json_dir, word, PAGE)?;
        let set: HashSet<&String> = s.iter().collect();
        overlaps.push((word, s.len(), j.len(), j.iter().filter(|id| set.contains(id)).count()));
    }
    writeln!(out, "checks: the {BIG}-message conversation reads back the same from both; first pages share {same_page} of {PAGE}; \"{RARE}\" found in the one conversation by both")?;
    for (word, s, j, both) in &overlaps {
        writeln!(out, "        \"{word}\": store {s} hits, files {j} hits, {both} in both")?;
    }

    // ---- Timings. Read-only operations first; the appends change the long conversation.
    let warmup = 5;
    let mut rows = Vec::new();
    eprintln!("timing: list");
    rows.push(Row::new(
        "list, first page (50)",
        GOAL_LIST_MS,
        sample(warmup, reps, || store.list(0, PAGE).map(drop).map_err(Into::into))?,
        sample(2, json_reps, || json_list(&json_dir, 0, PAGE).map(drop))?,
        "",
    ));
    for (label, word) in [
        ("search, rare word", RARE),
        ("search, common word", COMMON),
        ("search, common word in titles", COMMON_IN_TITLES),
    ] {
        eprintln!("timing: {label}");
        rows.push(Row::new(
            label,
            GOAL_SEARCH_MS,
            sample(warmup, reps, || store.search(word, PAGE).map(drop).map_err(Into::into))?,
            sample(1, json_search_reps, || json_search(&json_dir, word, PAGE).map(drop))?,
            "",
        ));
    }
    eprintln!("timing: open");
    rows.push(Row::new(
        "open the 5,000-message conversation",
        GOAL_OPEN_MS,
        sample(warmup, reps, || store.messages(&big_id).map(drop).map_err(Into::into))?,
        sample(2, json_reps, || read_history(&big_path).map(drop))?,
        "",
    ));

    eprintln!("timing: append");
    let root = PathBuf::from(&corpus.roots[corpus.big]);
    let mut gen = Gen::new(SEED ^ 0x00a9_9e0d);
    let mut next = from_store.len();
    let store_append = sample(warmup, reps, || {
        let message = gen.message(&corpus.vocab, 9_999, next, None);
        store.put_message(&big_id, Some(&root), next, &message)?;
        next += 1;
        Ok(())
    })?;
    // The old engine held the history in memory and saved it whole after each turn.
    let mut history = from_file;
    let mut json_append = |sync: bool| {
        sample(2, json_reps, || {
            history.push(gen.message(&corpus.vocab, 9_999, history.len(), None));
            json_save(&big_path, &history, Some(&root), sync)
        })
    };
    let json_append_synced = json_append(true)?;
    let json_append_unsynced = json_append(false)?;
    rows.push(Row::new(
        "append a message (5,000-msg conv.)",
        GOAL_APPEND_MS,
        store_append.clone(),
        json_append_synced,
        "",
    ));
    rows.push(Row::new(
        "  the same, JSON without its fsyncs",
        GOAL_APPEND_MS,
        store_append,
        json_append_unsynced,
        "info",
    ));

    // ---- Where a store search's time goes.
    let breakdowns = [RARE, COMMON, COMMON_IN_TITLES]
        .iter()
        .map(|w| search_breakdown(store.path(), w))
        .collect::<Res<Vec<_>>>()?;

    // ---- The table.
    writeln!(out)?;
    writeln!(
        out,
        "{:<38} {:>9} {:>9} {:>5} | {:>9} {:>9} {:>5} | {:>8} {:>8} | goal (store p95)   met",
        "operation (ms)", "store p50", "p95", "n", "JSON p50", "p95", "n", "×p50", "×p95"
    )?;
    writeln!(out, "{}", "-".repeat(138))?;
    for row in &rows {
        writeln!(
            out,
            "{:<38} {:>9} {:>9} {:>5} | {:>9} {:>9} {:>5} | {:>8} {:>8} | {:<18} {}",
            row.label,
            ms(row.store.p50),
            ms(row.store.p95),
            row.store.n,
            ms(row.json.p50),
            ms(row.json.p95),
            row.json.n,
            ratio(row.json.p50, row.store.p50),
            ratio(row.json.p95, row.store.p95),
            format!("p95 <= {} ms", row.goal_ms),
            if row.note == "info" {
                "(same store figures)"
            } else if row.store.p95 <= row.goal_ms {
                "yes"
            } else {
                "NO"
            },
        )?;
    }
    writeln!(
        out,
        "× = JSON time / store time. Warm page cache (the corpus was just written). Percentiles by nearest \
         rank: with {json_search_reps} runs a JSON search's p95 is its slowest run."
    )?;
    writeln!(out, "\nstore search breakdown (medians of 20, a separate read-only connection):")?;
    for b in &breakdowns {
        writeln!(
            out,
            "  \"{}\": titles {} ms ({} title hits); messages_fts MATCH '{}' first row {} ms, exact '{}' \
             first row {} ms; the loop read {} index rows for {} conversations in {} ms",
            b.word,
            ms(b.titles_ms),
            b.title_hits,
            b.prefix_query,
            ms(b.prefix_first_ms),
            b.exact_query,
            ms(b.exact_first_ms),
            b.rows_read,
            b.conversations,
            ms(b.loop_ms),
        )?;
    }
    writeln!(out, "  plan of the message query: {}", breakdowns[0].plan)?;
    let wall = started.elapsed();
    writeln!(out, "\nwall time: {:.1} s", wall.as_secs_f64())?;

    if let Some(path) = std::env::var_os("SUMMARY") {
        let summary = json!({
            "conversations": conversations,
            "messages": built.messages,
            "seed": SEED,
            "build": {
                "total_s": built.total.as_secs_f64(),
                "store_s": built.store_time.as_secs_f64(),
                "json_s": built.json_time.as_secs_f64(),
                "generate_s": built.gen_time.as_secs_f64(),
                "db_bytes": built.db_bytes,
                "json_bytes": built.json_bytes,
            },
            "words": {
                RARE: {"messages": built.rare_messages, "titles": built.rare_titles},
                COMMON: {"messages": built.common_messages, "titles": built.common_titles},
                COMMON_IN_TITLES: {"messages": built.titled_messages, "titles": built.titled_titles},
            },
            "rows": rows.iter().map(Row::to_json).collect::<Vec<_>>(),
            "search_breakdown": breakdowns.iter().map(Breakdown::to_json).collect::<Vec<_>>(),
            "wall_s": wall.as_secs_f64(),
        });
        std::fs::write(path, serde_json::to_vec_pretty(&summary)?)?;
    }
    Ok(())
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default).max(1)
}

fn ms(value: f64) -> String {
    if value >= 100.0 {
        format!("{value:.0}")
    } else if value >= 1.0 {
        format!("{value:.1}")
    } else {
        format!("{value:.3}")
    }
}

fn ratio(json: f64, store: f64) -> String {
    if store <= 0.0 {
        "-".to_owned()
    } else if json / store < 10.0 {
        format!("{:.1}×", json / store)
    } else {
        format!("{:.0}×", json / store)
    }
}

fn size(bytes: u64) -> String {
    format!("{:.0} MB", bytes as f64 / 1e6)
}

// ---------------------------------------------------------------------------------------------
// Timing

#[derive(Debug, Clone)]
struct Stats {
    n: usize,
    p50: f64,
    p95: f64,
    min: f64,
    max: f64,
}

impl Stats {
    fn to_json(&self) -> Value {
        json!({"n": self.n, "p50_ms": self.p50, "p95_ms": self.p95, "min_ms": self.min, "max_ms": self.max})
    }
}

/// Runs `f` `warmup` times untimed, then `reps` times timed.
fn sample(warmup: usize, reps: usize, mut f: impl FnMut() -> Res<()>) -> Res<Stats> {
    for _ in 0..warmup {
        f()?;
    }
    let mut times = Vec::with_capacity(reps);
    for _ in 0..reps {
        let start = Instant::now();
        f()?;
        times.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    let rank = |p: f64| times[((p * times.len() as f64).ceil() as usize).clamp(1, times.len()) - 1];
    Ok(Stats { n: reps, p50: rank(0.5), p95: rank(0.95), min: times[0], max: times[times.len() - 1] })
}

struct Row {
    label: &'static str,
    goal_ms: f64,
    store: Stats,
    json: Stats,
    note: &'static str,
}

impl Row {
    fn new(label: &'static str, goal_ms: f64, store: Stats, json: Stats, note: &'static str) -> Self {
        Self { label, goal_ms, store, json, note }
    }

    fn to_json(&self) -> Value {
        json!({
            "operation": self.label.trim(),
            "goal_p95_ms": self.goal_ms,
            "goal_met": self.store.p95 <= self.goal_ms,
            "informative_only": self.note == "info",
            "store": self.store.to_json(),
            "json": self.json.to_json(),
            "ratio_p50": self.json.p50 / self.store.p50,
            "ratio_p95": self.json.p95 / self.store.p95,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// The corpus

/// SplitMix64: a corpus that is the same on every machine and with every version of any crate.
struct Gen(u64);

impl Gen {
    fn new(seed: u64) -> Self {
        Self(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next() % (hi - lo + 1) as u64) as usize
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn pick<'a>(&mut self, items: &'a [&'a str]) -> &'a str {
        items[self.range(0, items.len() - 1)]
    }

    fn id(&mut self) -> String {
        let (a, b) = (self.next(), self.next());
        format!(
            "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
            a >> 32,
            (a >> 16) & 0xffff,
            a & 0xfff,
            (b >> 48) | 0x8000,
            b & 0xffff_ffff_ffff
        )
    }

    /// One word of the vocabulary (Zipf); never one that starts with `exclude`.
    fn word<'a>(&mut self, vocab: &'a Vocab, exclude: Option<&str>) -> &'a str {
        loop {
            let u = self.unit() * vocab.total;
            let i = vocab.cdf.partition_point(|&c| c < u).min(vocab.words.len() - 1);
            let word = vocab.words[i].as_str();
            if exclude.is_none_or(|e| !word.starts_with(e)) {
                return word;
            }
        }
    }

    /// About `bytes` bytes of sentences, lines of `line` bytes or so.
    fn prose(&mut self, vocab: &Vocab, bytes: usize, line: usize, exclude: Option<&str>) -> String {
        let mut out = String::with_capacity(bytes + 16);
        let mut line_start = 0;
        let mut sentence_start = true;
        while out.len() < bytes {
            let word = self.word(vocab, exclude);
            if !out.is_empty() {
                out.push(if out.len() - line_start > line { '\n' } else { ' ' });
                if out.ends_with('\n') {
                    line_start = out.len();
                }
            }
            if sentence_start {
                let mut chars = word.chars();
                if let Some(first) = chars.next() {
                    out.extend(first.to_uppercase());
                    out.push_str(chars.as_str());
                }
            } else {
                out.push_str(word);
            }
            sentence_start = self.range(0, 11) == 0;
            if sentence_start {
                out.push('.');
            } else if self.range(0, 19) == 0 {
                out.push(',');
            }
        }
        out
    }

    /// Message `seq` of conversation `conv`: user text, assistant text with a tool call, the
    /// tool's result, assistant text, and again.
    fn message(&mut self, vocab: &Vocab, conv: usize, seq: usize, plant: Option<&str>) -> Message {
        let mut message = match seq % 4 {
            0 => {
                let len = self.range(60, 300);
                Message::user_text(self.prose(vocab, len, 72, Some(COMMON)))
            }
            1 => {
                let len = self.range(120, 420);
                let text = self.prose(vocab, len, 100, None);
                Message {
                    role: Role::Assistant,
                    content: vec![
                        ContentBlock::Text { text },
                        ContentBlock::ToolUse(self.tool_use(vocab, conv, seq)),
                    ],
                }
            }
            2 => {
                let (name, _) = tool(seq - 1);
                let len = self.range(150, 700);
                Message {
                    role: Role::User,
                    content: vec![ContentBlock::ToolResult(ToolResultBlock {
                        tool_use_id: format!("toolu_{conv}_{}", seq - 1),
                        report: None,
                        tool_name: name.to_owned(),
                        content: self.prose(vocab, len, 80, None),
                        is_error: self.range(0, 19) == 0,
                        code: None,
                        images: Vec::new(),
                    })],
                }
            }
            _ => {
                let len = self.range(80, 400);
                Message {
                    role: Role::Assistant,
                    content: vec![ContentBlock::Text { text: self.prose(vocab, len, 100, None) }],
                }
            }
        };
        if let Some(word) = plant {
            for block in &mut message.content {
                let text = match block {
                    ContentBlock::Text { text } => text,
                    ContentBlock::ToolResult(result) => &mut result.content,
                    _ => continue,
                };
                let at = text.find(' ').unwrap_or(text.len());
                text.insert_str(at, &format!(" {word}"));
                break;
            }
        }
        message
    }

    fn tool_use(&mut self, vocab: &Vocab, conv: usize, seq: usize) -> ToolUse {
        let (name, key) = tool(seq);
        let value = match key {
            "command" => format!("cargo test {} -- {}", self.word(vocab, None), self.word(vocab, None)),
            "pattern" => format!("{}|{}", self.word(vocab, None), self.word(vocab, None)),
            _ => format!(
                "src/{}/{}.{}",
                self.word(vocab, None),
                self.word(vocab, None),
                self.pick(&["rs", "ts", "tsx", "toml", "md"])
            ),
        };
        ToolUse {
            id: format!("toolu_{conv}_{seq}"),
            name: name.to_owned(),
            input: json!({ key: value }),
            raw_arguments: None,
            written: None,
        }
    }
}

/// The tool a call at `seq` uses, and its main argument.
fn tool(seq: usize) -> (&'static str, &'static str) {
    [("read_file", "path"), ("bash", "command"), ("search_in_files", "pattern"), ("edit_file", "path")]
        [(seq / 4) % 4]
}

/// The words messages are made of, most frequent first, and their cumulative Zipf weights.
struct Vocab {
    words: Vec<String>,
    cdf: Vec<f64>,
    total: f64,
}

/// The head of the vocabulary, in order of frequency: what a coding conversation says most.
const HEAD: &[&str] = &[
    "the",
    "to",
    "and",
    "a",
    "of",
    "in",
    "is",
    "it",
    "error",
    "that",
    "for",
    "file",
    "this",
    "with",
    "test",
    "on",
    "be",
    "not",
    "function",
    "we",
    "can",
    "you",
    "from",
    "as",
    "are",
    "now",
    "use",
    "value",
    "if",
    "should",
    "type",
    "will",
    "code",
    "run",
    "line",
    "by",
    "an",
    "or",
    "returns",
    "build",
    "check",
    "call",
    "new",
    "one",
    "let",
    "add",
    "change",
    "fix",
    "when",
    "which",
    "here",
    "there",
    "so",
    "but",
    "all",
    "then",
    "at",
    "string",
    "list",
    "path",
    "config",
    "server",
    "client",
    "request",
    "response",
    "module",
    "import",
    "export",
    "struct",
    "trait",
    "crate",
    "version",
    "update",
    "missing",
    "expected",
    "found",
    "failed",
    "passed",
    "tests",
    "unused",
    "variable",
    "warning",
    "compile",
    "compiling",
    "finished",
    "target",
    "debug",
    "release",
    "option",
    "result",
    "none",
    "some",
    "into",
    "borrow",
    "lifetime",
    "async",
    "await",
    "future",
    "thread",
    "lock",
    "mutex",
    "channel",
    "stream",
    "buffer",
    "bytes",
    "read",
    "write",
    "open",
    "close",
    "database",
    "query",
    "index",
    "table",
    "column",
    "row",
    "parser",
    "token",
    "lexer",
    "schema",
    "migration",
    "window",
    "render",
    "component",
    "state",
    "props",
    "hook",
    "effect",
    "button",
    "click",
];

impl Vocab {
    fn new() -> Self {
        let mut gen = Gen::new(SEED ^ 0x70c4b);
        let mut seen: HashSet<String> = HEAD.iter().map(|w| (*w).to_owned()).collect();
        let mut words: Vec<String> = HEAD.iter().map(|w| (*w).to_owned()).collect();
        let (consonants, vowels) = (b"bcdfghjklmnprstvwz", b"aeiou");
        while words.len() < VOCABULARY {
            let mut word = String::new();
            for _ in 0..gen.range(2, 4) {
                word.push(consonants[gen.range(0, consonants.len() - 1)] as char);
                word.push(vowels[gen.range(0, vowels.len() - 1)] as char);
                if gen.range(0, 3) == 0 {
                    word.push(consonants[gen.range(0, consonants.len() - 1)] as char);
                }
            }
            if !word.starts_with(RARE) && seen.insert(word.clone()) {
                words.push(word);
            }
        }
        // Zipf, s = 1.
        let mut total = 0.0;
        let cdf = (1..=words.len())
            .map(|rank| {
                total += 1.0 / rank as f64;
                total
            })
            .collect();
        Self { words, cdf, total }
    }
}

/// What the corpus is: each conversation's id, project and length, which is the long one and
/// where the rare word is.
struct Corpus {
    vocab: Vocab,
    ids: Vec<String>,
    roots: Vec<String>,
    sizes: Vec<usize>,
    titles: Vec<Option<String>>,
    big: usize,
    /// The conversation and the message holding [`RARE`].
    rare: (usize, usize),
}

impl Corpus {
    fn plan(conversations: usize, messages: usize) -> Self {
        let vocab = Vocab::new();
        let mut gen = Gen::new(SEED);
        let big = conversations / 3;
        let rest = messages - BIG;
        let others = conversations - 1;
        let mean = rest / others;
        // Lengths spread around the mean (from 40% to 160% of it), then evened out to the total.
        let mut sizes: Vec<usize> =
            (0..conversations).map(|_| gen.range((mean * 2 / 5).max(2), (mean * 8 / 5).max(2))).collect();
        sizes[big] = BIG;
        let mut sum: usize = sizes.iter().sum::<usize>() - BIG;
        let mut i = 0;
        while sum != rest {
            let at = i % conversations;
            i += 1;
            if at == big {
                continue;
            }
            if sum < rest {
                sizes[at] += 1;
                sum += 1;
            } else if sizes[at] > 2 {
                sizes[at] -= 1;
                sum -= 1;
            }
        }
        let ids = (0..conversations).map(|_| gen.id()).collect();
        let roots = (0..conversations).map(|_| format!("/home/dev/project-{}", gen.range(0, 24))).collect();
        // One conversation in twenty was named by the user.
        let mut titles: Vec<Option<String>> = (0..conversations)
            .map(|_| {
                (gen.range(0, 19) == 0).then(|| {
                    let n = gen.range(2, 5);
                    (0..n).map(|_| gen.word(&vocab, Some(COMMON))).collect::<Vec<_>>().join(" ")
                })
            })
            .collect();
        let mut rare_conv = conversations / 2;
        if rare_conv == big {
            rare_conv += 1;
        }
        let rare = (rare_conv, sizes[rare_conv] / 2);
        // The rare word must be in one message only, never in a title.
        titles[rare_conv] = None;
        Self { vocab, ids, roots, sizes, titles, big, rare }
    }

    /// Writes the corpus into the store and as JSON files.
    #[allow(clippy::too_many_lines)] // The corpus written in one pass, each kind of message in turn.
    fn build(&self, dir: &Path) -> Res<Built> {
        let started = Instant::now();
        let store = ConversationStore::open(&dir.join("conversations.db"))?;
        let json_dir = dir.join("conversations");
        std::fs::create_dir_all(&json_dir)?;
        let total: usize = self.sizes.iter().sum();
        let mut built = Built {
            store,
            messages: total,
            total: Duration::ZERO,
            store_time: Duration::ZERO,
            json_time: Duration::ZERO,
            gen_time: Duration::ZERO,
            db_bytes: 0,
            json_bytes: 0,
            rare_messages: 0,
            rare_titles: 0,
            common_messages: 0,
            common_titles: 0,
            titled_messages: 0,
            titled_titles: 0,
        };
        let mut gen = Gen::new(SEED ^ 0x6d65_7373);
        let mut done = 0usize;
        let mut last_report = Instant::now();
        for c in 0..self.ids.len() {
            let t = Instant::now();
            let messages: Vec<Message> = (0..self.sizes[c])
                .map(|seq| gen.message(&self.vocab, c, seq, (self.rare == (c, seq)).then_some(RARE)))
                .collect();
            for message in &messages {
                let searchable = text::searchable(message);
                built.rare_messages += usize::from(has_word(&searchable, RARE));
                built.common_messages += usize::from(has_word(&searchable, COMMON));
                built.titled_messages += usize::from(has_word(&searchable, COMMON_IN_TITLES));
            }
            let title = self.titles[c]
                .clone()
                .or_else(|| messages.iter().find_map(text::title_from))
                .unwrap_or_default();
            built.rare_titles += usize::from(has_word(&title, RARE));
            built.common_titles += usize::from(has_word(&title, COMMON));
            built.titled_titles += usize::from(has_word(&title, COMMON_IN_TITLES));
            built.gen_time += t.elapsed();

            // The store, through its write path: one call per message as it completes.
            let t = Instant::now();
            let root = Path::new(&self.roots[c]);
            for (seq, message) in messages.iter().enumerate() {
                built.store.put_message(&self.ids[c], Some(root), seq, message)?;
            }
            if let Some(title) = &self.titles[c] {
                built.store.set_title(&self.ids[c], Some(title))?;
            }
            built.store_time += t.elapsed();

            // The file an earlier build would have left.
            let t = Instant::now();
            let file = HistoryFile {
                version: 1,
                title: self.titles[c].clone(),
                project_root: Some(root.to_path_buf()),
                messages,
                other: Map::new(),
            };
            let bytes = serde_json::to_vec(&file)?;
            built.json_bytes += bytes.len() as u64;
            std::fs::write(json_dir.join(format!("{}.json", self.ids[c])), bytes)?;
            built.json_time += t.elapsed();

            done += self.sizes[c];
            if last_report.elapsed() > Duration::from_secs(10) || c + 1 == self.ids.len() {
                last_report = Instant::now();
                let elapsed = started.elapsed().as_secs_f64();
                eprintln!(
                    "  built {}/{} conversations, {done}/{total} messages, {elapsed:.0} s (about {:.0} s to go)",
                    c + 1,
                    self.ids.len(),
                    elapsed * (total - done) as f64 / done as f64
                );
            }
        }
        // What the store takes on disk: the database and its write-ahead log.
        let db = built.store.path().to_path_buf();
        built.db_bytes = [db.clone(), db.with_extension("db-wal")]
            .iter()
            .filter_map(|p| std::fs::metadata(p).ok())
            .map(|m| m.len())
            .sum();
        built.total = started.elapsed();
        Ok(built)
    }
}

struct Built {
    store: ConversationStore,
    messages: usize,
    total: Duration,
    store_time: Duration,
    json_time: Duration,
    gen_time: Duration,
    db_bytes: u64,
    json_bytes: u64,
    rare_messages: usize,
    rare_titles: usize,
    common_messages: usize,
    common_titles: usize,
    titled_messages: usize,
    titled_titles: usize,
}

/// Whether `text` holds a word starting with `word` (ASCII case-insensitively): what the store's
/// search finds for a one-word query (the last word of a query is a prefix).
fn has_word(text: &str, word: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric()).any(|token| {
        token.len() >= word.len() && token.as_bytes()[..word.len()].eq_ignore_ascii_case(word.as_bytes())
    })
}

// ---------------------------------------------------------------------------------------------
// The JSON files, as the code before the store used them

/// A conversation file as stored (`history_file.rs` before the store).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct HistoryFile {
    #[serde(default = "one")]
    version: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    project_root: Option<PathBuf>,
    #[serde(default)]
    messages: Vec<Message>,
    #[serde(flatten)]
    other: Map<String, Value>,
}

fn one() -> u32 {
    1
}

/// `history_file::read`: the file, either format.
fn read_history(path: &Path) -> Res<HistoryFile> {
    let bytes = std::fs::read(path)?;
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
        return Ok(HistoryFile {
            version: 1,
            messages: serde_json::from_slice(&bytes)?,
            ..HistoryFile::default()
        });
    }
    Ok(serde_json::from_slice(&bytes)?)
}

/// A conversation file and when it last changed.
struct Found {
    id: String,
    path: PathBuf,
    modified: SystemTime,
}

/// `Engine::conversation_files`: every `<id>.json` of the folder, with its modification time.
fn conversation_files(dir: &Path) -> Res<Vec<Found>> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let Some(id) = path.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(".json")) else {
            continue;
        };
        if !is_conversation_id(id) {
            continue;
        }
        let id = id.to_owned();
        let modified = std::fs::metadata(&path)?.modified()?;
        if path.is_file() {
            found.push(Found { id, path, modified });
        }
    }
    Ok(found)
}

/// A line of the list, as the old list made it.
struct JsonSummary {
    id: String,
}

/// `Engine::list_conversations`: stat every file, newest first, read the page's files.
fn json_list(dir: &Path, offset: u32, limit: u32) -> Res<Vec<JsonSummary>> {
    let mut found = conversation_files(dir)?;
    found.sort_by(|a, b| b.modified.cmp(&a.modified).then_with(|| a.id.cmp(&b.id)));
    let start = (offset as usize).min(found.len());
    let end = (start + limit as usize).min(found.len());
    let mut page = Vec::new();
    for f in &found[start..end] {
        let file = read_history(&f.path)?;
        // The summary: title (given or from the first message), project and count.
        let title = file.title.clone().or_else(|| file.messages.iter().find_map(text::title_from));
        std::hint::black_box((&title, &file.project_root, file.messages.len(), f.modified));
        page.push(JsonSummary { id: f.id.clone() });
    }
    Ok(page)
}

/// A search over the files, with the store's rules: conversations whose title has the word first,
/// then those with a message that has it, each newest first. Every file is read and parsed (a
/// title match anywhere comes first, so no file can be skipped).
fn json_search(dir: &Path, word: &str, limit: u32) -> Res<Vec<String>> {
    let mut found = conversation_files(dir)?;
    found.sort_by(|a, b| b.modified.cmp(&a.modified).then_with(|| a.id.cmp(&b.id)));
    let (mut by_title, mut by_message) = (Vec::new(), Vec::new());
    for f in &found {
        let file = read_history(&f.path)?;
        let title = file.title.clone().or_else(|| file.messages.iter().find_map(text::title_from));
        if title.is_some_and(|t| has_word(&t, word)) {
            by_title.push(f.id.clone());
            continue;
        }
        // The newest message that has it (its snippet would be shown).
        if let Some(m) = file.messages.iter().rev().find(|m| has_word(&text::searchable(m), word)) {
            std::hint::black_box(m);
            by_message.push(f.id.clone());
        }
    }
    by_title.extend(by_message);
    by_title.truncate(limit as usize);
    Ok(by_title)
}

/// `history_file::save` after a turn: the file read and parsed (its title and what else it holds
/// are kept), its messages replaced by the history, written whole atomically.
fn json_save(path: &Path, history: &[Message], project_root: Option<&Path>, sync: bool) -> Res<()> {
    let mut file = read_history(path)?;
    file.messages = history.to_vec();
    if let Some(root) = project_root {
        file.project_root = Some(root.to_path_buf());
    }
    file.version = file.version.max(1);
    let json = serde_json::to_vec(&file)?;
    write_atomic(path, &json, sync)
}

/// `config::write_atomic`: a temporary file in the same folder, flushed, renamed over the file,
/// the folder flushed (`sync: false` leaves out both flushes).
fn write_atomic(path: &Path, bytes: &[u8], sync: bool) -> Res<()> {
    let dir = path.parent().ok_or("no folder")?;
    let prefix = format!(".{}.", path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default());
    let mut file = tempfile::Builder::new().prefix(&prefix).suffix(".tmp").tempfile_in(dir)?;
    file.write_all(bytes)?;
    if sync {
        file.as_file().sync_all()?;
    }
    file.persist(path).map_err(|e| e.error)?;
    if sync {
        std::fs::File::open(dir)?.sync_all()?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Where a store search's time goes

struct Breakdown {
    word: &'static str,
    titles_ms: f64,
    title_hits: usize,
    prefix_query: String,
    prefix_first_ms: f64,
    exact_query: String,
    exact_first_ms: f64,
    rows_read: usize,
    conversations: usize,
    loop_ms: f64,
    plan: String,
}

impl Breakdown {
    fn to_json(&self) -> Value {
        json!({
            "word": self.word,
            "titles_ms": self.titles_ms,
            "title_hits": self.title_hits,
            "prefix_query": self.prefix_query,
            "prefix_first_row_ms": self.prefix_first_ms,
            "exact_query": self.exact_query,
            "exact_first_row_ms": self.exact_first_ms,
            "message_rows_read": self.rows_read,
            "conversations_found": self.conversations,
            "message_loop_ms": self.loop_ms,
            "plan": self.plan,
        })
    }
}

/// The steps of `ConversationStore::search` for a one-word query, timed one by one (medians of
/// 20) on a connection of its own: the title query, the message index's first row (for the
/// prefix query the store runs and for the exact word), and the loop over the message index until
/// the page is full (the owner of each row looked up; the summaries and snippets left out).
fn search_breakdown(db: &Path, word: &'static str) -> Res<Breakdown> {
    let conn = Connection::open_with_flags(db, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    let prefix = format!("\"{word}\"*");
    let exact = format!("\"{word}\"");
    let median = |f: &mut dyn FnMut() -> Res<usize>| -> Res<(f64, usize)> {
        let mut times = Vec::new();
        let mut value = 0;
        for _ in 0..20 {
            let start = Instant::now();
            value = f()?;
            times.push(start.elapsed().as_secs_f64() * 1000.0);
        }
        times.sort_by(f64::total_cmp);
        Ok((times[times.len() / 2], value))
    };
    let (titles_ms, title_hits) = median(&mut || {
        let mut st = conn.prepare_cached(
            "SELECT c.num FROM titles_fts t JOIN conversations c ON c.num = t.rowid \
             WHERE titles_fts MATCH ?1 AND c.deleted_at_ms IS NULL ORDER BY c.updated_at_ms DESC LIMIT ?2",
        )?;
        let rows = st.query_map(rusqlite::params![prefix, i64::from(PAGE)], |r| r.get::<_, i64>(0))?;
        Ok(rows.count())
    })?;
    let first_row = |query: &str| -> Res<f64> {
        let (t, _) = median(&mut || {
            let mut st = conn.prepare_cached(
                "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?1 ORDER BY rowid DESC",
            )?;
            let first: Option<i64> = st.query_row([query], |r| r.get(0)).optional()?;
            Ok(usize::from(first.is_some()))
        })?;
        Ok(t)
    };
    let prefix_first_ms = first_row(&prefix)?;
    let exact_first_ms = first_row(&exact)?;
    let mut rows_read = 0;
    let (loop_ms, conversations) = median(&mut || {
        let mut matching = conn.prepare_cached(
            "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?1 ORDER BY rowid DESC",
        )?;
        let mut owner = conn.prepare_cached("SELECT conversation FROM messages WHERE num = ?1")?;
        let mut seen = HashSet::new();
        let mut rows = matching.query([&prefix])?;
        rows_read = 0;
        while seen.len() < PAGE as usize {
            let Some(row) = rows.next()? else { break };
            rows_read += 1;
            let num: i64 = row.get(0)?;
            if let Some(c) = owner.query_row([num], |r| r.get::<_, i64>(0)).optional()? {
                seen.insert(c);
            }
        }
        Ok(seen.len())
    })?;
    let plan = conn
        .prepare(
            "EXPLAIN QUERY PLAN SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?1 ORDER BY rowid DESC",
        )?
        .query_map([&prefix], |r| r.get::<_, String>(3))?
        .collect::<Result<Vec<_>, _>>()?
        .join("; ");
    Ok(Breakdown {
        word,
        titles_ms,
        title_hits,
        prefix_query: prefix,
        prefix_first_ms,
        exact_query: exact,
        exact_first_ms,
        rows_read,
        conversations,
        loop_ms,
        plan,
    })
}

//! `search_in_files`: regex search over file contents, built on ripgrep's own crates and run much
//! the way ripgrep runs: one reusable `Searcher` per thread, buffered reads, binary files skipped at
//! the first NUL, `.gitignore` respected, and no allocation per searched line (only per reported
//! match). The directory walk goes by handle (see `walk.rs`) on the calling thread and hands each
//! file to the search threads as its directory's handle plus its name, so no thread ever opens a
//! path string.

use std::ops::ControlFlow;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use async_trait::async_trait;
use grep_regex::RegexMatcherBuilder;
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder, Sink, SinkMatch};
use ignore::overrides::{Override, OverrideBuilder};
use schemars::JsonSchema;
use serde::Deserialize;
use warden_protocol::{DangerLevel, SearchHit, SearchHits, ToolCategory, ToolErrorCode};

use crate::sandbox::{Access, SandboxError};
use crate::tool::fs_util::blocking;
use crate::tool::walk::{walk, Entry, WalkOptions};
use crate::tool::{FileAccess, Needs, ToolContext, ToolOutput, TypedTool};

/// A reported line is cut to this many bytes.
const MAX_LINE_BYTES: usize = 500;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SearchOutputMode {
    /// Matching lines as `path:line:text`.
    #[default]
    Content,
    /// Only the paths of files with a match.
    Files,
    /// The number of matching lines per file.
    Count,
}

/// Search file contents with a regular expression (Rust regex syntax, like ripgrep), under a
/// directory of the project. Files ignored by `.gitignore`, hidden files and binary files are
/// skipped. Returns matching lines (`path:line:text`), only file paths, or per-file match counts.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchInFilesInput {
    /// The regular expression to search for.
    pub query: String,
    /// Directory (or file) to search, relative to the project root (default: the project root).
    #[serde(default)]
    pub path: Option<String>,
    /// Only search files matching these globs (ripgrep `-g` syntax; `!` excludes), e.g. `["*.rs", "!tests/**"]`.
    #[serde(default)]
    pub globs: Vec<String>,
    /// Match case exactly (default true).
    #[serde(default)]
    pub case_sensitive: Option<bool>,
    /// `content` (default): matching lines; `files`: paths only; `count`: matches per file.
    #[serde(default)]
    pub output_mode: SearchOutputMode,
    /// Report at most this many lines (content) or files (files, count); default 200.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub max_results: Option<u64>,
}

pub struct SearchInFilesTool;

#[async_trait]
impl TypedTool for SearchInFilesTool {
    type Input = SearchInFilesInput;
    const NAME: &'static str = "search_in_files";
    const LABEL: &'static str = "Search inside files";
    const CATEGORY: ToolCategory = ToolCategory::Search;
    const DANGER: DangerLevel = DangerLevel::Safe;
    const PARALLEL: bool = true;

    /// What it reads, for the permission rules.
    fn needs(&self, input: &SearchInFilesInput) -> Needs {
        FileAccess::read(input.path.clone().unwrap_or_else(|| ".".to_owned()))
    }

    async fn run(&self, input: SearchInFilesInput, ctx: ToolContext) -> ToolOutput {
        blocking(move || search(input, &ctx)).await
    }
}

/// What one file contributed.
enum Found {
    Line { path: String, line: u64, text: String },
    File { path: String },
    Count { path: String, count: u64 },
}

impl Found {
    /// The hit as the tool block lists it.
    fn hit(self) -> SearchHit {
        match self {
            Self::Line { path, line, text } => {
                SearchHit { line: Some(line), text: Some(text), ..SearchHit::at(path) }
            }
            Self::File { path } => SearchHit::at(path),
            Self::Count { path, count } => {
                let s = if count == 1 { "" } else { "es" };
                SearchHit { text: Some(format!("{count} match{s}")), ..SearchHit::at(path) }
            }
        }
    }
}

struct Shared {
    results: Mutex<Vec<Found>>,
    reported: AtomicU64,
    matches: AtomicU64,
    files_matched: AtomicU64,
    files_searched: AtomicU64,
    capped: AtomicBool,
}

/// Collects one file's matches; reset per file, reused per thread.
struct FileSink<'a> {
    mode: SearchOutputMode,
    path: &'a str,
    count: u64,
    lines: Vec<Found>,
    binary: bool,
    room: u64,
}

impl Sink for FileSink<'_> {
    type Error = std::io::Error;

    fn matched(&mut self, _searcher: &Searcher, mat: &SinkMatch<'_>) -> Result<bool, std::io::Error> {
        self.count += 1;
        match self.mode {
            SearchOutputMode::Files => Ok(false),
            SearchOutputMode::Count => Ok(true),
            SearchOutputMode::Content => {
                if (self.lines.len() as u64) < self.room {
                    let bytes = mat.bytes();
                    let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
                    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
                    let cut = &bytes[..bytes.len().min(MAX_LINE_BYTES)];
                    let mut text = String::from_utf8_lossy(cut).into_owned();
                    if cut.len() < bytes.len() {
                        text.push_str(" […]");
                    }
                    self.lines.push(Found::Line {
                        path: self.path.to_owned(),
                        line: mat.line_number().unwrap_or(0),
                        text,
                    });
                }
                Ok(true)
            }
        }
    }

    fn binary_data(&mut self, _searcher: &Searcher, _offset: u64) -> Result<bool, std::io::Error> {
        // Like ripgrep: a file found to be binary while walking counts as having no matches.
        self.binary = true;
        Ok(false)
    }
}

#[allow(clippy::too_many_lines)] // One search: options, matcher, walk and the output modes, in order.
fn search(input: SearchInFilesInput, ctx: &ToolContext) -> ToolOutput {
    if input.query.is_empty() {
        return ToolOutput::error(ToolErrorCode::ValidationError, "invalid input: field `query` is empty");
    }
    let matcher = match RegexMatcherBuilder::new()
        .case_insensitive(!input.case_sensitive.unwrap_or(true))
        .line_terminator(Some(b'\n'))
        .build(&input.query)
    {
        Ok(m) => m,
        Err(e) => {
            return ToolOutput::error(
                ToolErrorCode::ValidationError,
                format!("invalid input: field `query`: {e}"),
            )
        }
    };
    let resolved = match ctx.workspace.resolve(input.path.as_deref().unwrap_or("."), Access::Read) {
        Ok(r) => r,
        Err(e) => return e.into(),
    };
    let is_dir = match ctx.workspace.metadata(&resolved) {
        Ok(meta) => meta.is_dir(),
        Err(SandboxError::NotFound { .. }) => {
            return ToolOutput::error(
                ToolErrorCode::FileNotFound,
                format!("{}: no such file or directory", resolved.display()),
            )
        }
        Err(e) => return e.into(),
    };
    let overrides =
        match build_overrides(&ctx.workspace.roots()[resolved.root].join(&resolved.relative), &input.globs) {
            Ok(o) => o,
            Err(error) => return error,
        };
    let mode = input.output_mode;
    let max = input.max_results.unwrap_or(200).max(1);
    let shared = Shared {
        results: Mutex::new(Vec::new()),
        reported: AtomicU64::new(0),
        matches: AtomicU64::new(0),
        files_matched: AtomicU64::new(0),
        files_searched: AtomicU64::new(0),
        capped: AtomicBool::new(false),
    };
    let line_numbers = mode == SearchOutputMode::Content;
    let new_searcher = || {
        SearcherBuilder::new()
            .binary_detection(BinaryDetection::quit(b'\x00'))
            .line_number(line_numbers)
            .build()
    };
    if !is_dir {
        // One file: opened through the sandbox like file_read does.
        let file = match ctx.workspace.open_read(&resolved) {
            Ok(f) => f,
            Err(e) => return e.into(),
        };
        search_one(&mut new_searcher(), &matcher, &file, &resolved.display(), mode, max, &shared);
        return report(&shared, mode, &input.query);
    }
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(12);
    let (tx, rx) = std::sync::mpsc::sync_channel::<Entry>(256);
    let rx = Mutex::new(rx);
    let walked = std::thread::scope(|scope| {
        for _ in 0..threads {
            let (rx, shared, matcher, cancel) = (&rx, &shared, &matcher, &ctx.cancel);
            scope.spawn(move || {
                let mut searcher = new_searcher();
                loop {
                    let job = match rx.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => return,
                    };
                    let Ok(entry) = job else { return };
                    if cancel.is_cancelled()
                        || (shared.capped.load(Ordering::Relaxed) && mode != SearchOutputMode::Count)
                    {
                        continue;
                    }
                    let Ok(file) = entry.open() else { continue };
                    if !file.metadata().is_ok_and(|m| m.is_file()) {
                        continue;
                    }
                    search_one(&mut searcher, matcher, &file, &entry.display(), mode, max, shared);
                }
            });
        }
        let options = WalkOptions { include_hidden: false, max_depth: None, overrides, skip_git: false };
        let walked = walk(&ctx.workspace, &resolved, &options, &ctx.cancel, |entry| {
            if shared.capped.load(Ordering::Relaxed) && mode != SearchOutputMode::Count {
                return ControlFlow::Break(());
            }
            if !entry.file_type.is_file() {
                return ControlFlow::Continue(());
            }
            match tx.send(entry) {
                Ok(()) => ControlFlow::Continue(()),
                Err(_) => ControlFlow::Break(()),
            }
        });
        drop(tx);
        walked
    });
    if let Err(e) = walked {
        return e.into();
    }
    if ctx.cancel.is_cancelled() {
        return ToolOutput::error(ToolErrorCode::Cancelled, "search cancelled");
    }
    report(&shared, mode, &input.query)
}

/// The `globs` input as ripgrep-style overrides rooted at the searched directory.
fn build_overrides(at: &Path, globs: &[String]) -> Result<Option<Override>, ToolOutput> {
    if globs.is_empty() {
        return Ok(None);
    }
    let invalid = |e: ignore::Error| {
        ToolOutput::error(ToolErrorCode::ValidationError, format!("invalid input: field `globs`: {e}"))
    };
    let mut overrides = OverrideBuilder::new(at);
    for glob in globs {
        overrides.add(glob).map_err(invalid)?;
    }
    overrides.build().map(Some).map_err(invalid)
}

/// Search one open file and record what it contributed.
fn search_one(
    searcher: &mut Searcher,
    matcher: &grep_regex::RegexMatcher,
    file: &std::fs::File,
    shown: &str,
    mode: SearchOutputMode,
    max: u64,
    shared: &Shared,
) {
    shared.files_searched.fetch_add(1, Ordering::Relaxed);
    let room = max.saturating_sub(shared.reported.load(Ordering::Relaxed));
    let mut sink = FileSink { mode, path: shown, count: 0, lines: Vec::new(), binary: false, room };
    if searcher.search_file(matcher, file, &mut sink).is_err() || sink.binary || sink.count == 0 {
        return;
    }
    shared.matches.fetch_add(sink.count, Ordering::Relaxed);
    shared.files_matched.fetch_add(1, Ordering::Relaxed);
    let unreported = mode == SearchOutputMode::Content && sink.count > sink.lines.len() as u64;
    let (count, lines) = (sink.count, sink.lines);
    let found: Vec<Found> = match mode {
        SearchOutputMode::Content => lines,
        SearchOutputMode::Files => vec![Found::File { path: shown.to_owned() }],
        SearchOutputMode::Count => vec![Found::Count { path: shown.to_owned(), count }],
    };
    let n = found.len() as u64;
    let before = shared.reported.fetch_add(n, Ordering::Relaxed);
    let keep = max.saturating_sub(before).min(n) as usize;
    if unreported || (keep as u64) < n {
        shared.capped.store(true, Ordering::Relaxed);
    }
    if keep > 0 {
        if let Ok(mut results) = shared.results.lock() {
            results.extend(found.into_iter().take(keep));
        }
    }
}

fn report(shared: &Shared, mode: SearchOutputMode, query: &str) -> ToolOutput {
    let mut results = shared.results.lock().map(|mut r| std::mem::take(&mut *r)).unwrap_or_default();
    let key = |f: &Found| match f {
        Found::Line { path, line, .. } => (path.clone(), *line),
        Found::File { path } | Found::Count { path, .. } => (path.clone(), 0),
    };
    results.sort_by_key(key);
    let matches = shared.matches.load(Ordering::Relaxed);
    let files_matched = shared.files_matched.load(Ordering::Relaxed);
    let files_searched = shared.files_searched.load(Ordering::Relaxed);
    let capped = shared.capped.load(Ordering::Relaxed);
    let meta = |out: ToolOutput| {
        out.with_metadata("matches", matches)
            .with_metadata("files_with_matches", files_matched)
            .with_metadata("files_searched", files_searched)
            .with_metadata("capped", capped)
    };
    if matches == 0 {
        return meta(ToolOutput::error(
            ToolErrorCode::ExecutionError,
            format!("no matches for `{query}` in {files_searched} files searched"),
        ));
    }
    let mut lines: Vec<String> = results
        .iter()
        .map(|f| match f {
            Found::Line { path, line, text } => format!("{path}:{line}:{text}"),
            Found::File { path } => path.clone(),
            Found::Count { path, count } => format!("{path}:{count}"),
        })
        .collect();
    let items = results.into_iter().map(Found::hit).collect();
    let approx = if capped && mode != SearchOutputMode::Count { "at least " } else { "" };
    lines.push(format!("[{approx}{matches} matching lines in {approx}{files_matched} files]"));
    if capped {
        lines.push("[result cap reached: narrow the query, path or globs, or raise max_results]".to_owned());
    }
    meta(ToolOutput::success(lines.join("\n")))
        .with_report(|report| report.hits = Some(SearchHits { items, capped }))
}

//! Command rules: `cargo test *`, `git status`, matched on the command the blocklist lexes.
//!
//! A pattern is shell words; a last word `*` (unquoted) stands for any further words, and without
//! it the command must have exactly the pattern's words. The pattern `@read-only` stands for every
//! command that only reads, its words checked one by one ([`super::read_only`]). An allow rule covers a command only when
//! every simple command in it (`a && b`, `a | b`, `a; b`) is covered, each after the wrappers that
//! change nothing of what runs are peeled (`nice`, `timeout`, `nohup`, `time`, `stdbuf`, and `env`
//! without an assignment or option); and never a command with `sudo`, `doas`, `xargs`, a shell
//! (`sh -c`, `bash x.sh`), `eval`, `source`, a leading assignment, a redirection into a file other
//! than `/dev/null`, or anything computed — nor one the blocklist does not judge Known.
//!
//! Ask and deny rules look further, since for them seeing more is safer: every simple command,
//! those in substitutions and in `sh -c '…'` included, wrappers of every kind peeled, the program
//! compared by its base name. What they cannot see into (a computed program) is [`Seen::hidden`].

use super::blocklist::{base_name, is_assignment, judge, Verdict, SHELLS};
use super::read_only::{self, READ_ONLY_PATTERN};
use super::shell_words::{self, Piece, Segment, Word};

/// A command pattern as a rule holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommandPattern {
    /// Words the command starts with (`rest`: the last word was `*`, any further words) or is.
    Words { words: Vec<String>, rest: bool },
    /// `@read-only`: any command that only reads ([`read_only`]).
    ReadOnly,
}

impl CommandPattern {
    pub fn parse(text: &str) -> Result<Self, String> {
        if text.trim() == READ_ONLY_PATTERN {
            return Ok(Self::ReadOnly);
        }
        let bad = |why: &str| format!("{text:?} is not a command pattern: {why}");
        if text.trim_start().starts_with('@') {
            return Err(bad(&format!("the one class of commands a pattern can name is {READ_ONLY_PATTERN}")));
        }
        let parsed = shell_words::parse(text).map_err(|_| bad("it nests too deeply"))?;
        let [segment] = parsed.segments.as_slice() else {
            return Err(bad("a pattern is one command (a compound command is covered part by part)"));
        };
        if parsed.compound || !segment.redirects.is_empty() {
            return Err(bad("a pattern has no operators or redirections"));
        }
        let mut words = Vec::new();
        let mut rest = false;
        for (n, word) in segment.words.iter().enumerate() {
            if rest {
                return Err(bad("`*` stands for the rest of the command, so it comes last"));
            }
            match word.0.as_slice() {
                [Piece::Text { text, quoted: false }] if text == "*" => rest = true,
                pieces if pieces.iter().all(|p| matches!(p, Piece::Text { .. })) => words.push(word.text()),
                _ => return Err(bad(&format!("word {} is computed ($…, `…`)", n + 1))),
            }
        }
        if words.is_empty() {
            return Err(bad("it names no program"));
        }
        Ok(Self::Words { words, rest })
    }

    /// The program it names (none for a class of commands).
    pub fn program(&self) -> Option<&str> {
        match self {
            Self::Words { words, .. } => words.first().map(String::as_str),
            Self::ReadOnly => None,
        }
    }

    /// Whether it ends with `*` (any further words).
    pub fn takes_any_rest(&self) -> bool {
        matches!(self, Self::Words { rest: true, .. })
    }

    /// The pattern that covers exactly `words`.
    pub fn exact(words: &[String]) -> Self {
        Self::Words { words: words.to_vec(), rest: false }
    }

    /// `words` followed by anything.
    pub fn prefix(words: &[String]) -> Self {
        Self::Words { words: words.to_vec(), rest: true }
    }

    /// Whether the pattern covers one simple command of an allow check: its words compared as
    /// written (a program given by another path is another program).
    fn covers(&self, part: &[Word]) -> bool {
        match self {
            Self::Words { .. } => self.covers_with(part, |pattern, word| pattern == word),
            Self::ReadOnly => literal_words(part).is_some_and(|words| read_only::reads_only(&words)),
        }
    }

    /// Whether the pattern names one simple command ask and deny rules see: the program by its
    /// base name.
    fn names(&self, part: &[Word]) -> bool {
        if let Self::ReadOnly = self {
            let Some(mut words) = literal_words(part) else { return false };
            if let Some(program) = words.first_mut() {
                *program = base_name(program).to_owned();
            }
            return read_only::reads_only(&words);
        }
        let mut first = true;
        self.covers_with(part, |pattern, word| {
            let same = if first { base_name(pattern) == base_name(word) } else { pattern == word };
            first = false;
            same
        })
    }

    fn covers_with(&self, part: &[Word], mut same: impl FnMut(&str, &str) -> bool) -> bool {
        let Self::Words { words, rest } = self else { return false };
        if part.len() < words.len() || (!rest && part.len() != words.len()) {
            return false;
        }
        // A word compared with the pattern's must be literal: `$X` is whatever X holds when it runs.
        words.iter().zip(part).all(|(pattern, word)| literal(word).is_some_and(|text| same(pattern, &text)))
    }
}

/// The pattern as the settings keep it (`CommandPattern::parse` reads it back).
impl std::fmt::Display for CommandPattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Self::Words { words, rest } = self else { return f.write_str(READ_ONLY_PATTERN) };
        let mut shown: Vec<String> = words.iter().map(|w| quote(w)).collect();
        // A program whose name starts with `@` is quoted, so that it never reads back as a class.
        if let Some(program) = shown.first_mut().filter(|p| p.starts_with('@')) {
            *program = format!("'{program}'");
        }
        if *rest {
            shown.push("*".to_owned());
        }
        f.write_str(&shown.join(" "))
    }
}

/// A word as a pattern writes it: quoted when the shell would read it otherwise.
fn quote(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_./:=@%+,-".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The text of a word made only of literal text.
fn literal(word: &Word) -> Option<String> {
    word.0.iter().all(|p| matches!(p, Piece::Text { .. })).then(|| word.text())
}

/// The texts of a simple command's words, when every one is literal.
fn literal_words(part: &[Word]) -> Option<Vec<String>> {
    part.iter().map(literal).collect()
}

/// The simple commands an allow rule must each cover, wrappers peeled; `None` when no allow rule
/// may cover the command at all (see the module's words).
pub(crate) fn allow_parts(command: &str) -> Option<Vec<Vec<Word>>> {
    if judge(command) != Verdict::Known {
        return None;
    }
    let parsed = shell_words::parse(command).ok()?;
    if !parsed.scripts.is_empty() || parsed.segments.is_empty() {
        return None;
    }
    parsed.segments.iter().map(allow_part).collect()
}

/// One simple command as an allow rule sees it, or `None` when none may cover it.
fn allow_part(segment: &Segment) -> Option<Vec<Word>> {
    if !segment.redirects.iter().all(harmless_redirect) {
        return None;
    }
    if segment.words.iter().any(|w| w.0.iter().any(|p| matches!(p, Piece::Opaque { .. }))) {
        return None;
    }
    let words = peel_plain_wrappers(&segment.words)?;
    let program = literal(words.first()?)?;
    let name = base_name(&program);
    if is_assignment(&program) || SHELLS.contains(&name) || NEVER_COVERED.contains(&name) {
        return None;
    }
    Some(words.to_vec())
}

/// Programs (and shell words) no allow rule covers: they run something else, as someone else, or
/// are not a program at all.
const NEVER_COVERED: &[&str] = &[
    "sudo", "doas", "su", "pkexec", "xargs", "eval", "source", ".", "exec", "command", "builtin", "busybox",
    "setsid", "alias", "ionice", "chroot", "unshare", "nsenter", "env", "nice", "timeout", "nohup", "time",
    "stdbuf", "if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac",
    "function", "select", "{", "}", "!", "[[", "]]", "coproc",
];

/// A redirection that writes no file: a descriptor copied or closed, `/dev/null`, or an input.
fn harmless_redirect(redirect: &shell_words::Redirect) -> bool {
    let target = redirect.target.text();
    let literal_target = literal(&redirect.target).is_some();
    if redirect.op.ends_with('&') && target.chars().all(|c| c.is_ascii_digit() || c == '-') {
        return literal_target;
    }
    if redirect.op.contains('>') {
        return literal_target && target == "/dev/null";
    }
    // `<` reads a file; `<<` and `<<<` are data.
    literal_target || redirect.op.starts_with("<<")
}

/// `words` without the wrappers that change nothing of what runs: `nice`, `timeout`, `nohup`,
/// `time`, `stdbuf`, and `env` with no assignment or option. `None` when what follows cannot be
/// told (an option these do not take, a computed word).
fn peel_plain_wrappers(mut words: &[Word]) -> Option<&[Word]> {
    loop {
        let Some(first) = words.first() else { return Some(words) };
        let program = literal(first)?;
        let args = &words[1..];
        let skip = match base_name(&program) {
            "nohup" => 0,
            "time" => options(args, &["-p"], &[])?,
            "nice" => options(args, &[], &["-n"])?,
            "stdbuf" => options(args, &[], &["-i", "-o", "-e"])?,
            "timeout" => {
                let flags = ["--preserve-status", "--foreground", "-v", "--verbose"];
                let taken = options(args, &flags, &["-s", "-k"])?;
                // The duration.
                literal(args.get(taken)?)?;
                taken + 1
            }
            "env" => {
                let next = literal(args.first()?)?;
                if next.starts_with('-') || is_assignment(&next) {
                    return None;
                }
                0
            }
            _ => return Some(words),
        };
        words = args.get(skip..)?;
    }
}

/// How many words of `args` are options of a wrapper: `flags` alone, `with_value` followed by a
/// value or joined to it (`-n5`, `-oL`, `--signal=TERM`), and `-N` (nice's old form). `None` for
/// an option it does not know.
fn options(args: &[Word], flags: &[&str], with_value: &[&str]) -> Option<usize> {
    let mut n = 0;
    while let Some(word) = args.get(n) {
        let text = literal(word)?;
        if text == "--" {
            return Some(n + 1);
        }
        if !text.starts_with('-') || text == "-" {
            return Some(n);
        }
        if flags.contains(&text.as_str()) {
            n += 1;
        } else if with_value.contains(&text.as_str()) {
            n += 2;
        } else if with_value.iter().any(|o| text.starts_with(o)) && !text.starts_with("--")
            || text.starts_with("--") && text.contains('=')
            || text[1..].chars().all(|c| c.is_ascii_digit())
        {
            n += 1;
        } else {
            return None;
        }
    }
    Some(n)
}

/// The words of a command an allow rule could cover, when it is one simple command of literal
/// words (wrappers peeled): what "Always allow…" narrows a rule from.
pub fn single_command(command: &str) -> Option<Vec<String>> {
    let parts = allow_parts(command)?;
    let [part] = parts.as_slice() else { return None };
    literal_words(part)
}

/// Whether every simple command an allow check sees is covered by one of `patterns`; the pattern
/// that covered each part, in order.
pub(crate) fn covered_by<'a, P>(
    parts: &[Vec<Word>],
    patterns: &'a [P],
    pattern_of: impl Fn(&P) -> &CommandPattern,
) -> Option<Vec<&'a P>> {
    parts.iter().map(|part| patterns.iter().find(|p| pattern_of(p).covers(part))).collect()
}

/// What ask and deny rules see of a command.
#[derive(Debug, Default)]
pub struct Seen {
    parts: Vec<Vec<Word>>,
    /// Something runs that cannot be seen before it runs (a computed program, a script too deep).
    pub hidden: bool,
}

impl Seen {
    /// Whether `pattern` names any simple command seen.
    pub fn named_by(&self, pattern: &CommandPattern) -> bool {
        self.parts.iter().any(|part| pattern.names(part))
    }
}

/// Every simple command of `command`, also those in substitutions and shells' `-c` scripts, each
/// with every wrapper peeled.
pub fn seen_parts(command: &str) -> Seen {
    let mut seen = Seen::default();
    see(command, 0, &mut seen);
    seen
}

fn see(script: &str, depth: usize, seen: &mut Seen) {
    let Ok(parsed) =
        shell_words::parse(script).map_err(|_| ()).and_then(|p| (depth <= 4).then_some(p).ok_or(()))
    else {
        seen.hidden = true;
        return;
    };
    for segment in &parsed.segments {
        let words = peel_every_wrapper(&segment.words);
        let Some(first) = words.first() else { continue };
        let Some(program) = literal(first) else {
            seen.hidden = true;
            continue;
        };
        let name = base_name(&program);
        if SHELLS.contains(&name) || name == "eval" {
            // `sh -c 'script'`, `bash -lc 'script'`, `eval words`: a command line of its own.
            let runs_script = |w: &Word| {
                literal(w).is_some_and(|t| t.starts_with('-') && !t.starts_with("--") && t.contains('c'))
            };
            let script = match words.iter().position(runs_script) {
                Some(at) => words.get(at + 1).map(Word::text),
                None if name == "eval" => {
                    Some(words[1..].iter().map(Word::text).collect::<Vec<_>>().join(" "))
                }
                None => None,
            };
            if let Some(script) = script {
                see(&script, depth + 1, seen);
            }
        }
        seen.parts.push(words.to_vec());
        // What a wrapper's options hide is a guess (`sudo -u root git push`: is `root` an option's
        // value?): every later word may be the program.
        if words.len() != segment.words.len() {
            for start in 1..segment.words.len() {
                seen.parts.push(segment.words[start..].to_vec());
            }
        }
    }
}

/// `words` without any leading wrapper (`sudo -u x`, `env A=1`, `xargs -0`, `nice -n 5`, …) or
/// assignment: the program they run. Options are skipped as words starting with `-` (and the
/// value after an option that takes one is a guess: the program is looked for as the first word
/// that is neither).
fn peel_every_wrapper(mut words: &[Word]) -> &[Word] {
    const WRAPPERS: &[&str] = &[
        "sudo", "doas", "env", "nice", "ionice", "nohup", "time", "timeout", "stdbuf", "xargs", "command",
        "builtin", "exec", "setsid", "busybox", "chroot", "unshare", "nsenter", "su", "pkexec",
    ];
    loop {
        let Some(text) = words.first().and_then(literal) else { return words };
        if is_assignment(&text) {
            words = &words[1..];
            continue;
        }
        if !WRAPPERS.contains(&base_name(&text)) {
            return words;
        }
        let wrapper = base_name(&text).to_owned();
        words = &words[1..];
        while let Some(text) = words.first().and_then(literal) {
            let is_duration = wrapper == "timeout" && text.starts_with(|c: char| c.is_ascii_digit());
            if text.starts_with('-') || is_assignment(&text) || is_duration {
                words = &words[1..];
            } else {
                break;
            }
        }
    }
}

#[cfg(test)]
#[path = "command_rule_tests.rs"]
mod tests;

//! `search_in_files`: regex search over file contents, built on ripgrep's own crates and run the way
//! ripgrep runs: a parallel directory walk (`ignore`), one reusable `Searcher` per thread, buffered
//! reads, binary files skipped at the first NUL, `.gitignore` respected, and no allocation per
//! searched line (only per reported match).

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use grep_regex::RegexMatcherBuilder;
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder, Sink, SinkMatch};
use ignore::overrides::OverrideBuilder;
use ignore::WalkState;
use schemars::JsonSchema;
use serde::Deserialize;
use warden_protocol::{DangerLevel, ToolCategory, ToolDefinition, ToolErrorCode};

use super::fs_util::blocking;
use super::input::{definition_for, parse_input};
use super::walk::walker;
use super::{Tool, ToolContext, ToolOutput};
use crate::sandbox::Access;

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

pub struct SearchInFilesTool {
    definition: ToolDefinition,
}

impl SearchInFilesTool {
    pub fn new() -> Self {
        Self {
            definition: definition_for::<SearchInFilesInput>(
                "search_in_files",
                ToolCategory::Search,
                DangerLevel::Safe,
                true,
            ),
        }
    }
}

impl Default for SearchInFilesTool {
    fn default() -> Self {
        Self::new()
    }
}

#[async_trait]
impl Tool for SearchInFilesTool {
    fn definition(&self) -> &ToolDefinition {
        &self.definition
    }

    async fn execute(&self, input: serde_json::Value, ctx: ToolContext) -> ToolOutput {
        let input: SearchInFilesInput = match parse_input(input) {
            Ok(input) => input,
            Err(error) => return error,
        };
        blocking(move || search(input, &ctx)).await
    }
}

/// What one file contributed.
enum Found {
    Line { path: String, line: u64, text: String },
    File { path: String },
    Count { path: String, count: u64 },
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

fn open_no_follow(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // The walk saw a regular file; a symlink swapped in since is not followed.
        options.custom_flags(nix::fcntl::OFlag::O_NOFOLLOW.bits());
    }
    options.open(path)
}

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
    if !resolved.absolute.exists() {
        return ToolOutput::error(
            ToolErrorCode::FileNotFound,
            format!("{}: no such file or directory", resolved.display()),
        );
    }
    let mut builder = walker(&ctx.workspace, &resolved.absolute, false);
    if !input.globs.is_empty() {
        let mut overrides = OverrideBuilder::new(&resolved.absolute);
        for glob in &input.globs {
            if let Err(e) = overrides.add(glob) {
                return ToolOutput::error(
                    ToolErrorCode::ValidationError,
                    format!("invalid input: field `globs`: {e}"),
                );
            }
        }
        match overrides.build() {
            Ok(o) => {
                builder.overrides(o);
            }
            Err(e) => {
                return ToolOutput::error(
                    ToolErrorCode::ValidationError,
                    format!("invalid input: field `globs`: {e}"),
                )
            }
        }
    }
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(12);
    builder.threads(threads);
    let mode = input.output_mode;
    let max = input.max_results.unwrap_or(200).max(1);
    let root = ctx.workspace.roots()[resolved.root].clone();
    let shared = Arc::new(Shared {
        results: Mutex::new(Vec::new()),
        reported: AtomicU64::new(0),
        matches: AtomicU64::new(0),
        files_matched: AtomicU64::new(0),
        files_searched: AtomicU64::new(0),
        capped: AtomicBool::new(false),
    });
    let line_numbers = mode == SearchOutputMode::Content;
    builder.build_parallel().run(|| {
        let matcher = matcher.clone();
        let shared = shared.clone();
        let root = root.clone();
        let cancel = ctx.cancel.clone();
        let mut searcher = SearcherBuilder::new()
            .binary_detection(BinaryDetection::quit(b'\x00'))
            .line_number(line_numbers)
            .build();
        Box::new(move |entry| {
            if cancel.is_cancelled()
                || (shared.capped.load(Ordering::Relaxed) && mode != SearchOutputMode::Count)
            {
                return WalkState::Quit;
            }
            let Ok(entry) = entry else { return WalkState::Continue };
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                return WalkState::Continue;
            }
            let Ok(file) = open_no_follow(entry.path()) else { return WalkState::Continue };
            shared.files_searched.fetch_add(1, Ordering::Relaxed);
            let shown = entry.path().strip_prefix(&root).unwrap_or(entry.path()).to_string_lossy();
            let room = max.saturating_sub(shared.reported.load(Ordering::Relaxed));
            let mut sink = FileSink { mode, path: &shown, count: 0, lines: Vec::new(), binary: false, room };
            if searcher.search_file(&matcher, &file, &mut sink).is_err() || sink.binary || sink.count == 0 {
                return WalkState::Continue;
            }
            shared.matches.fetch_add(sink.count, Ordering::Relaxed);
            shared.files_matched.fetch_add(1, Ordering::Relaxed);
            let unreported = mode == SearchOutputMode::Content && sink.count > sink.lines.len() as u64;
            let (count, lines) = (sink.count, sink.lines);
            let found: Vec<Found> = match mode {
                SearchOutputMode::Content => lines,
                SearchOutputMode::Files => vec![Found::File { path: shown.into_owned() }],
                SearchOutputMode::Count => vec![Found::Count { path: shown.into_owned(), count }],
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
            WalkState::Continue
        })
    });
    if ctx.cancel.is_cancelled() {
        return ToolOutput::error(ToolErrorCode::Cancelled, "search cancelled");
    }
    report(&shared, mode, &input.query)
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
    let approx = if capped && mode != SearchOutputMode::Count { "at least " } else { "" };
    lines.push(format!("[{approx}{matches} matching lines in {approx}{files_matched} files]"));
    if capped {
        lines.push("[result cap reached: narrow the query, path or globs, or raise max_results]".to_owned());
    }
    meta(ToolOutput::success(lines.join("\n")))
}

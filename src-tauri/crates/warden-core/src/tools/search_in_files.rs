//! `search_in_files`: regex search over file contents, built on ripgrep's own crates and run much
//! the way ripgrep runs: one reusable `Searcher` per thread, buffered reads, binary files skipped at
//! the first NUL, `.gitignore` respected, and no allocation per searched line (only per reported
//! match). The directory walk goes by handle (see `walk.rs`); each file is opened from its folder's
//! verified handle by its single name, so no thread ever opens a path string. How the walk and the
//! search share the threads is in `search_in_files/run.rs`.

mod run;
#[cfg(test)]
mod tests;

use std::path::Path;

use async_trait::async_trait;
use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use ignore::overrides::{Override, OverrideBuilder};
use schemars::JsonSchema;
use serde::Deserialize;
use warden_protocol::{DangerLevel, SearchHit, SearchHits, ToolCategory, ToolErrorCode};

use crate::sandbox::{Access, ResolvedPath, SandboxError};
use crate::tool::fs_util::blocking;
use crate::tool::{FileAccess, Needs, ToolContext, ToolOutput, TypedTool};
use run::{Search, Totals};

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

    /// The order hits are listed in: by path, then by line.
    fn sort_key(&self) -> (&str, u64) {
        match self {
            Self::Line { path, line, .. } => (path, *line),
            Self::File { path } | Self::Count { path, .. } => (path, 0),
        }
    }

    /// The hit as one line of the tool's text output.
    fn line(&self) -> String {
        match self {
            Self::Line { path, line, text } => format!("{path}:{line}:{text}"),
            Self::File { path } => path.clone(),
            Self::Count { path, count } => format!("{path}:{count}"),
        }
    }
}

fn search(input: SearchInFilesInput, ctx: &ToolContext) -> ToolOutput {
    let matcher = match build_matcher(&input) {
        Ok(m) => m,
        Err(error) => return error,
    };
    let resolved = match ctx.workspace.resolve(input.path.as_deref().unwrap_or("."), Access::Read) {
        Ok(r) => r,
        Err(e) => return e.into(),
    };
    let is_dir = match is_dir(ctx, &resolved) {
        Ok(is_dir) => is_dir,
        Err(error) => return error,
    };
    let overrides =
        match build_overrides(&ctx.workspace.roots()[resolved.root].join(&resolved.relative), &input.globs) {
            Ok(o) => o,
            Err(error) => return error,
        };
    let mode = input.output_mode;
    let search = Search::new(matcher, mode, input.max_results.unwrap_or(200).max(1), &ctx.cancel);
    if !is_dir {
        // One file: opened through the sandbox like file_read does.
        let file = match ctx.workspace.open_read(&resolved) {
            Ok(f) => f,
            Err(e) => return e.into(),
        };
        search.file(&file, &resolved.display());
        return report(search.finish(), mode, &input.query);
    }
    if let Err(e) = search.tree(&ctx.workspace, &resolved, overrides) {
        return e.into();
    }
    if ctx.cancel.is_cancelled() {
        return ToolOutput::error(ToolErrorCode::Cancelled, "search cancelled");
    }
    report(search.finish(), mode, &input.query)
}

/// The `query` input as a line-oriented matcher, as ripgrep builds it.
fn build_matcher(input: &SearchInFilesInput) -> Result<RegexMatcher, ToolOutput> {
    if input.query.is_empty() {
        return Err(ToolOutput::error(
            ToolErrorCode::ValidationError,
            "invalid input: field `query` is empty",
        ));
    }
    RegexMatcherBuilder::new()
        .case_insensitive(!input.case_sensitive.unwrap_or(true))
        .line_terminator(Some(b'\n'))
        .build(&input.query)
        .map_err(|e| {
            ToolOutput::error(ToolErrorCode::ValidationError, format!("invalid input: field `query`: {e}"))
        })
}

/// Whether what is searched is a directory (else one file), asked through its parent's handle.
fn is_dir(ctx: &ToolContext, resolved: &ResolvedPath) -> Result<bool, ToolOutput> {
    match ctx.workspace.metadata(resolved) {
        Ok(meta) => Ok(meta.is_dir()),
        Err(SandboxError::NotFound { .. }) => Err(ToolOutput::error(
            ToolErrorCode::FileNotFound,
            format!("{}: no such file or directory", resolved.display()),
        )),
        Err(e) => Err(e.into()),
    }
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

fn report(totals: Totals, mode: SearchOutputMode, query: &str) -> ToolOutput {
    let Totals { mut found, matches, files_matched, files_searched, capped } = totals;
    found.sort_unstable_by(|a, b| a.sort_key().cmp(&b.sort_key()));
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
    let mut lines: Vec<String> = found.iter().map(Found::line).collect();
    let items = found.into_iter().map(Found::hit).collect();
    let approx = if capped && mode != SearchOutputMode::Count { "at least " } else { "" };
    lines.push(format!("[{approx}{matches} matching lines in {approx}{files_matched} files]"));
    if capped {
        lines.push("[result cap reached: narrow the query, path or globs, or raise max_results]".to_owned());
    }
    meta(ToolOutput::success(lines.join("\n")))
        .with_report(|report| report.hits = Some(SearchHits { items, capped }))
}

//! `search_files`: find paths by glob under a directory (`.gitignore` respected).

use std::ops::ControlFlow;

use async_trait::async_trait;
use globset::GlobBuilder;
use schemars::JsonSchema;
use serde::Deserialize;
use warden_protocol::{DangerLevel, SearchHit, SearchHits, ToolCategory, ToolErrorCode};

use crate::sandbox::Access;
use crate::tool::fs_util::blocking;
use crate::tool::walk::{walk, WalkOptions};
use crate::tool::{FileAccess, Needs, ToolContext, ToolOutput, TypedTool};

const MAX_PATHS: usize = 1000;

/// Find files by glob pattern. A pattern without `/` matches file names anywhere (`*.rs`); one with
/// `/` matches paths relative to `path` (`src/**/mod.rs`). Files ignored by `.gitignore` are skipped;
/// hidden files only when the pattern names them (e.g. `.github/**`). Returns project-relative paths.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchFilesInput {
    /// Glob pattern, e.g. `*.toml`, `src/**/*.rs`, `**/test_*.py`.
    pub pattern: String,
    /// Directory to search under, relative to the project root (default: the project root).
    #[serde(default)]
    pub path: Option<String>,
}

pub struct SearchFilesTool;

#[async_trait]
impl TypedTool for SearchFilesTool {
    type Input = SearchFilesInput;
    const NAME: &'static str = "search_files";
    const LABEL: &'static str = "Find files by name";
    const CATEGORY: ToolCategory = ToolCategory::Search;
    const DANGER: DangerLevel = DangerLevel::Safe;
    const PARALLEL: bool = true;

    /// What it reads, for the permission rules.
    fn needs(&self, input: &SearchFilesInput) -> Needs {
        FileAccess::read(input.path.clone().unwrap_or_else(|| ".".to_owned()))
    }

    async fn run(&self, input: SearchFilesInput, ctx: ToolContext) -> ToolOutput {
        blocking(move || find(input, &ctx)).await
    }
}

fn find(input: SearchFilesInput, ctx: &ToolContext) -> ToolOutput {
    let pattern = input.pattern.trim().trim_start_matches("./");
    let glob = match GlobBuilder::new(pattern).literal_separator(true).build() {
        Ok(g) => g.compile_matcher(),
        Err(e) => {
            return ToolOutput::error(
                ToolErrorCode::ValidationError,
                format!("invalid input: field `pattern`: {e}"),
            )
        }
    };
    let by_name = !pattern.contains('/');
    let hidden = pattern.starts_with('.') || pattern.contains("/.");
    let resolved = match ctx.workspace.resolve(input.path.as_deref().unwrap_or("."), Access::Read) {
        Ok(r) => r,
        Err(e) => return e.into(),
    };
    if !ctx.workspace.metadata(&resolved).is_ok_and(|m| m.is_dir()) {
        return ToolOutput::error(
            ToolErrorCode::FileNotFound,
            format!("{}: no such directory", resolved.display()),
        );
    }
    let mut found = Vec::new();
    let mut total = 0usize;
    let options = WalkOptions { include_hidden: hidden, max_depth: None, overrides: None, skip_git: false };
    let walked = walk(&ctx.workspace, &resolved, &options, &ctx.cancel, |entry| {
        if !entry.file_type.is_file() {
            return ControlFlow::Continue(());
        }
        let rel_to_dir = entry.relative.strip_prefix(&resolved.relative).unwrap_or(&entry.relative);
        let hit = if by_name { glob.is_match(&entry.name) } else { glob.is_match(rel_to_dir) };
        if hit {
            total += 1;
            if found.len() < MAX_PATHS {
                found.push(entry.display());
            }
        }
        ControlFlow::Continue(())
    });
    if let Err(e) = walked {
        return e.into();
    }
    if ctx.cancel.is_cancelled() {
        return ToolOutput::error(ToolErrorCode::Cancelled, "search cancelled");
    }
    found.sort();
    if found.is_empty() {
        return ToolOutput::error(
            ToolErrorCode::ExecutionError,
            format!("no files match `{pattern}` under {}", resolved.display()),
        )
        .with_metadata("count", 0);
    }
    let mut content = found.join("\n");
    if total > found.len() {
        content.push_str(&format!("\n[{} more paths not shown; narrow the pattern]", total - found.len()));
    }
    let capped = total > found.len();
    let items = found.into_iter().map(SearchHit::at).collect();
    ToolOutput::success(content)
        .with_metadata("count", total)
        .with_metadata("truncated", capped)
        .with_report(|report| report.hits = Some(SearchHits { items, capped }))
}

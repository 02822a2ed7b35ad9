//! `search_files`: find paths by glob under a directory (`.gitignore` respected).

use async_trait::async_trait;
use globset::GlobBuilder;
use schemars::JsonSchema;
use serde::Deserialize;
use warden_protocol::{DangerLevel, ToolCategory, ToolDefinition, ToolErrorCode};

use super::fs_util::blocking;
use super::input::{definition_for, parse_input};
use super::walk::walker;
use super::{Tool, ToolContext, ToolOutput};
use crate::sandbox::Access;

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

pub struct SearchFilesTool {
    definition: ToolDefinition,
}

impl SearchFilesTool {
    pub fn new() -> Self {
        Self {
            definition: definition_for::<SearchFilesInput>(
                "search_files",
                ToolCategory::Search,
                DangerLevel::Safe,
                true,
            ),
        }
    }
}

impl Default for SearchFilesTool {
    fn default() -> Self {
        Self::new()
    }
}

#[async_trait]
impl Tool for SearchFilesTool {
    fn definition(&self) -> &ToolDefinition {
        &self.definition
    }

    async fn execute(&self, input: serde_json::Value, ctx: ToolContext) -> ToolOutput {
        let input: SearchFilesInput = match parse_input(input) {
            Ok(input) => input,
            Err(error) => return error,
        };
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
    if !resolved.absolute.is_dir() {
        return ToolOutput::error(
            ToolErrorCode::FileNotFound,
            format!("{}: no such directory", resolved.display()),
        );
    }
    let root = ctx.workspace.roots()[resolved.root].clone();
    let mut found = Vec::new();
    let mut total = 0usize;
    for entry in walker(&ctx.workspace, &resolved.absolute, hidden).build().flatten() {
        if ctx.cancel.is_cancelled() {
            return ToolOutput::error(ToolErrorCode::Cancelled, "search cancelled");
        }
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let rel_to_dir = entry.path().strip_prefix(&resolved.absolute).unwrap_or(entry.path());
        let hit = if by_name {
            entry.path().file_name().is_some_and(|n| glob.is_match(n))
        } else {
            glob.is_match(rel_to_dir)
        };
        if hit {
            total += 1;
            if found.len() < MAX_PATHS {
                found.push(
                    entry.path().strip_prefix(&root).unwrap_or(entry.path()).to_string_lossy().into_owned(),
                );
            }
        }
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
    ToolOutput::success(content).with_metadata("count", total).with_metadata("truncated", total > found.len())
}

//! `list_dir`: the entries of a directory with type, size and mtime; `.gitignore` respected.

use std::ops::ControlFlow;

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::Deserialize;
use warden_protocol::{DangerLevel, ToolCategory, ToolErrorCode};

use crate::sandbox::{Access, SandboxError};
use crate::tool::fs_util::blocking;
use crate::tool::walk::{kind, mtime_rfc3339, walk, WalkOptions};
use crate::tool::{FileAccess, Needs, ToolContext, ToolOutput, TypedTool};

/// Most entries one listing returns.
const MAX_ENTRIES: usize = 2000;

/// List a directory of the project: one line per entry with its type, size in bytes, modification
/// time and path (relative to the project root). Files ignored by `.gitignore` are left out; hidden
/// files only on request.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListDirInput {
    /// Directory to list, relative to the project root (default: the project root).
    #[serde(default)]
    pub path: Option<String>,
    /// How many levels to descend (default 1 = only the directory's own entries; at most 10).
    #[serde(default)]
    #[schemars(range(min = 1, max = 10))]
    pub depth: Option<u32>,
    /// Also list hidden entries (names starting with `.`), default false.
    #[serde(default)]
    pub include_hidden: bool,
}

pub struct ListDirTool;

#[async_trait]
impl TypedTool for ListDirTool {
    type Input = ListDirInput;
    const NAME: &'static str = "list_dir";
    const LABEL: &'static str = "List folders";
    const CATEGORY: ToolCategory = ToolCategory::FileRead;
    const DANGER: DangerLevel = DangerLevel::Safe;
    const PARALLEL: bool = true;

    /// What it reads, for the permission rules.
    fn needs(&self, input: &ListDirInput) -> Needs {
        FileAccess::read(input.path.clone().unwrap_or_else(|| ".".to_owned()))
    }

    async fn run(&self, input: ListDirInput, ctx: ToolContext) -> ToolOutput {
        blocking(move || list(input, &ctx)).await
    }
}

fn list(input: ListDirInput, ctx: &ToolContext) -> ToolOutput {
    let resolved = match ctx.workspace.resolve(input.path.as_deref().unwrap_or("."), Access::Read) {
        Ok(r) => r,
        Err(e) => return e.into(),
    };
    match ctx.workspace.metadata(&resolved) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => {
            return ToolOutput::error(
                ToolErrorCode::ExecutionError,
                format!("{} is a file, not a directory; use file_info or file_read", resolved.display()),
            )
        }
        Err(SandboxError::NotFound { .. }) => {
            return ToolOutput::error(
                ToolErrorCode::FileNotFound,
                format!("{}: no such directory", resolved.display()),
            )
        }
        Err(e) => return e.into(),
    }
    let options = WalkOptions {
        include_hidden: input.include_hidden,
        max_depth: Some(input.depth.unwrap_or(1).clamp(1, 10) as usize),
        overrides: None,
        skip_git: false,
    };
    let mut lines = Vec::new();
    let mut total = 0usize;
    let walked = walk(&ctx.workspace, &resolved, &options, &ctx.cancel, |entry| {
        total += 1;
        if lines.len() < MAX_ENTRIES {
            if let Ok(meta) = entry.metadata() {
                let kind = kind(meta.file_type());
                let size = if kind == "dir" { String::from("-") } else { meta.len().to_string() };
                let suffix = if kind == "dir" { "/" } else { "" };
                lines.push(format!(
                    "{kind:<7} {size:>10}  {}  {}{suffix}",
                    mtime_rfc3339(&meta).unwrap_or_else(|| "-".to_owned()),
                    entry.display()
                ));
            }
        }
        ControlFlow::Continue(())
    });
    if let Err(e) = walked {
        return e.into();
    }
    if ctx.cancel.is_cancelled() {
        return ToolOutput::error(ToolErrorCode::Cancelled, "listing cancelled");
    }
    let mut content =
        if lines.is_empty() { format!("{} is empty", resolved.display()) } else { lines.join("\n") };
    if total > lines.len() {
        content.push_str(&format!(
            "\n[{} more entries not shown; list a subdirectory or lower depth]",
            total - lines.len()
        ));
    }
    ToolOutput::success(content)
        .with_metadata("path", resolved.display())
        .with_metadata("entries", total)
        .with_metadata("truncated", total > lines.len())
}

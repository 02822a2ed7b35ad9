//! `file_write`: create or overwrite a file; parents are created. Preview = diff against the old content.

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::Deserialize;
use warden_protocol::{ApprovalPreview, DangerLevel, FileDiff, ToolCategory};

use crate::sandbox::{Access, ResolvedPath, SandboxError};
use crate::tool::fs_util::{blocking, read_text_file, result_diff, sha256_hex, unified_diff, write_file};
use crate::tool::{FileAccess, Needs, ToolContext, ToolOutput, TypedTool};

/// Create a file or replace its whole content. Missing parent directories are created. Prefer
/// `file_edit` or `apply_patch` to change part of an existing file.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FileWriteInput {
    /// Path of the file, relative to the project root.
    pub path: String,
    /// The complete new content of the file.
    pub content: String,
}

pub struct FileWriteTool;

/// The previous bytes of the file (`None` when it does not exist), read through the sandbox.
fn previous_bytes(ctx: &ToolContext, resolved: &ResolvedPath) -> Result<Option<Vec<u8>>, ToolOutput> {
    use std::io::Read;
    match ctx.workspace.open_read(resolved) {
        Ok(file) => {
            let meta = file.metadata().map_err(|e| crate::tool::fs_util::io_error(resolved, e))?;
            if meta.is_dir() {
                return Err(ToolOutput::error(
                    warden_protocol::ToolErrorCode::ExecutionError,
                    format!("{} is a directory", resolved.display()),
                ));
            }
            let mut bytes = Vec::new();
            file.take(ctx.config.max_edit_file_bytes)
                .read_to_end(&mut bytes)
                .map_err(|e| crate::tool::fs_util::io_error(resolved, e))?;
            Ok(Some(bytes))
        }
        Err(SandboxError::NotFound { .. }) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

#[async_trait]
impl TypedTool for FileWriteTool {
    type Input = FileWriteInput;
    const NAME: &'static str = "file_write";
    const LABEL: &'static str = "Create and overwrite files";
    const CATEGORY: ToolCategory = ToolCategory::FileChange;
    const DANGER: DangerLevel = DangerLevel::Dangerous;
    const PARALLEL: bool = false;

    /// What it writes, for the permission rules.
    fn needs(&self, input: &FileWriteInput) -> Needs {
        FileAccess::write(Some(vec![input.path.clone()]))
    }

    async fn run(&self, input: FileWriteInput, ctx: ToolContext) -> ToolOutput {
        blocking(move || {
            let resolved = match ctx.workspace.resolve(&input.path, Access::Write) {
                Ok(r) => r,
                Err(e) => return e.into(),
            };
            let before = match previous_bytes(&ctx, &resolved) {
                Ok(b) => b,
                Err(e) => return e,
            };
            if let Err(e) = write_file(&ctx.workspace, &resolved, input.content.as_bytes()) {
                return e;
            }
            let verb = if before.is_some() { "overwrote" } else { "created" };
            let diff = result_diff(&resolved.display(), before.as_deref(), &input.content);
            ToolOutput::success(format!("{verb} {} ({} bytes)", resolved.display(), input.content.len()))
                .with_report(|report| {
                    report.diff = diff.map(|diff| FileDiff { path: resolved.display(), diff })
                })
                .with_metadata("created", before.is_none())
                .with_metadata("bytes_written", input.content.len())
                .with_metadata("sha256_before", before.as_deref().map(sha256_hex))
                .with_metadata("sha256_after", sha256_hex(input.content.as_bytes()))
        })
        .await
    }

    async fn preview(&self, input: FileWriteInput, ctx: &ToolContext) -> Option<ApprovalPreview> {
        let ctx = ctx.clone();
        tokio::task::spawn_blocking(move || {
            let resolved = ctx.workspace.resolve(&input.path, Access::Write).ok()?;
            let old = match read_text_file(&ctx.workspace, &resolved, ctx.config.max_edit_file_bytes) {
                Ok(old) => old.unwrap_or_default(),
                Err(_) => String::new(),
            };
            let path = resolved.display();
            Some(ApprovalPreview::Diff { diff: unified_diff(&path, &old, &input.content), path })
        })
        .await
        .ok()
        .flatten()
    }
}

//! `file_edit`: replace an exact, unique `old_text` with `new_text` (or every occurrence when asked).

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::Deserialize;
use warden_protocol::{ApprovalPreview, DangerLevel, FileDiff, ToolCategory, ToolErrorCode};

use crate::sandbox::{Access, ResolvedPath};
use crate::tool::fs_util::{blocking, read_text_file, result_diff, sha256_hex, unified_diff, write_file};
use crate::tool::{FileAccess, Needs, ToolContext, ToolOutput, TypedTool};

/// Replace an exact piece of text in a file. `old_text` must occur exactly once (include enough
/// surrounding lines to make it unique), unless `replace_all` is true. Whitespace and indentation
/// must match the file exactly.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FileEditInput {
    /// Path of the file, relative to the project root.
    pub path: String,
    /// The exact text to replace, as it appears in the file.
    pub old_text: String,
    /// The text to put in its place.
    pub new_text: String,
    /// Replace every occurrence instead of requiring exactly one (default false).
    #[serde(default)]
    pub replace_all: bool,
}

pub struct FileEditTool;

/// The edit worked out but not written: where, the old and new content, how many replacements.
pub(crate) struct PlannedEdit {
    pub resolved: ResolvedPath,
    pub old: String,
    pub new: String,
    pub replacements: usize,
}

/// Work out an edit on `content` (pure; the fixtures test it directly).
pub(crate) fn edit_text(content: &str, input: &FileEditInput) -> Result<(String, usize), String> {
    if input.old_text.is_empty() {
        return Err("`old_text` is empty; give the exact text to replace".to_owned());
    }
    if input.old_text == input.new_text {
        return Err("`old_text` and `new_text` are identical; nothing would change".to_owned());
    }
    let count = content.matches(input.old_text.as_str()).count();
    match count {
        0 => {
            let trimmed = input.old_text.trim();
            let hint = if !trimmed.is_empty() && trimmed != input.old_text && content.contains(trimmed) {
                " (it does occur with different leading/trailing whitespace; copy it exactly)"
            } else {
                " (check whitespace, indentation and line endings; read the file again if it may have changed)"
            };
            Err(format!("`old_text` was not found in {}{hint}", input.path))
        }
        1 => Ok((content.replacen(input.old_text.as_str(), &input.new_text, 1), 1)),
        n if input.replace_all => Ok((content.replace(input.old_text.as_str(), &input.new_text), n)),
        n => Err(format!(
            "`old_text` occurs {n} times in {}; include more surrounding text to make it unique, \
             or set `replace_all` to replace all {n}",
            input.path
        )),
    }
}

pub(crate) fn plan(input: &FileEditInput, ctx: &ToolContext) -> Result<PlannedEdit, ToolOutput> {
    if input.old_text.is_empty() {
        return Err(ToolOutput::error(
            ToolErrorCode::ValidationError,
            "invalid input: field `old_text` is empty; give the exact text to replace",
        ));
    }
    let resolved = ctx.workspace.resolve(&input.path, Access::Write)?;
    let Some(old) = read_text_file(&ctx.workspace, &resolved, ctx.config.max_edit_file_bytes)? else {
        return Err(ToolOutput::error(
            ToolErrorCode::FileNotFound,
            format!("{} does not exist; use file_write to create it", resolved.display()),
        ));
    };
    let (new, replacements) = edit_text(&old, input)
        .map_err(|message| ToolOutput::error(ToolErrorCode::ExecutionError, message))?;
    Ok(PlannedEdit { resolved, old, new, replacements })
}

#[async_trait]
impl TypedTool for FileEditTool {
    type Input = FileEditInput;
    const NAME: &'static str = "file_edit";
    const LABEL: &'static str = "Edit files";
    const CATEGORY: ToolCategory = ToolCategory::FileChange;
    const DANGER: DangerLevel = DangerLevel::Dangerous;
    const PARALLEL: bool = false;

    /// What it writes, for the permission rules.
    fn needs(&self, input: &FileEditInput) -> Needs {
        FileAccess::write(Some(vec![input.path.clone()]))
    }

    async fn run(&self, input: FileEditInput, ctx: ToolContext) -> ToolOutput {
        blocking(move || {
            let edit = match plan(&input, &ctx) {
                Ok(edit) => edit,
                Err(error) => return error,
            };
            if let Err(error) = write_file(&ctx.workspace, &edit.resolved, edit.new.as_bytes()) {
                return error;
            }
            let path = edit.resolved.display();
            let s = if edit.replacements == 1 { "" } else { "s" };
            let diff = result_diff(&path, Some(edit.old.as_bytes()), &edit.new);
            ToolOutput::success(format!("edited {path}: {} replacement{s}", edit.replacements))
                .with_report(|report| report.diff = diff.map(|diff| FileDiff { path, diff }))
                .with_metadata("replacements", edit.replacements)
                .with_metadata("sha256_before", sha256_hex(edit.old.as_bytes()))
                .with_metadata("sha256_after", sha256_hex(edit.new.as_bytes()))
        })
        .await
    }

    async fn preview(&self, input: FileEditInput, ctx: &ToolContext) -> Option<ApprovalPreview> {
        let ctx = ctx.clone();
        tokio::task::spawn_blocking(move || {
            let edit = plan(&input, &ctx).ok()?;
            let path = edit.resolved.display();
            Some(ApprovalPreview::Diff { diff: unified_diff(&path, &edit.old, &edit.new), path })
        })
        .await
        .ok()
        .flatten()
    }
}

//! `apply_patch`: a unified diff over one or more files, applied all or nothing.

mod apply;
mod parse;

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use warden_protocol::{ApprovalPreview, DangerLevel, ToolCategory, ToolErrorCode};

use crate::sandbox::{Access, ResolvedPath};
use crate::tool::fs_util::{blocking, read_text_file, sha256_hex, unified_diff, write_file};
use crate::tool::{FileAccess, Needs, ToolContext, ToolOutput, TypedTool};
pub(crate) use apply::{apply_hunks, Budget};
pub(crate) use parse::parse_patch;

/// Apply a unified diff (as produced by `diff -u` or `git diff`) to one or more files. New files use
/// `--- /dev/null`, deleted files `+++ /dev/null`. Hunks are placed by their context lines, so line
/// numbers may be approximate. Either every hunk of every file applies, or nothing is changed and the
/// reasons are returned. With `dry_run` the result is the diff that would be applied.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ApplyPatchInput {
    /// The unified diff. Paths are relative to the project root (`a/` and `b/` prefixes are accepted).
    pub patch: String,
    /// Only check the patch and return what it would change (default false).
    #[serde(default)]
    pub dry_run: bool,
}

pub struct ApplyPatchTool;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    Create,
    Modify,
    Delete,
    Rename,
}

impl Action {
    fn as_str(self) -> &'static str {
        match self {
            Action::Create => "created",
            Action::Modify => "modified",
            Action::Delete => "deleted",
            Action::Rename => "renamed",
        }
    }
}

struct PlannedFile {
    action: Action,
    /// Where the old content was (modify, delete, rename).
    source: Option<ResolvedPath>,
    /// Where the new content goes (create, modify, rename).
    target: Option<ResolvedPath>,
    old: Option<String>,
    new: Option<String>,
    hunks: usize,
}

impl PlannedFile {
    fn shown(&self) -> String {
        match (&self.source, &self.target, self.action) {
            (Some(s), Some(t), Action::Rename) => format!("{} → {}", s.display(), t.display()),
            (_, Some(t), _) => t.display(),
            (Some(s), None, _) => s.display(),
            (None, None, _) => String::new(),
        }
    }

    fn diff(&self) -> String {
        let path =
            self.target.as_ref().or(self.source.as_ref()).map(ResolvedPath::display).unwrap_or_default();
        unified_diff(&path, self.old.as_deref().unwrap_or(""), self.new.as_deref().unwrap_or(""))
    }
}

/// The parse-and-apply half of the tool on text alone (one file section): for the fuzz targets.
pub(crate) fn apply_to_text(old: &str, patch: &str) -> Result<String, String> {
    let files = parse_patch(patch)?;
    let [file] = files.as_slice() else {
        return Err(format!("expected one file section, found {}", files.len()));
    };
    apply_hunks(old, &file.hunks, &mut Budget::new()).map_err(|errors| errors.join("; "))
}

fn rejected(reasons: &[String]) -> ToolOutput {
    let list: Vec<String> = reasons.iter().map(|r| format!("- {r}")).collect();
    ToolOutput::error(
        ToolErrorCode::ExecutionError,
        format!("patch rejected; nothing was changed:\n{}", list.join("\n")),
    )
    .with_metadata("rejects", reasons)
}

/// Work out every file's new content without writing anything.
fn plan(patch: &str, ctx: &ToolContext) -> Result<Vec<PlannedFile>, ToolOutput> {
    let files = parse_patch(patch).map_err(|reason| rejected(&[reason]))?;
    let max = ctx.config.max_edit_file_bytes;
    let mut planned = Vec::new();
    let mut reasons = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut budget = Budget::new();
    for file in &files {
        let source = file.old_path.as_deref().map(|p| ctx.workspace.resolve(p, Access::Write)).transpose()?;
        let target = file.new_path.as_deref().map(|p| ctx.workspace.resolve(p, Access::Write)).transpose()?;
        for resolved in source.iter().chain(target.iter()) {
            if !seen.insert(resolved.absolute.clone()) && source.as_ref() != target.as_ref() {
                reasons.push(format!("{}: appears in more than one file section", resolved.display()));
            }
        }
        let old = match &source {
            Some(s) => read_text_file(&ctx.workspace, s, max)?,
            None => None,
        };
        let action = match (&source, &target) {
            (None, Some(_)) => Action::Create,
            (Some(_), None) => Action::Delete,
            (Some(s), Some(t)) if s.absolute == t.absolute => Action::Modify,
            (Some(_), Some(_)) => Action::Rename,
            (None, None) => {
                reasons.push("a file section has /dev/null on both sides".to_owned());
                continue;
            }
        };
        let name = file.path();
        if action != Action::Create && old.is_none() {
            reasons.push(format!("{name}: does not exist (a new file needs `--- /dev/null`)"));
            continue;
        }
        if matches!(action, Action::Create | Action::Rename) {
            if let Some(t) = &target {
                if read_text_file(&ctx.workspace, t, max).map(|c| c.is_some()).unwrap_or(true) {
                    reasons.push(format!("{name}: already exists; the patch would create it"));
                    continue;
                }
            }
        }
        let new = match apply_hunks(old.as_deref().unwrap_or(""), &file.hunks, &mut budget) {
            Ok(new) => new,
            Err(errors) => {
                reasons.extend(errors.into_iter().map(|e| format!("{name}: {e}")));
                continue;
            }
        };
        if action == Action::Delete && !new.is_empty() && !file.hunks.is_empty() {
            reasons.push(format!(
                "{name}: the deletion does not remove the whole file ({} bytes would remain)",
                new.len()
            ));
            continue;
        }
        let new = if action == Action::Delete { None } else { Some(new) };
        planned.push(PlannedFile { action, source, target, old, new, hunks: file.hunks.len() });
    }
    if reasons.is_empty() {
        Ok(planned)
    } else {
        Err(rejected(&reasons))
    }
}

/// Write the plan in two phases. First every new content is staged beside its target (on disk,
/// nothing visible changed): a failure there — a full disk, a directory that cannot be written —
/// leaves every file as it was. Then the staged files are renamed into place and deletions made;
/// a failure in that phase (rare: renames within a directory) puts back what was already changed.
fn commit(planned: &[PlannedFile], ctx: &ToolContext) -> Result<(), ToolOutput> {
    let ws = &ctx.workspace;
    let mut staged = Vec::new();
    for file in planned {
        if let (Some(target), Some(new)) = (&file.target, &file.new) {
            staged.push((file, ws.stage_write(target, new.as_bytes())?));
        }
        if let (Some(source), Action::Delete | Action::Rename) = (&file.source, file.action) {
            ws.check_removable(source)?;
        }
    }
    let mut undo: Vec<(&ResolvedPath, Option<&str>)> = Vec::new();
    let mut result = Ok(());
    for (file, write) in staged {
        let Some(target) = &file.target else { continue };
        if let Err(error) = write.commit() {
            result = Err(ToolOutput::from(error));
            break;
        }
        undo.push((target, if file.action == Action::Modify { file.old.as_deref() } else { None }));
    }
    if result.is_ok() {
        for file in planned {
            if let (Some(source), Action::Delete | Action::Rename) = (&file.source, file.action) {
                if let Err(error) = ws.remove_file(source) {
                    result = Err(ToolOutput::from(error));
                    break;
                }
                undo.push((source, file.old.as_deref()));
            }
        }
    }
    if result.is_err() {
        for (path, before) in undo.into_iter().rev() {
            let restored = match before {
                Some(text) => write_file(ws, path, text.as_bytes()).is_ok(),
                None => ws.remove_file(path).is_ok(),
            };
            if !restored {
                tracing::error!(path = %path.display(), "apply_patch could not roll back a file");
            }
        }
    }
    result
}

fn summary(planned: &[PlannedFile], dry_run: bool) -> ToolOutput {
    let files: Vec<serde_json::Value> = planned
        .iter()
        .map(|f| {
            json!({
                "path": f.shown(),
                "action": f.action.as_str(),
                "hunks": f.hunks,
                "sha256_before": f.old.as_deref().map(|t| sha256_hex(t.as_bytes())),
                "sha256_after": f.new.as_deref().map(|t| sha256_hex(t.as_bytes())),
            })
        })
        .collect();
    let lines: Vec<String> = planned.iter().map(|f| format!("{} {}", f.action.as_str(), f.shown())).collect();
    let content = if dry_run {
        let diffs: Vec<String> = planned.iter().map(PlannedFile::diff).collect();
        format!(
            "dry run: the patch applies cleanly; nothing was changed.\n{}\n\n{}",
            lines.join("\n"),
            diffs.join("")
        )
    } else {
        format!("patch applied:\n{}", lines.join("\n"))
    };
    ToolOutput::success(content).with_metadata("dry_run", dry_run).with_metadata("files", files)
}

#[async_trait]
impl TypedTool for ApplyPatchTool {
    type Input = ApplyPatchInput;
    const NAME: &'static str = "apply_patch";
    const LABEL: &'static str = "Apply patches to files";
    const CATEGORY: ToolCategory = ToolCategory::FileChange;
    const DANGER: DangerLevel = DangerLevel::Dangerous;
    const PARALLEL: bool = false;

    /// What it writes, for the permission rules.
    fn needs(&self, input: &ApplyPatchInput) -> Needs {
        let paths = parse::parse_patch(&input.patch).ok().map(|files| {
            files.iter().flat_map(|f| [f.old_path.clone(), f.new_path.clone()]).flatten().collect()
        });
        FileAccess::write(paths)
    }

    async fn run(&self, input: ApplyPatchInput, ctx: ToolContext) -> ToolOutput {
        blocking(move || {
            let planned = match plan(&input.patch, &ctx) {
                Ok(planned) => planned,
                Err(error) => return error,
            };
            if !input.dry_run {
                if let Err(error) = commit(&planned, &ctx) {
                    return error;
                }
            }
            summary(&planned, input.dry_run)
        })
        .await
    }

    async fn preview(&self, input: ApplyPatchInput, ctx: &ToolContext) -> Option<ApprovalPreview> {
        let ctx = ctx.clone();
        tokio::task::spawn_blocking(move || {
            let planned = plan(&input.patch, &ctx).ok()?;
            let path = planned.iter().map(PlannedFile::shown).collect::<Vec<_>>().join(", ");
            let diff = planned.iter().map(PlannedFile::diff).collect::<Vec<_>>().join("");
            Some(ApprovalPreview::Diff { path, diff })
        })
        .await
        .ok()
        .flatten()
    }
}

//! `file_info`: size, type, mtime and permissions of a path.

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::Deserialize;
use warden_protocol::{DangerLevel, ToolCategory, ToolErrorCode};

use crate::sandbox::{Access, SandboxError};
use crate::tool::fs_util::blocking;
use crate::tool::walk::{kind, mtime_rfc3339};
use crate::tool::{FileAccess, Needs, ToolContext, ToolOutput, TypedTool};

/// Facts about a file or directory of the project: type, size in bytes, modification time,
/// permissions.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FileInfoInput {
    /// Path relative to the project root.
    pub path: String,
}

pub struct FileInfoTool;

fn permissions(meta: &cap_std::fs::Metadata) -> (String, bool) {
    #[cfg(unix)]
    {
        use cap_std::fs::PermissionsExt;
        let mode = meta.permissions().mode() & 0o7777;
        let rwx: String = (0..9)
            .map(|i| {
                let bit = 1 << (8 - i);
                match (mode & bit != 0, i % 3) {
                    (false, _) => '-',
                    (true, 0) => 'r',
                    (true, 1) => 'w',
                    (true, _) => 'x',
                }
            })
            .collect();
        (format!("{mode:04o} ({rwx})"), meta.permissions().readonly())
    }
    #[cfg(not(unix))]
    {
        let ro = meta.permissions().readonly();
        (if ro { "read-only".to_owned() } else { "read-write".to_owned() }, ro)
    }
}

#[async_trait]
impl TypedTool for FileInfoTool {
    type Input = FileInfoInput;
    const NAME: &'static str = "file_info";
    const LABEL: &'static str = "Look up file details";
    const CATEGORY: ToolCategory = ToolCategory::FileRead;
    const DANGER: DangerLevel = DangerLevel::Safe;
    const PARALLEL: bool = true;

    /// What it reads, for the permission rules.
    fn needs(&self, input: &FileInfoInput) -> Needs {
        FileAccess::read(input.path.clone())
    }

    async fn run(&self, input: FileInfoInput, ctx: ToolContext) -> ToolOutput {
        blocking(move || {
            let resolved = match ctx.workspace.resolve(&input.path, Access::Read) {
                Ok(r) => r,
                Err(e) => return e.into(),
            };
            let meta = match ctx.workspace.metadata(&resolved) {
                Ok(meta) => meta,
                Err(SandboxError::NotFound { .. }) => {
                    return ToolOutput::error(
                        ToolErrorCode::FileNotFound,
                        format!("{}: no such file or directory", resolved.display()),
                    )
                }
                Err(e) => return e.into(),
            };
            let kind = kind(meta.file_type());
            let (perms, readonly) = permissions(&meta);
            let mtime = mtime_rfc3339(&meta);
            let content = format!(
                "path: {}\ntype: {kind}\nsize: {} bytes\nmodified: {}\npermissions: {perms}",
                resolved.display(),
                meta.len(),
                mtime.as_deref().unwrap_or("unknown"),
            );
            ToolOutput::success(content)
                .with_metadata("path", resolved.display())
                .with_metadata("type", kind)
                .with_metadata("size_bytes", meta.len())
                .with_metadata("modified", mtime)
                .with_metadata("permissions", perms)
                .with_metadata("readonly", readonly)
        })
        .await
    }
}

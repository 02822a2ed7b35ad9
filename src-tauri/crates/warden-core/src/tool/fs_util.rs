//! Helpers the file tools share: hashing, binary detection, bounded whole-file reads, diffs, and
//! running blocking file work off the async threads.

use std::io::Read;

use sha2::{Digest, Sha256};
use warden_protocol::ToolErrorCode;

use super::ToolOutput;
use crate::sandbox::{ResolvedPath, SandboxError, Workspace};

pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Git's rule: a NUL byte in the first 8 KB means binary.
pub(crate) fn looks_binary(bytes: &[u8]) -> bool {
    bytes.iter().take(8192).any(|&b| b == 0)
}

/// Run blocking file work on the blocking pool; a panic or a lost task becomes an error result.
pub(crate) async fn blocking<F>(work: F) -> ToolOutput
where
    F: FnOnce() -> ToolOutput + Send + 'static,
{
    match tokio::task::spawn_blocking(work).await {
        Ok(output) => output,
        Err(e) => ToolOutput::error(ToolErrorCode::ExecutionError, format!("the file operation failed: {e}")),
    }
}

/// The whole content of a file that must be text, refused above `max_bytes`. `Ok(None)` when it
/// does not exist.
pub(crate) fn read_text_file(
    workspace: &Workspace,
    resolved: &ResolvedPath,
    max_bytes: u64,
) -> Result<Option<String>, ToolOutput> {
    let file = match workspace.open_read(resolved) {
        Ok(file) => file,
        Err(SandboxError::NotFound { .. }) => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    let meta = file.metadata().map_err(|e| io_error(resolved, e))?;
    if meta.is_dir() {
        return Err(ToolOutput::error(
            ToolErrorCode::ExecutionError,
            format!("{} is a directory, not a file", resolved.display()),
        ));
    }
    if meta.len() > max_bytes {
        return Err(ToolOutput::error(
            ToolErrorCode::SizeLimitExceeded,
            format!(
                "{} is {} bytes; files over {max_bytes} bytes are not edited",
                resolved.display(),
                meta.len()
            ),
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(max_bytes + 1).read_to_end(&mut bytes).map_err(|e| io_error(resolved, e))?;
    if looks_binary(&bytes) {
        return Err(ToolOutput::error(
            ToolErrorCode::ExecutionError,
            format!("{} is a binary file; only text files can be edited", resolved.display()),
        ));
    }
    String::from_utf8(bytes).map(Some).map_err(|_| {
        ToolOutput::error(
            ToolErrorCode::ExecutionError,
            format!("{} is not valid UTF-8; only text files can be edited", resolved.display()),
        )
    })
}

/// Write `content` through the sandbox, atomically (parents created, mode kept, hard links refused).
pub(crate) fn write_file(
    workspace: &Workspace,
    resolved: &ResolvedPath,
    content: &[u8],
) -> Result<(), ToolOutput> {
    workspace.write_atomic(resolved, content).map_err(ToolOutput::from)
}

pub(crate) fn io_error(resolved: &ResolvedPath, e: std::io::Error) -> ToolOutput {
    ToolOutput::from(SandboxError::Io { path: resolved.display(), source: e })
}

/// The most of a change's diff a result carries for the window (the model never sees it).
pub(crate) const RESULT_DIFF_BYTES: usize = 64 * 1024;

/// The diff a file tool's result carries, so the window shows what changed whether or not the
/// call was asked about: `None` past [`RESULT_DIFF_BYTES`] (the window then offers the
/// checkpoint's diff) or when the old content was not text.
pub(crate) fn result_diff(path: &str, old: Option<&[u8]>, new: &str) -> Option<String> {
    let old = match old {
        Some(bytes) => std::str::from_utf8(bytes).ok()?,
        None => "",
    };
    let diff = unified_diff(path, old, new);
    (diff.len() <= RESULT_DIFF_BYTES).then_some(diff)
}

/// A unified diff (`a/path` → `b/path`, 3 lines of context).
pub(crate) fn unified_diff(path: &str, old: &str, new: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string()
}

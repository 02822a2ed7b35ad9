//! What a snapshot holds: the project's files as Warden's own walk sees them — `.gitignore` and
//! `.ignore` honoured, secret files never (the path sandbox's rules), no `.git` directory — minus
//! files over the size cap, which are named in the checkpoint instead.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use tokio_util::sync::CancellationToken;

use super::CheckpointError;
use crate::sandbox::{Access, Workspace};
use crate::tool::walk::{walk, WalkOptions};

/// The files of the project (or of one folder of it) that a snapshot holds.
#[derive(Debug, Default)]
pub(super) struct Scanned {
    /// Relative paths, `/`-separated, as git takes them.
    pub files: Vec<Vec<u8>>,
    /// Files over the size cap (relative, for display).
    pub skipped: Vec<String>,
}

/// Walk `start` (relative to the project root; empty for all of it), `depth` levels deep (`None`
/// for all). `on_dir` sees each folder entered (relative), before its entries are read.
pub(super) fn scan(
    workspace: &Workspace,
    start: &Path,
    depth: Option<usize>,
    size_cap: u64,
    mut on_dir: impl FnMut(&Path),
) -> Result<Scanned, CheckpointError> {
    let raw =
        if start.as_os_str().is_empty() { ".".to_owned() } else { start.to_string_lossy().into_owned() };
    let resolved = workspace.resolve(&raw, Access::Read).map_err(|e| CheckpointError::Scan(e.to_string()))?;
    if resolved.root != 0 {
        return Err(CheckpointError::Scan(format!("{raw} is not in the project")));
    }
    on_dir(&resolved.relative);
    let options = WalkOptions { include_hidden: true, max_depth: depth, overrides: None, skip_git: true };
    let mut scanned = Scanned::default();
    walk(workspace, &resolved, &options, &CancellationToken::new(), |entry| {
        let file_type = entry.file_type;
        if file_type.is_dir() {
            on_dir(&entry.relative);
        } else if file_type.is_symlink() {
            scanned.files.push(git_path(&entry.relative));
        } else if file_type.is_file() {
            match entry.metadata() {
                Ok(meta) if meta.len() > size_cap => scanned.skipped.push(entry.display()),
                Ok(_) => scanned.files.push(git_path(&entry.relative)),
                // Gone since the folder was read: not part of this state.
                Err(_) => {}
            }
        }
        ControlFlow::Continue(())
    })
    .map_err(|e| CheckpointError::Scan(e.to_string()))?;
    Ok(scanned)
}

/// A relative path as git names it: its bytes, `/` between components.
pub(super) fn git_path(relative: &Path) -> Vec<u8> {
    let bytes = relative.as_os_str().as_encoded_bytes().to_vec();
    if cfg!(windows) {
        bytes.into_iter().map(|b| if b == b'\\' { b'/' } else { b }).collect()
    } else {
        bytes
    }
}

/// The path git names by `bytes`, relative to the project root.
pub(super) fn native_path(bytes: &[u8]) -> PathBuf {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
    }
    #[cfg(not(unix))]
    {
        PathBuf::from(String::from_utf8_lossy(bytes).replace('/', "\\"))
    }
}

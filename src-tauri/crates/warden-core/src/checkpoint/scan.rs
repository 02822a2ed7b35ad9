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
    /// Which of `files` are symlinks.
    pub links: std::collections::BTreeSet<Vec<u8>>,
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
            scanned.links.insert(git_path(&entry.relative));
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

/// A file as a snapshot takes it.
pub(super) enum Found {
    File {
        executable: bool,
        bytes: Vec<u8>,
    },
    /// Over the size cap: named, not kept.
    Skipped,
    /// A symlink (its target is read by git's own index).
    Link,
}

/// The files among `wanted` (git paths) that folder `dir` holds and a snapshot takes, read through
/// the folder's handle (never following a link); a wanted path not in the result is not part of
/// the snapshot (gone, ignored, a secret, not a file).
pub(super) fn look_at(
    workspace: &Workspace,
    dir: &Path,
    wanted: &std::collections::BTreeSet<Vec<u8>>,
    size_cap: u64,
) -> Result<std::collections::BTreeMap<Vec<u8>, Found>, CheckpointError> {
    let mut found = std::collections::BTreeMap::new();
    let raw = if dir.as_os_str().is_empty() { ".".to_owned() } else { dir.to_string_lossy().into_owned() };
    let resolved = match workspace.resolve(&raw, Access::Read) {
        Ok(resolved) if resolved.root == 0 => resolved,
        // The folder is gone (or was never the project's): nothing of it is in the snapshot.
        _ => return Ok(found),
    };
    let options = WalkOptions { include_hidden: true, max_depth: Some(1), overrides: None, skip_git: true };
    let mut failed = None;
    walk(workspace, &resolved, &options, &CancellationToken::new(), |entry| {
        let path = git_path(&entry.relative);
        if !wanted.contains(&path) {
            return ControlFlow::Continue(());
        }
        if entry.file_type.is_symlink() {
            found.insert(path, Found::Link);
        } else if entry.file_type.is_file() {
            match read_capped(&entry, size_cap) {
                Ok(Some((executable, bytes))) => {
                    found.insert(path, Found::File { executable, bytes });
                }
                Ok(None) => {
                    found.insert(path, Found::Skipped);
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => {
                    failed = Some(CheckpointError::io(&entry.relative, e));
                    return ControlFlow::Break(());
                }
            }
        }
        ControlFlow::Continue(())
    })
    .map_err(|e| CheckpointError::Scan(e.to_string()))?;
    match failed {
        Some(error) => Err(error),
        None => Ok(found),
    }
}

/// A file's exec bit and contents, or `None` when it is over the cap.
fn read_capped(entry: &crate::tool::walk::Entry, size_cap: u64) -> std::io::Result<Option<(bool, Vec<u8>)>> {
    use std::io::Read;
    let file = entry.open()?;
    let meta = file.metadata()?;
    if meta.len() > size_cap {
        return Ok(None);
    }
    #[cfg(unix)]
    let executable = std::os::unix::fs::PermissionsExt::mode(&meta.permissions()) & 0o100 != 0;
    #[cfg(not(unix))]
    let executable = false;
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(size_cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > size_cap {
        return Ok(None);
    }
    Ok(Some((executable, bytes)))
}

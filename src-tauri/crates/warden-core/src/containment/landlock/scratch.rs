//! The command's `TMPDIR`: a fresh folder under the system temp folder, one per command. It is
//! removed once nothing of its command runs any more: each folder has a lock file beside it
//! (`warden-box-XXXX.lock`, outside the folder, where the command cannot touch it), locked shared
//! by a descriptor the command inherits; a later launch that can lock it exclusively knows every
//! holder is gone and removes both. The folder is the user's like any in `/tmp`: other processes of
//! the user can read it, unlike bubblewrap's private tmpfs.

use std::fs::File;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};

// nix 0.29 deprecates `flock` for `Flock`, which unlocks when dropped: here the lock must outlive
// the parent's descriptor (the command's inherited copy holds it).
#[allow(deprecated)]
use nix::fcntl::{flock, FlockArg};

use super::super::ContainError;

const PREFIX: &str = "warden-box-";
const LOCK: &str = ".lock";

pub(super) struct Scratch {
    pub path: PathBuf,
    /// The lock's descriptor (close-on-exec; the launch has the child inherit it).
    pub lock: OwnedFd,
}

/// A new scratch folder, after removing those no command holds any more.
pub(super) fn create() -> Result<Scratch, ContainError> {
    let temp = std::env::temp_dir();
    sweep(&temp);
    let setup = |what: &str, e: std::io::Error| ContainError::Setup(format!("scratch folder: {what}: {e}"));
    // The lock first, locked before the folder exists, so a sweep never takes a folder being made.
    let lock = tempfile::Builder::new()
        .prefix(PREFIX)
        .suffix(LOCK)
        .tempfile_in(&temp)
        .map_err(|e| setup("lock file", e))?;
    #[allow(deprecated)]
    flock(lock.as_file().as_raw_fd(), FlockArg::LockShared)
        .map_err(|errno| setup("lock", std::io::Error::from_raw_os_error(errno as i32)))?;
    let (file, lock_path) = lock.keep().map_err(|e| setup("lock file", e.error))?;
    let path = folder_of(&lock_path).ok_or_else(|| ContainError::Setup("scratch folder: bad name".into()))?;
    std::fs::create_dir(&path).map_err(|e| setup("create", e))?;
    Ok(Scratch { path, lock: OwnedFd::from(file) })
}

/// `…/warden-box-XXXX.lock` → `…/warden-box-XXXX`.
fn folder_of(lock: &Path) -> Option<PathBuf> {
    let name = lock.file_name()?.to_str()?.strip_suffix(LOCK)?;
    Some(lock.with_file_name(name))
}

/// Remove the scratch folders whose lock nobody holds.
fn sweep(temp: &Path) {
    let Ok(entries) = std::fs::read_dir(temp) else { return };
    for entry in entries.flatten() {
        let lock_path = entry.path();
        let is_lock = entry.file_name().to_str().is_some_and(|n| n.starts_with(PREFIX) && n.ends_with(LOCK));
        if !is_lock {
            continue;
        }
        let Ok(file) = File::open(&lock_path) else { continue };
        #[allow(deprecated)]
        if flock(file.as_raw_fd(), FlockArg::LockExclusiveNonblock).is_err() {
            continue; // a command still runs (or a launch is making it)
        }
        if let Some(folder) = folder_of(&lock_path) {
            let _ = std::fs::remove_dir_all(folder);
        }
        let _ = std::fs::remove_file(&lock_path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_lives_while_its_lock_is_held_and_goes_after() {
        let scratch = create().expect("scratch");
        std::fs::write(scratch.path.join("f"), "x").expect("write");
        sweep(&std::env::temp_dir());
        assert!(scratch.path.join("f").exists(), "swept while held");
        let path = scratch.path.clone();
        drop(scratch);
        sweep(&std::env::temp_dir());
        assert!(!path.exists(), "not swept once released");
    }
}

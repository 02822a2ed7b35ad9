//! Writing Warden's files so that nothing is lost: atomic replacement, one settings writer at a
//! time, unreadable files kept aside, and per-project storage folders that two projects never share.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use sha2::{Digest, Sha256};

/// Serialises every read-modify-write of the settings file and its seal inside this process, so
/// two concurrent saves cannot lose each other's work nor pair a file with another file's seal.
static SETTINGS_LOCK: Mutex<()> = Mutex::new(());

/// Holds the settings lock. A writer that panicked left the files whole (every write is atomic),
/// so a poisoned lock is taken over.
pub(super) fn settings_lock() -> MutexGuard<'static, ()> {
    SETTINGS_LOCK.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Replaces `path` by `bytes` atomically: a uniquely named temporary file in the same folder
/// (readable by the user only), flushed to disk, renamed over `path`, then the folder flushed so
/// the rename itself survives a crash. Two writers never share a temporary file.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)?;
    let prefix = format!(".{}.", path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default());
    // `tempfile` creates the file with mode 0600 on Unix.
    let mut file = tempfile::Builder::new().prefix(&prefix).suffix(".tmp").tempfile_in(dir)?;
    file.write_all(bytes)?;
    file.as_file().sync_all()?;
    file.persist(path).map_err(|e| e.error)?;
    sync_dir(dir);
    Ok(())
}

/// Flushes a folder's entries (the rename just made). The file is in place whatever happens here,
/// so a failure (a file system that cannot flush folders) is logged, not returned.
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Err(error) = std::fs::File::open(dir).and_then(|d| d.sync_all()) {
        tracing::debug!(%error, dir = %dir.display(), "could not flush the folder after a rename");
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// Moves an unreadable file aside, to the first free `<name>.invalid`, `<name>.invalid-1`, …, so
/// that neither the next save nor a later unreadable file destroys what it held. Returns where.
pub(crate) fn move_aside(path: &Path) -> std::io::Result<PathBuf> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let free = (0..1000u32)
        .map(|n| match n {
            0 => path.with_file_name(format!("{name}.invalid")),
            n => path.with_file_name(format!("{name}.invalid-{n}")),
        })
        .find(|aside| !aside.exists())
        .unwrap_or_else(|| path.with_file_name(format!("{name}.invalid-{}", uuid::Uuid::new_v4())));
    std::fs::rename(path, &free)?;
    Ok(free)
}

/// The folder name of a project's storage: its (readable) folder name and the first 64 bits of
/// the SHA-256 of its canonical path, `app-0123456789abcdef`.
pub(super) fn project_storage_name(canonical: &Path) -> String {
    format!("{}-{}", readable_name(canonical), hex::encode(&Sha256::digest(path_bytes(canonical))[..8]))
}

/// The name storage folders had before [`project_storage_name`]: a 32-bit FNV-1a of the path as
/// given, which two projects could share.
pub(super) fn old_project_storage_name(project_root: &Path) -> String {
    let hash = project_root
        .to_string_lossy()
        .bytes()
        .fold(0x811c_9dc5_u32, |h, b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193));
    format!("{}-{hash:08x}", readable_name(project_root))
}

fn readable_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().chars().filter(|c| c.is_alphanumeric() || "-_.".contains(*c)).collect())
        .filter(|n: &String| !n.is_empty())
        .unwrap_or_else(|| "root".to_owned())
}

#[cfg(unix)]
fn path_bytes(path: &Path) -> Vec<u8> {
    std::os::unix::ffi::OsStrExt::as_bytes(path.as_os_str()).to_vec()
}

#[cfg(not(unix))]
fn path_bytes(path: &Path) -> Vec<u8> {
    path.to_string_lossy().as_bytes().to_vec()
}

/// Gives `dir` the storage a project had under an old name, when `dir` does not exist yet and one
/// of `old_dirs` does. Best effort: a failure is logged and the project starts with `dir` empty.
pub(super) fn adopt_old_storage(dir: &Path, old_dirs: &[PathBuf]) {
    if dir.symlink_metadata().is_ok() {
        return;
    }
    let Some(old) = old_dirs.iter().find(|old| old.as_path() != dir && old.is_dir()) else {
        return;
    };
    match std::fs::rename(old, dir) {
        Ok(()) => {
            tracing::info!(from = %old.display(), to = %dir.display(), "moved the project's storage to its new name")
        }
        // Another thread moved it first.
        Err(_) if dir.is_dir() => {}
        Err(error) => tracing::warn!(
            %error, from = %old.display(), to = %dir.display(),
            "could not move the project's storage to its new name; the old folder is left as it is"
        ),
    }
}

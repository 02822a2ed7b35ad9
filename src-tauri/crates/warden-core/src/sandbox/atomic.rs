//! Writing a file so that a crash, a full disk or a kill at any moment leaves either the old content
//! or the new one, never an empty or partial file: the new content goes to a temporary file beside
//! the target (same directory, so the same file system), is flushed to disk, takes the target's
//! mode, and is renamed over the target; then the directory is flushed. Everything goes through the
//! parent directory's verified handle (see `handles.rs`), never a path string.
//!
//! A [`StagedWrite`] is the first half: the content is on disk under a temporary name and nothing
//! visible has changed. `apply_patch` stages every file before it renames any, so a failure while
//! staging changes nothing. A staged write that is dropped uncommitted removes its temporary file.

use std::ffi::{OsStr, OsString};
use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, Ordering};

use cap_fs_ext::OpenOptionsMaybeDirExt;
use cap_std::fs::{Dir, OpenOptions};

use super::handles::special_kind_at;
use super::{ResolvedPath, SandboxError, Workspace};

/// Temporary files are named `.<name>.warden-<pid>-<n>.tmp`; `n` counts per process.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);
/// Room left for the target's name inside a temporary name (NAME_MAX is 255).
const MAX_NAME_IN_TEMP: usize = 200;

/// New content on disk beside its target, not yet in place.
#[must_use = "a staged write changes nothing until it is committed"]
pub struct StagedWrite {
    parent: Dir,
    temp: OsString,
    name: OsString,
    shown: String,
    committed: bool,
}

impl Workspace {
    /// Write `content` to `resolved` atomically (parents created; the file's mode kept).
    pub fn write_atomic(&self, resolved: &ResolvedPath, content: &[u8]) -> Result<(), SandboxError> {
        self.stage_write(resolved, content)?.commit()
    }

    /// Put `content` on disk beside `resolved`, ready to replace it. Refuses what `open_write`
    /// refused: special files, directories, files with other hard links, a symlink swapped in.
    pub fn stage_write(&self, resolved: &ResolvedPath, content: &[u8]) -> Result<StagedWrite, SandboxError> {
        let io_err = |e: io::Error| SandboxError::Io { path: resolved.display(), source: e };
        let Some(name) = resolved.relative.file_name().map(OsStr::to_os_string) else {
            return Err(io_err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a root directory cannot be written",
            )));
        };
        let parent_path = self.parent_of(resolved);
        if !parent_path.relative.as_os_str().is_empty() {
            self.root_dir(resolved)
                .create_dir_all(&parent_path.relative)
                .map_err(|e| self.failed(resolved, e))?;
        }
        let parent = self.open_dir(&parent_path)?;
        let mode = self.existing_mode(&parent, &name, resolved)?;
        let temp = temp_name(&name);
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        let file = parent.open_with(&temp, &options).map_err(io_err)?;
        let staged = StagedWrite { parent, temp, name, shown: resolved.display(), committed: false };
        let mut file = file.into_std();
        let written =
            file.write_all(content).and_then(|()| set_mode(&file, mode)).and_then(|()| file.sync_all());
        // On an error, dropping `staged` removes the temporary file.
        written.map_err(io_err)?;
        Ok(staged)
    }

    /// The mode to give the new content: the existing file's, or `None` for a new file (the
    /// process's umask then applies, as for any file created). Refuses what must not be replaced.
    fn existing_mode(
        &self,
        parent: &Dir,
        name: &OsStr,
        resolved: &ResolvedPath,
    ) -> Result<Option<u32>, SandboxError> {
        let meta = match parent.symlink_metadata(name) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(SandboxError::Io { path: resolved.display(), source: e }),
        };
        let refuse = |reason: String| SandboxError::Violation { path: resolved.display(), reason };
        if meta.file_type().is_symlink() {
            return Err(refuse("it became a symlink after it was checked (swapped?)".to_owned()));
        }
        if let Some(kind) = special_kind_at(meta.file_type()) {
            return Err(SandboxError::Io {
                path: resolved.display(),
                source: io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("it is {kind}, not a regular file; file tools only read and write regular files"),
                ),
            });
        }
        if meta.is_dir() {
            return Err(SandboxError::Io {
                path: resolved.display(),
                source: io::Error::new(io::ErrorKind::InvalidInput, "it is a directory"),
            });
        }
        super::open::check_hard_links(&meta.clone().into(), resolved)?;
        Ok(mode_of(&meta))
    }
}

impl StagedWrite {
    /// Rename the new content over the target and flush the directory.
    pub fn commit(mut self) -> Result<(), SandboxError> {
        let io_err = |e: io::Error| SandboxError::Io { path: self.shown.clone(), source: e };
        self.parent.rename(&self.temp, &self.parent, &self.name).map_err(io_err)?;
        self.committed = true;
        // The rename is durable once the directory is flushed; a failure here is reported, but the
        // file already holds its new content.
        // (Directory handles may be path-only descriptors, which cannot be flushed: open it to read.)
        let mut options = OpenOptions::new();
        options.read(true).maybe_dir(true);
        self.parent.open_with(".", &options).and_then(|d| d.into_std().sync_all()).map_err(io_err)
    }
}

impl Drop for StagedWrite {
    fn drop(&mut self) {
        if !self.committed {
            let _ = self.parent.remove_file(&self.temp);
        }
    }
}

fn temp_name(name: &OsStr) -> OsString {
    let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut head = String::new();
    for c in name.to_string_lossy().chars() {
        if head.len() + c.len_utf8() > MAX_NAME_IN_TEMP {
            break;
        }
        head.push(c);
    }
    OsString::from(format!(".{head}.warden-{}-{n}.tmp", std::process::id()))
}

#[cfg(unix)]
fn mode_of(meta: &cap_std::fs::Metadata) -> Option<u32> {
    use cap_std::fs::PermissionsExt;
    Some(meta.permissions().mode() & 0o7777)
}

#[cfg(not(unix))]
fn mode_of(_meta: &cap_std::fs::Metadata) -> Option<u32> {
    None
}

#[cfg(unix)]
fn set_mode(file: &std::fs::File, mode: Option<u32>) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    match mode {
        Some(mode) => file.set_permissions(std::fs::Permissions::from_mode(mode)),
        None => Ok(()),
    }
}

#[cfg(not(unix))]
fn set_mode(_file: &std::fs::File, _mode: Option<u32>) -> io::Result<()> {
    Ok(())
}

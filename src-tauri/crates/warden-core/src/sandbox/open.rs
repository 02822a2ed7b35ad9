//! Opening files after they were proven inside: the check-then-use race is closed twice.
//!
//! 1. Files are opened through the root's capability directory (`cap-std`, `openat2(RESOLVE_BENEATH)`
//!    on Linux), with the path relative to the root. If a component was swapped for a symlink that
//!    points outside after [`Workspace::resolve`] ran, the open fails instead of escaping.
//! 2. On Linux the opened descriptor's real path (`/proc/self/fd/N`) is checked again, so a symlink
//!    swapped in to point at a secret *inside* the root is refused too, before a byte is read or written.
//!
//! Writes never open their target at all: they go through `atomic.rs` (a temporary file beside it,
//! renamed over it), so a refused or interrupted write changes nothing.

use std::io;

use super::{handles, path, ResolvedPath, SandboxError, Workspace};

impl Workspace {
    /// Open a resolved path for reading.
    pub fn open_read(&self, resolved: &ResolvedPath) -> Result<std::fs::File, SandboxError> {
        refuse_special(self.root_dir(resolved), resolved)?;
        let file = self
            .root_dir(resolved)
            .open_with(rel_or_dot(resolved), &handles::read_options())
            .map_err(|e| self.failed(resolved, e))?;
        let file = file.into_std();
        self.verify_opened(&file, resolved)?;
        let meta = file.metadata().map_err(|e| open_error(resolved, e))?;
        handles::regular_or_dir(&meta).map_err(|e| open_error(resolved, e))?;
        Ok(file)
    }

    /// Whether [`Workspace::remove_file`] would be allowed to delete `resolved` (it exists and has
    /// no other hard links), without deleting it.
    pub fn check_removable(&self, resolved: &ResolvedPath) -> Result<(), SandboxError> {
        let meta = self
            .root_dir(resolved)
            .symlink_metadata(&resolved.relative)
            .map_err(|e| open_error(resolved, e))?;
        check_hard_links(&meta.into(), resolved)
    }

    /// Delete a resolved file (`apply_patch` deletions). A symlink is removed, never its target.
    pub fn remove_file(&self, resolved: &ResolvedPath) -> Result<(), SandboxError> {
        self.check_removable(resolved)?;
        self.root_dir(resolved).remove_file(&resolved.relative).map_err(|e| open_error(resolved, e))
    }

    /// An open failed: if the path no longer resolves inside (something was swapped since the check),
    /// say so as a violation; otherwise report the I/O error.
    pub(super) fn failed(&self, resolved: &ResolvedPath, e: io::Error) -> SandboxError {
        let again = resolved.absolute.to_string_lossy().into_owned();
        match self.resolve(&again, super::Access::Read) {
            Err(SandboxError::Violation { reason, .. }) => SandboxError::Violation {
                path: resolved.display(),
                reason: format!("the path changed after it was checked: {reason}"),
            },
            _ => open_error(resolved, e),
        }
    }

    #[cfg(target_os = "linux")]
    fn verify_opened(&self, file: &std::fs::File, resolved: &ResolvedPath) -> Result<(), SandboxError> {
        // When /proc is not mounted the capability open has still kept us inside the root.
        let Some(real) = handles::real_path(file) else { return Ok(()) };
        let shown = resolved.display();
        let Some((_, rel)) = path::locate(self.roots(), &real) else {
            return Err(SandboxError::Violation {
                path: shown,
                reason: format!(
                    "the opened file is {}, outside the roots (swapped after the check?)",
                    real.display()
                ),
            });
        };
        if let Some(reason) = path::secret_reason(&rel) {
            return Err(SandboxError::Violation {
                path: shown,
                reason: format!("the opened file is {} (swapped after the check?): {reason}", real.display()),
            });
        }
        Ok(())
    }

    #[cfg(not(target_os = "linux"))]
    fn verify_opened(&self, _file: &std::fs::File, _resolved: &ResolvedPath) -> Result<(), SandboxError> {
        Ok(())
    }
}

/// Metadata with the one field the hard-link rule needs, from either std or cap-std.
pub(super) struct LinkCount(u64);

impl From<std::fs::Metadata> for LinkCount {
    fn from(meta: std::fs::Metadata) -> Self {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            LinkCount(if meta.is_file() { meta.nlink() } else { 1 })
        }
        #[cfg(not(unix))]
        {
            let _ = meta;
            LinkCount(1)
        }
    }
}

impl From<cap_std::fs::Metadata> for LinkCount {
    fn from(meta: cap_std::fs::Metadata) -> Self {
        #[cfg(unix)]
        {
            use cap_std::fs::MetadataExt;
            LinkCount(if meta.is_file() { meta.nlink() } else { 1 })
        }
        #[cfg(not(unix))]
        {
            let _ = meta;
            LinkCount(1)
        }
    }
}

pub(super) fn check_hard_links(meta: &LinkCount, resolved: &ResolvedPath) -> Result<(), SandboxError> {
    let LinkCount(links) = *meta;
    if links > 1 {
        return Err(SandboxError::Violation {
            path: resolved.display(),
            reason: format!(
                "the file has {links} hard links; changing it would change its other names too, \
                 which may be outside the project"
            ),
        });
    }
    Ok(())
}

/// A FIFO, socket or device is named as such before an open could block on it or fail obscurely
/// (a socket opens with ENXIO). The open that follows re-checks the type of what it got.
fn refuse_special(dir: &cap_std::fs::Dir, resolved: &ResolvedPath) -> Result<(), SandboxError> {
    let Ok(meta) = dir.symlink_metadata(rel_or_dot(resolved)) else { return Ok(()) };
    match handles::special_kind_at(meta.file_type()) {
        None => Ok(()),
        Some(kind) => Err(open_error(
            resolved,
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("it is {kind}, not a regular file; file tools only read and write regular files"),
            ),
        )),
    }
}

fn rel_or_dot(resolved: &ResolvedPath) -> &std::path::Path {
    if resolved.relative.as_os_str().is_empty() {
        std::path::Path::new(".")
    } else {
        &resolved.relative
    }
}

fn open_error(resolved: &ResolvedPath, e: io::Error) -> SandboxError {
    let path = resolved.display();
    match e.kind() {
        io::ErrorKind::NotFound => SandboxError::NotFound { path },
        // cap-std reports an escape attempt (a symlink leading out of the root) as "a path led outside
        // of the filesystem", the kernel's RESOLVE_BENEATH as EXDEV/ELOOP; after a successful resolve
        // only a swap can cause either.
        _ if is_escape(&e) => SandboxError::Violation {
            path,
            reason: format!(
                "opening it would leave the root ({e}); was a symlink swapped in after the check?"
            ),
        },
        _ => SandboxError::Io { path, source: e },
    }
}

fn is_escape(e: &io::Error) -> bool {
    let text = e.to_string();
    text.contains("outside of the filesystem") || text.contains("a path led outside") || is_escape_errno(e)
}

#[cfg(unix)]
fn is_escape_errno(e: &io::Error) -> bool {
    use nix::errno::Errno;
    matches!(e.raw_os_error(), Some(code) if code == Errno::EXDEV as i32 || code == Errno::ELOOP as i32)
}

#[cfg(not(unix))]
fn is_escape_errno(_e: &io::Error) -> bool {
    false
}

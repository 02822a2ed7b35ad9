//! Reaching what a resolved path names through directory handles, never through the path string.
//!
//! A resolved path has no symlink and no `..` left in it, so it is opened one component at a time
//! from its root's handle, refusing to follow a link at every step (`O_NOFOLLOW`): a component
//! swapped for a symlink after [`Workspace::resolve`] ran makes the open fail instead of leading
//! elsewhere. Walkers go on the same way below that: each entry is opened by its single name from its
//! parent's handle. On Linux every directory handle's real path is read back from `/proc/self/fd`
//! and checked, so a directory renamed out of the project while it is walked is not followed either.
//!
//! Only regular files are opened for their contents: FIFOs, sockets and devices are refused before a
//! read or write could block on them.

use std::ffi::OsStr;
use std::io;
use std::path::{Component, Path};

use cap_fs_ext::{DirExt, FollowSymlinks, OpenOptionsFollowExt, OpenOptionsSyncExt};
use cap_std::fs::{Dir, Metadata, OpenOptions};

use super::{path, ResolvedPath, SandboxError, Workspace};

impl Workspace {
    /// Open the directory a resolved path names, component by component without following links,
    /// and check where the handle really is.
    pub fn open_dir(&self, resolved: &ResolvedPath) -> Result<Dir, SandboxError> {
        let mut dir = self.root_dir(resolved).try_clone().map_err(|e| self.failed(resolved, e))?;
        for name in normal_components(&resolved.relative) {
            dir = dir.open_dir_nofollow(name).map_err(|e| self.failed(resolved, e))?;
        }
        self.verify_dir(&dir, &resolved.relative, resolved.root)
            .map_err(|reason| SandboxError::Violation { path: resolved.display(), reason })?;
        Ok(dir)
    }

    /// Make the directory a resolved path names, and its missing parents, without leaving its root
    /// (`cap-std` follows no link out of it), then open it as [`Workspace::open_dir`] does.
    pub fn make_dir(&self, resolved: &ResolvedPath) -> Result<Dir, SandboxError> {
        if !resolved.relative.as_os_str().is_empty() {
            self.root_dir(resolved)
                .create_dir_all(&resolved.relative)
                .map_err(|e| self.failed(resolved, e))?;
        }
        self.open_dir(resolved)
    }

    /// The metadata of what a resolved path names (a final symlink is described, not followed),
    /// reached through its parent's handle.
    pub fn metadata(&self, resolved: &ResolvedPath) -> Result<Metadata, SandboxError> {
        let Some(name) = resolved.relative.file_name() else {
            return self.root_dir(resolved).dir_metadata().map_err(|e| self.failed(resolved, e));
        };
        let parent = self.open_dir(&self.parent_of(resolved))?;
        parent.symlink_metadata(name).map_err(|e| self.failed(resolved, e))
    }

    /// The resolved path of the directory that holds `resolved` (which is not a root).
    pub(super) fn parent_of(&self, resolved: &ResolvedPath) -> ResolvedPath {
        let relative = resolved.relative.parent().map(Path::to_path_buf).unwrap_or_default();
        let absolute = self.roots()[resolved.root].join(&relative);
        ResolvedPath { absolute, root: resolved.root, relative }
    }

    /// Check that an open directory handle really is `relative` under root `root` (Linux: read back
    /// through `/proc/self/fd`) and not secret-bearing. `Err` says why not.
    pub fn verify_dir(&self, dir: &Dir, relative: &Path, root: usize) -> Result<(), String> {
        let Some(real) = real_path(dir) else { return Ok(()) };
        let expected = self.roots()[root].join(relative);
        if real != expected {
            return Err(format!(
                "the directory is now {}, not {} (moved or swapped while it was used)",
                real.display(),
                expected.display()
            ));
        }
        match path::secret_reason(relative) {
            Some(reason) => Err(reason),
            None => Ok(()),
        }
    }
}

/// Open the subdirectory `name` (one component, as read from `dir`) without following a symlink.
pub fn open_child_dir(dir: &Dir, name: &OsStr) -> io::Result<Dir> {
    single_component(name)?;
    dir.open_dir_nofollow(name)
}

/// Open the regular file `name` (one component, as read from `dir`) for reading, without following
/// a symlink and without blocking on a FIFO. Anything else that opens (a directory, a FIFO, a device
/// swapped in since `dir` was read) is refused after one `fstat` of the open handle, before a read.
pub fn open_child_file(dir: &Dir, name: &OsStr) -> io::Result<std::fs::File> {
    open_child_file_with_metadata(dir, name).map(|(file, _)| file)
}

/// [`open_child_file`], with the metadata of what was opened (the one `fstat` it made). A directory
/// is refused with [`io::ErrorKind::IsADirectory`].
pub fn open_child_file_with_metadata(
    dir: &Dir,
    name: &OsStr,
) -> io::Result<(std::fs::File, std::fs::Metadata)> {
    single_component(name)?;
    let file = dir.open_with(name, &read_options())?.into_std();
    let meta = file.metadata()?;
    regular_or_dir(&meta)?;
    if meta.is_dir() {
        return Err(io::Error::new(io::ErrorKind::IsADirectory, "it is a directory, not a regular file"));
    }
    Ok((file, meta))
}

/// Options for opening an existing file to read it: no link followed at the end, non-blocking
/// (a FIFO opens at once instead of waiting for a writer; the type check then refuses it).
pub(super) fn read_options() -> OpenOptions {
    let mut options = OpenOptions::new();
    options.read(true).follow(FollowSymlinks::No).nonblock(true);
    options
}

/// Refuse anything but a regular file or a directory, saying what it is.
pub(super) fn regular_or_dir(meta: &std::fs::Metadata) -> io::Result<()> {
    let kind = special_kind(meta.file_type());
    match kind {
        None => Ok(()),
        Some(kind) => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("it is {kind}, not a regular file; file tools only read and write regular files"),
        )),
    }
}

/// What a special file is, in words; `None` for regular files, directories and symlinks.
pub fn special_kind(file_type: std::fs::FileType) -> Option<&'static str> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = file_type;
        describe(
            [t.is_fifo(), t.is_socket(), t.is_block_device() || t.is_char_device()],
            t.is_file() || t.is_dir() || t.is_symlink(),
        )
    }
    #[cfg(not(unix))]
    describe([false; 3], file_type.is_file() || file_type.is_dir() || file_type.is_symlink())
}

/// [`special_kind`] for a type read through a directory handle.
pub fn special_kind_at(file_type: cap_std::fs::FileType) -> Option<&'static str> {
    #[cfg(unix)]
    {
        use cap_std::fs::FileTypeExt;
        let t = file_type;
        describe(
            [t.is_fifo(), t.is_socket(), t.is_block_device() || t.is_char_device()],
            t.is_file() || t.is_dir() || t.is_symlink(),
        )
    }
    #[cfg(not(unix))]
    describe([false; 3], file_type.is_file() || file_type.is_dir() || file_type.is_symlink())
}

fn describe([fifo, socket, device]: [bool; 3], ordinary: bool) -> Option<&'static str> {
    if fifo {
        Some("a FIFO (named pipe)")
    } else if socket {
        Some("a socket")
    } else if device {
        Some("a device")
    } else if ordinary {
        None
    } else {
        Some("a special file")
    }
}

fn single_component(name: &OsStr) -> io::Result<()> {
    let mut parts = Path::new(name).components();
    match (parts.next(), parts.next()) {
        (Some(Component::Normal(_)), None) => Ok(()),
        _ => Err(io::Error::new(io::ErrorKind::InvalidInput, "not a single path component")),
    }
}

fn normal_components(relative: &Path) -> impl Iterator<Item = &OsStr> {
    relative.components().filter_map(|c| match c {
        Component::Normal(name) => Some(name),
        _ => None,
    })
}

/// Where an open handle really is, when the platform can say.
#[cfg(target_os = "linux")]
pub(super) fn real_path(handle: &impl std::os::fd::AsFd) -> Option<std::path::PathBuf> {
    use std::os::fd::AsRawFd;
    std::fs::read_link(format!("/proc/self/fd/{}", handle.as_fd().as_raw_fd())).ok()
}

#[cfg(not(target_os = "linux"))]
pub(super) fn real_path<T>(_handle: &T) -> Option<std::path::PathBuf> {
    None
}

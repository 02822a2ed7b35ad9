//! Moving what the git sweeps find into Warden's storage through directory handles, never through
//! path strings: the sweeps run while a command's background processes may still be at work in the
//! box, and a folder of the project swapped for a link between finding a file and moving it must
//! not lead Warden's own hands to a file elsewhere (another repository's hooks, `~/.bashrc`).
//! Each folder is opened from the project's handle one component at a time without following a
//! link (`open_dir_nofollow`); a file is moved by `renameat` from its folder's handle, a link as a
//! link; a new file is created only where nothing is (`O_EXCL`, no link followed).

use std::ffi::OsStr;
use std::io::{Read, Write};
use std::path::{Component, Path};

use cap_fs_ext::{DirExt, FollowSymlinks, OpenOptionsFollowExt};
use cap_std::ambient_authority;
use cap_std::fs::{Dir, OpenOptions};

use super::git_metadata::Swept;

/// The folder `relative` names under `project`, reached without following a link.
pub(super) fn open_in_project(project: &Path, relative: &Path) -> std::io::Result<Dir> {
    let mut dir = Dir::open_ambient_dir(project, ambient_authority())?;
    for component in relative.components() {
        match component {
            Component::Normal(name) => dir = dir.open_dir_nofollow(name)?,
            Component::CurDir => {}
            _ => return Err(std::io::Error::other("not a plain relative path")),
        }
    }
    Ok(dir)
}

/// A regular file's bytes, read through `dir` without following a link; `None` otherwise.
pub(super) fn read_file(dir: &Dir, name: impl AsRef<Path>) -> Option<Vec<u8>> {
    let mut options = OpenOptions::new();
    options.read(true).follow(FollowSymlinks::No);
    let mut file = dir.open_with(name, &options).ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// A new file `name` in `dir` with `bytes`, only where nothing is.
pub(super) fn create_new(dir: &Dir, name: impl AsRef<Path>, bytes: &[u8]) -> std::io::Result<()> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true).follow(FollowSymlinks::No);
    dir.open_with(name, &options)?.write_all(bytes)
}

/// Move `name` out of `dir` (shown as `shown`) into the folder `aside` (created when needed),
/// under a name that says when and what it was.
pub(super) fn move_aside(dir: &Dir, name: &OsStr, shown: &Path, aside: &Path, danger: &'static str) -> Swept {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let label: Vec<String> = shown
        .components()
        .rev()
        .take(3)
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let target = format!("{stamp}-{}", label.join("-"));
    let moved = std::fs::create_dir_all(aside)
        .and_then(|()| Dir::open_ambient_dir(aside, ambient_authority()))
        .and_then(|aside_dir| move_file(dir, name, &aside_dir, &target));
    match moved {
        Ok(()) => Swept { from: shown.to_path_buf(), to: Some(aside.join(target)), danger },
        Err(error) => {
            tracing::warn!(%error, path = %shown.display(), "could not move a code-running git file aside");
            Swept { from: shown.to_path_buf(), to: None, danger }
        }
    }
}

/// `renameat`, or across file systems a copy through the handles and an `unlinkat`. A link is
/// moved as a link; a folder is not moved across file systems.
fn move_file(dir: &Dir, name: &OsStr, to_dir: &Dir, to: &str) -> std::io::Result<()> {
    match dir.rename(name, to_dir, to) {
        Ok(()) => Ok(()),
        Err(error) if error.raw_os_error() == Some(nix::libc::EXDEV) => {
            let meta = dir.symlink_metadata(name)?;
            if meta.is_symlink() {
                to_dir.symlink(dir.read_link(name)?, to)?;
            } else if meta.is_file() {
                let bytes =
                    read_file(dir, name).ok_or_else(|| std::io::Error::other("not a regular file"))?;
                create_new(to_dir, to, &bytes)?;
            } else {
                return Err(error);
            }
            dir.remove_file(name)
        }
        Err(error) => Err(error),
    }
}

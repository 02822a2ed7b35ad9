//! Reading the conventions' folders and files: a project's as the file tools read the project
//! (from a handle on its root, one component at a time, never through a symlink, only regular
//! files, never a secret-bearing path), the user's own folders following their links (a skill
//! folder linked from the user's dotfiles is common, and they are the user's).

use std::ffi::OsStr;
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};

use cap_std::fs::Dir;

use crate::sandbox::handles::{open_child_dir, open_child_file_with_metadata};

/// At most this many entries of one folder are looked at.
pub const MAX_ENTRIES: usize = 200;

/// Whose folder it is, which says whether links are followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    /// The user's own folder: links are followed.
    User,
    /// Inside the project: no link is followed and secret-bearing paths are not read.
    Project,
}

/// A folder, opened.
pub struct Folder {
    pub dir: Dir,
    pub owner: Owner,
    /// Where it is, for the messages and the window.
    pub path: PathBuf,
    /// For a project's folder: where it is relative to the project root.
    pub relative: Option<PathBuf>,
}

impl Folder {
    /// The user's folder at `path`; `None` when it does not exist or cannot be opened.
    pub fn user(path: &Path) -> Option<Self> {
        match Dir::open_ambient_dir(path, cap_std::ambient_authority()) {
            Ok(dir) => Some(Self { dir, owner: Owner::User, path: path.to_path_buf(), relative: None }),
            Err(error) if error.kind() == io::ErrorKind::NotFound => None,
            Err(error) => {
                tracing::warn!(%error, folder = %path.display(), "folder not read");
                None
            }
        }
    }

    /// The folder `relative` of the project whose root is opened as `root`, without following a
    /// link on the way; `None` when it is not there (or is a link).
    pub fn project(root: &Dir, root_path: &Path, relative: &Path) -> Option<Self> {
        let mut dir = root.try_clone().ok()?;
        for part in relative.components() {
            let Component::Normal(name) = part else { return None };
            dir = match open_child_dir(&dir, name) {
                Ok(dir) => dir,
                Err(error) if error.kind() == io::ErrorKind::NotFound => return None,
                Err(error) => {
                    tracing::debug!(%error, folder = %relative.display(), "project folder not read");
                    return None;
                }
            };
        }
        Some(Self {
            dir,
            owner: Owner::Project,
            path: root_path.join(relative),
            relative: Some(relative.to_path_buf()),
        })
    }

    /// The subfolder `name`, opened as this folder's owner allows.
    pub fn child(&self, name: &str) -> io::Result<Self> {
        let dir = match self.owner {
            // The user's folders follow links anywhere: through the path, not the handle.
            Owner::User => Dir::open_ambient_dir(self.path.join(name), cap_std::ambient_authority())?,
            Owner::Project => open_child_dir(&self.dir, OsStr::new(name))?,
        };
        Ok(Self {
            dir,
            owner: self.owner,
            path: self.path.join(name),
            relative: self.relative.as_ref().map(|r| r.join(name)),
        })
    }

    /// The names of its entries of one kind, sorted, at most [`MAX_ENTRIES`] looked at; names that
    /// are not UTF-8 or start with a dot are left out.
    pub fn names(&self, want_dirs: bool) -> Vec<String> {
        let Ok(entries) = self.dir.entries() else { return Vec::new() };
        let mut names: Vec<String> = entries
            .take(MAX_ENTRIES)
            .filter_map(Result::ok)
            .filter_map(|entry| {
                let name = entry.file_name().into_string().ok()?;
                if name.starts_with('.') {
                    return None;
                }
                let is_dir = match self.owner {
                    // Through a link for the user's folders (`metadata` follows it).
                    Owner::User => std::fs::metadata(self.path.join(&name)).ok()?.is_dir(),
                    Owner::Project => entry.file_type().ok()?.is_dir(),
                };
                (is_dir == want_dirs).then_some(name)
            })
            .collect();
        names.sort();
        names
    }

    /// At most `limit` bytes of the regular file `name` (one component), lossily as UTF-8, and
    /// whether there was more.
    pub fn read(&self, name: &str, limit: usize) -> io::Result<(String, bool)> {
        if self.owner == Owner::Project {
            let relative = self.relative.clone().unwrap_or_default().join(name);
            if let Some(reason) = crate::sandbox::path::secret_reason(&relative) {
                return Err(io::Error::new(io::ErrorKind::PermissionDenied, reason));
            }
        }
        let file = match self.owner {
            Owner::Project => open_child_file_with_metadata(&self.dir, OsStr::new(name))?.0,
            Owner::User => {
                let file = open_nonblocking(&self.path.join(name))?;
                if !file.metadata()?.is_file() {
                    return Err(io::Error::new(io::ErrorKind::InvalidInput, "not a regular file"));
                }
                file
            }
        };
        let mut bytes = Vec::new();
        file.take(u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1)).read_to_end(&mut bytes)?;
        let more = bytes.len() > limit;
        let (kept, _) = crate::instructions::cut_at(&bytes, limit);
        Ok((String::from_utf8_lossy(kept).into_owned(), more))
    }
}

/// Open `path` for reading without blocking on a FIFO (its type is checked next).
fn open_nonblocking(path: &Path) -> io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(nix::libc::O_NONBLOCK);
    }
    options.open(path)
}

/// A relative path with `/` between its parts.
pub fn slashed(path: &Path) -> String {
    path.components().map(|part| part.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

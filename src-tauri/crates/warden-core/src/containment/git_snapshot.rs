//! The Landlock fallback cannot make part of a writable folder read-only (a Landlock right covers a
//! folder's whole hierarchy), so there the project's `.git/config`, its hooks, `.git/info` and the
//! folder `core.hooksPath` names in the project (husky's `.husky/_`) stay writable from the box.
//! What a call changed of them is put back when it ends: each file as it was before the call, and
//! what the box wrote in its place moved into Warden's storage (as the sweep does, and the block
//! offers it back). Everything goes through directory handles opened without following a link
//! ([`super::git_aside`]).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Component, Path, PathBuf};

use cap_fs_ext::{FollowSymlinks, OpenOptionsFollowExt};
use cap_std::fs::{Dir, OpenOptions};

use super::git_aside::{move_aside, open_in_project, read_file};
use super::git_metadata::Swept;

/// A file as it was: its bytes and its mode.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Kept {
    bytes: Vec<u8>,
    mode: u32,
}

/// The project's `.git/config` and the files of its code-running folders at one moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitSnapshot {
    config: Option<Kept>,
    /// Per folder (relative to the project): its files then, empty for a folder that was not there.
    folders: BTreeMap<PathBuf, BTreeMap<OsString, Kept>>,
}

/// The code-running files of `project`'s `.git` folder now; `None` without one.
pub fn take(project: &Path) -> Option<GitSnapshot> {
    let dot_git = open_in_project(project, Path::new(".git")).ok()?;
    let config = kept(&dot_git, "config");
    let mut folders = vec![PathBuf::from(".git/hooks"), PathBuf::from(".git/info")];
    folders.extend(config.as_ref().and_then(|c| hooks_folder(&c.bytes)));
    let folders = folders.into_iter().map(|folder| {
        let files = open_in_project(project, &folder).map(|dir| files_of(&dir)).unwrap_or_default();
        (folder, files)
    });
    Some(GitSnapshot { config, folders: folders.collect() })
}

/// The folder `core.hooksPath` names in `config`, when it is a plain path inside the project.
fn hooks_folder(config: &[u8]) -> Option<PathBuf> {
    let path = PathBuf::from(super::git_metadata::hooks_path_value(std::str::from_utf8(config).ok()?)?);
    path.components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir)).then_some(path)
}

/// The regular files directly in `dir`.
fn files_of(dir: &Dir) -> BTreeMap<OsString, Kept> {
    let names = dir.entries().into_iter().flatten().flatten().map(|e| e.file_name());
    names.filter_map(|name| Some((name.clone(), kept(dir, &name)?))).collect()
}

/// A regular file's bytes and mode, read without following a link.
fn kept(dir: &Dir, name: impl AsRef<Path>) -> Option<Kept> {
    let meta = dir.symlink_metadata(name.as_ref()).ok()?;
    if !meta.is_file() {
        return None;
    }
    let mode = cap_std::fs::PermissionsExt::mode(&meta.permissions()) & 0o7777;
    Some(Kept { bytes: read_file(dir, name)?, mode })
}

impl GitSnapshot {
    /// Put the project's `.git/config` and hooks back as they were here; what stood in their place
    /// goes into `aside`. Returns what was moved.
    pub fn restore(&self, project: &Path, aside: &Path) -> Vec<Swept> {
        let Ok(dot_git) = open_in_project(project, Path::new(".git")) else { return Vec::new() };
        let shown = project.join(".git");
        let mut swept = Vec::new();
        put_back(&dot_git, "config".as_ref(), self.config.as_ref(), &shown.join("config"), aside, &mut swept);
        for (folder, files) in &self.folders {
            let Ok(dir) = open_in_project(project, folder) else { continue };
            let mut names: Vec<OsString> =
                dir.entries().into_iter().flatten().flatten().map(|e| e.file_name()).collect();
            names.extend(files.keys().cloned());
            names.sort();
            names.dedup();
            for name in names {
                let shown = project.join(folder).join(&name);
                put_back(&dir, &name, files.get(&name), &shown, aside, &mut swept);
            }
        }
        swept
    }
}

/// `name` in `dir` as `was` says (absent when `None`): what differs is moved aside, and the old
/// file written back.
fn put_back(
    dir: &Dir,
    name: &std::ffi::OsStr,
    was: Option<&Kept>,
    shown: &Path,
    aside: &Path,
    swept: &mut Vec<Swept>,
) {
    let now = kept(dir, name);
    let present = dir.symlink_metadata(name).is_ok();
    if now.as_ref() == was && (present == was.is_some()) {
        return;
    }
    if present {
        let danger = if name == "config" {
            "have set git options that run programs"
        } else {
            "have run as a git hook"
        };
        let moved = move_aside(dir, name, shown, aside, danger);
        let failed = moved.to.is_none();
        swept.push(moved);
        if failed {
            return;
        }
    }
    if let Some(was) = was {
        if let Err(error) = write_new(dir, name, was) {
            tracing::warn!(%error, path = %shown.display(), "could not put a git file back");
        }
    }
}

/// A new file `name` in `dir` with `kept`'s bytes and mode, only where nothing is.
fn write_new(dir: &Dir, name: &std::ffi::OsStr, kept: &Kept) -> std::io::Result<()> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true).follow(FollowSymlinks::No);
    let mut file = dir.open_with(name, &options)?.into_std();
    file.write_all(&kept.bytes)?;
    file.set_permissions(std::fs::Permissions::from_mode(kept.mode))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_call_changed_of_the_config_and_hooks_is_put_back_and_kept_aside() {
        let root = tempfile::tempdir().unwrap();
        let project = root.path().join("p");
        let aside = root.path().join("aside");
        let git = project.join(".git");
        std::fs::create_dir_all(git.join("hooks")).unwrap();
        std::fs::write(git.join("config"), "[core]\n\tbare = false\n").unwrap();
        std::fs::write(git.join("hooks/pre-commit"), "#!/bin/sh\necho mine\n").unwrap();
        std::fs::set_permissions(git.join("hooks/pre-commit"), std::fs::Permissions::from_mode(0o755))
            .unwrap();
        std::fs::write(git.join("hooks/pre-push.sample"), "sample\n").unwrap();
        let before = take(&project).unwrap();
        assert!(before.restore(&project, &aside).is_empty(), "nothing changed, nothing moved");

        std::fs::write(git.join("config"), "[core]\n\tfsmonitor = touch PWNED\n").unwrap();
        std::fs::write(git.join("hooks/pre-commit"), "#!/bin/sh\ntouch PWNED\n").unwrap();
        std::fs::write(git.join("hooks/post-checkout"), "#!/bin/sh\ntouch PWNED\n").unwrap();
        std::fs::remove_file(git.join("hooks/pre-push.sample")).unwrap();
        let swept = before.restore(&project, &aside);
        assert_eq!(swept.len(), 3, "{swept:?}");
        assert!(swept.iter().all(|s| s.to.is_some()));
        assert_eq!(std::fs::read_to_string(git.join("config")).unwrap(), "[core]\n\tbare = false\n");
        assert_eq!(std::fs::read_to_string(git.join("hooks/pre-commit")).unwrap(), "#!/bin/sh\necho mine\n");
        let mode = std::fs::metadata(git.join("hooks/pre-commit")).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o755, "the hook keeps its mode");
        assert!(!git.join("hooks/post-checkout").exists());
        assert_eq!(std::fs::read_to_string(git.join("hooks/pre-push.sample")).unwrap(), "sample\n");
        assert_eq!(take(&project).unwrap(), before);
    }

    /// husky keeps its runner in a git-ignored `.husky/_` that `core.hooksPath` names: a hook the
    /// box adds there, or in a folder the config names but that was not there, is taken out too.
    #[test]
    fn the_folder_core_hooks_path_names_is_put_back_too() {
        let root = tempfile::tempdir().unwrap();
        let project = root.path().join("p");
        std::fs::create_dir_all(project.join(".git/hooks")).unwrap();
        std::fs::create_dir_all(project.join(".husky/_")).unwrap();
        std::fs::write(project.join(".git/config"), "[core]\n\thooksPath = .husky/_\n").unwrap();
        std::fs::write(project.join(".husky/_/h"), "husky's runner\n").unwrap();
        let before = take(&project).unwrap();
        std::fs::write(project.join(".husky/_/h"), "touch PWNED\n").unwrap();
        std::fs::write(project.join(".husky/_/pre-commit"), "touch PWNED\n").unwrap();
        std::fs::create_dir_all(project.join(".git/info")).unwrap();
        std::fs::write(project.join(".git/info/attributes"), "* filter=evil\n").unwrap();
        let swept = before.restore(&project, &root.path().join("aside"));
        assert_eq!(swept.len(), 3, "{swept:?}");
        assert_eq!(std::fs::read_to_string(project.join(".husky/_/h")).unwrap(), "husky's runner\n");
        assert!(!project.join(".husky/_/pre-commit").exists());
        assert!(!project.join(".git/info/attributes").exists());
        // A path outside the project is not a folder of the project's.
        assert_eq!(hooks_folder(b"[core]\n\thooksPath = ../elsewhere\n"), None);
        assert_eq!(hooks_folder(b"[core]\n\thooksPath = /etc/hooks\n"), None);
    }

    #[test]
    fn a_hooks_folder_swapped_for_a_link_is_not_followed() {
        let root = tempfile::tempdir().unwrap();
        let project = root.path().join("p");
        let elsewhere = root.path().join("elsewhere");
        std::fs::create_dir_all(project.join(".git/hooks")).unwrap();
        std::fs::create_dir_all(&elsewhere).unwrap();
        std::fs::write(elsewhere.join("pre-commit"), "someone else's\n").unwrap();
        let before = take(&project).unwrap();
        std::fs::remove_dir(project.join(".git/hooks")).unwrap();
        std::os::unix::fs::symlink(&elsewhere, project.join(".git/hooks")).unwrap();
        before.restore(&project, &root.path().join("aside"));
        assert_eq!(std::fs::read_to_string(elsewhere.join("pre-commit")).unwrap(), "someone else's\n");
    }
}

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
    let target = aside_name(shown);
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

/// Where the sweeps keep what they move aside, in the project's storage.
pub const ASIDE_DIR: &str = "git-aside";

/// Put back what a sweep moved aside, when the user asks: `name` (a file of the storage's
/// [`ASIDE_DIR`]) to `relative` in `project`, both reached through handles that follow no link.
/// The project's folders may have changed since; a file at the place now is refused — but for a
/// `config`, which the sweep replaced with its plain keys: that one goes aside in its turn.
pub fn restore(project: &Path, relative: &Path, storage: &Path, name: &str) -> Result<(), String> {
    let plain = |path: &Path| {
        !path.as_os_str().is_empty() && path.components().all(|c| matches!(c, Component::Normal(_)))
    };
    if !plain(Path::new(name)) || Path::new(name).components().count() != 1 {
        return Err(format!("{name:?} is not a file Warden moved aside"));
    }
    let (Some(parent), Some(file)) = (relative.parent(), relative.file_name()) else {
        return Err(format!("{} is not a path in the project", relative.display()));
    };
    if !plain(relative) {
        return Err(format!("{} is not a path in the project", relative.display()));
    }
    let aside_dir = Dir::open_ambient_dir(storage, ambient_authority())
        .and_then(|storage| storage.open_dir_nofollow(ASIDE_DIR))
        .map_err(|e| format!("cannot open what Warden moved aside: {e}"))?;
    let kept = aside_dir.symlink_metadata(name).map_err(|_| format!("{name} is no longer kept aside"))?;
    if !kept.is_file() && !kept.is_symlink() {
        return Err(format!("{name} is not a file"));
    }
    let shown = project.join(relative);
    let folder = open_in_project(project, parent)
        .map_err(|e| format!("cannot reach {} without following a link: {e}", shown.display()))?;
    if folder.symlink_metadata(file).is_ok() {
        if file != "config" {
            return Err(format!("something is at {} now: move it away first", shown.display()));
        }
        // Into the aside folder already held, not one opened again by its path.
        move_file(&folder, file, &aside_dir, &aside_name(&shown))
            .map_err(|e| format!("cannot move the config at {} aside: {e}", shown.display()))?;
    }
    let to = file.to_str().ok_or_else(|| format!("{} is not a name Warden can use", shown.display()))?;
    move_file(&aside_dir, OsStr::new(name), &folder, to)
        .map_err(|e| format!("cannot put {} back: {e}", shown.display()))
}

/// The name a file shown as `shown` gets aside: when, and the last three parts of where it was.
fn aside_name(shown: &Path) -> String {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let mut label: Vec<String> =
        shown.components().rev().take(3).map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    label.reverse();
    format!("{stamp}-{}", label.join("-"))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap_or(path)).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(path, text).unwrap_or_else(|e| panic!("{e}"));
    }

    /// A project with a hook and a config moved aside as the sweep moves them; the names aside.
    fn swept() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf, String, String) {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let (project, storage) = (dir.path().join("p"), dir.path().join("storage"));
        write(&project.join("sub/.git/hooks/pre-commit"), "#!/bin/sh\necho HOOKED\n");
        write(&project.join("sub/.git/config"), "[core]\n\tfsmonitor = x\n");
        let repo = open_in_project(&project, Path::new("sub/.git")).unwrap_or_else(|e| panic!("{e}"));
        let hooks = repo.open_dir_nofollow("hooks").unwrap_or_else(|e| panic!("{e}"));
        let aside = storage.join(ASIDE_DIR);
        let name = |s: Swept| s.to.and_then(|t| t.file_name().map(|n| n.to_string_lossy().into_owned()));
        let hook = name(move_aside(&hooks, OsStr::new("pre-commit"), &project.join("x"), &aside, "d"));
        let config = name(move_aside(&repo, OsStr::new("config"), &project.join("y"), &aside, "d"));
        create_new(&repo, "config", b"[core]\n\tbare = false\n").unwrap_or_else(|e| panic!("{e}"));
        let (Some(hook), Some(config)) = (hook, config) else { panic!("not moved aside") };
        (dir, project, storage, hook, config)
    }

    #[test]
    fn what_was_moved_aside_is_put_back_where_it_was() {
        let (_dir, project, storage, hook, config) = swept();
        assert!(!project.join("sub/.git/hooks/pre-commit").exists());
        restore(&project, Path::new("sub/.git/hooks/pre-commit"), &storage, &hook)
            .unwrap_or_else(|e| panic!("{e}"));
        let back = std::fs::read_to_string(project.join("sub/.git/hooks/pre-commit")).unwrap_or_default();
        assert!(back.contains("HOOKED"), "{back}");
        // The config Warden wrote in its place goes aside in its turn.
        restore(&project, Path::new("sub/.git/config"), &storage, &config).unwrap_or_else(|e| panic!("{e}"));
        let config_back = std::fs::read_to_string(project.join("sub/.git/config")).unwrap_or_default();
        assert!(config_back.contains("fsmonitor"), "{config_back}");
        let kept: Vec<_> =
            std::fs::read_dir(storage.join(ASIDE_DIR)).into_iter().flatten().flatten().collect();
        assert_eq!(kept.len(), 1, "the plain config is kept aside, nothing else: {kept:?}");
        assert!(restore(&project, Path::new("sub/.git/hooks/pre-commit"), &storage, &hook)
            .is_err_and(|e| e.contains("no longer kept aside")));
    }

    #[test]
    fn nothing_is_put_back_over_a_file_through_a_link_or_from_outside_the_aside_folder() {
        let (dir, project, storage, hook, _) = swept();
        write(&project.join("sub/.git/hooks/pre-commit"), "the user's own\n");
        let over = restore(&project, Path::new("sub/.git/hooks/pre-commit"), &storage, &hook);
        assert!(over.is_err_and(|e| e.contains("something is at")));
        std::fs::remove_file(project.join("sub/.git/hooks/pre-commit")).unwrap_or_else(|e| panic!("{e}"));

        for (relative, name) in [
            ("sub/.git/hooks/../../../outside", hook.as_str()),
            ("/etc/x", hook.as_str()),
            ("sub/.git/hooks/pre-commit", "../p/sub/.git/config"),
            ("sub/.git/hooks/pre-commit", ""),
        ] {
            let refused = restore(&project, Path::new(relative), &storage, name);
            assert!(refused.is_err(), "{relative} from {name:?}");
        }
        // A folder of the project swapped for a link: not followed out of the project.
        let elsewhere = dir.path().join("elsewhere");
        std::fs::create_dir_all(&elsewhere).unwrap_or_else(|e| panic!("{e}"));
        std::fs::rename(project.join("sub/.git/hooks"), dir.path().join("hooks-moved"))
            .unwrap_or_else(|e| panic!("{e}"));
        std::os::unix::fs::symlink(&elsewhere, project.join("sub/.git/hooks"))
            .unwrap_or_else(|e| panic!("{e}"));
        let linked = restore(&project, Path::new("sub/.git/hooks/pre-commit"), &storage, &hook);
        assert!(linked.is_err_and(|e| e.contains("without following a link")));
        assert!(!elsewhere.join("pre-commit").exists(), "put back through the link");
        // The aside folder swapped for a link: nothing is taken from where it points.
        std::fs::remove_file(project.join("sub/.git/hooks")).unwrap_or_else(|e| panic!("{e}"));
        std::fs::rename(dir.path().join("hooks-moved"), project.join("sub/.git/hooks"))
            .unwrap_or_else(|e| panic!("{e}"));
        std::fs::rename(storage.join(ASIDE_DIR), storage.join("kept")).unwrap_or_else(|e| panic!("{e}"));
        std::os::unix::fs::symlink(storage.join("kept"), storage.join(ASIDE_DIR))
            .unwrap_or_else(|e| panic!("{e}"));
        let followed = restore(&project, Path::new("sub/.git/hooks/pre-commit"), &storage, &hook);
        assert!(followed.is_err_and(|e| e.contains("cannot open what Warden moved aside")));
    }
}

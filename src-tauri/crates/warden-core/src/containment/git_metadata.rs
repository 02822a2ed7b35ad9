//! What of a project's git metadata the box keeps out of a command's hands: everything that makes
//! git run code later, outside the box — the config (fsmonitor, pager, editor, sshCommand,
//! aliases, filters and drivers), the hooks and the folder `core.hooksPath` names (husky keeps its
//! runner in a git-ignored `.husky/_`), `commondir` and `info/`, linked worktrees' and submodules'
//! own config and hooks — read-only, and the `.git` entry itself pinned where it is (bound onto
//! itself: a mount point cannot be renamed or replaced, so `mv .git .git-orig && mkdir .git` with
//! new hooks fails). The rest of `.git` (objects, refs, the index, lock files) stays writable, so
//! status, add, commit, branch, checkout and stash work in the box.
//!
//! What a command creates that was not there when the box was drawn is found after the call: a
//! `commondir` in `.git` ([`sweep`]), a repository (`super::git_repositories`).

use std::path::{Path, PathBuf};

use super::{git_aside, git_config};

/// Folders and files under `.git` that make git run code, when they exist.
const CODE_RUNNING: &[&str] = &["config", "hooks", "commondir", "info", "worktrees"];

/// What to pin and what to keep read-only for `project`.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct GitGuard {
    /// Bound onto themselves (cannot be renamed or replaced): the `.git` folder.
    pub pinned: Vec<PathBuf>,
    /// Read-only: the code-running parts, a gitfile, the hooks folder of `core.hooksPath`.
    pub read_only: Vec<PathBuf>,
}

pub fn guard(project: &Path) -> GitGuard {
    let mut guard = GitGuard::default();
    let link = project.join(".git");
    let Ok(meta) = std::fs::symlink_metadata(&link) else { return guard };
    if meta.is_file() {
        // A gitfile (`gitdir: …`, a linked worktree or a submodule): where git goes.
        push_inside(&mut guard.read_only, &link, project);
        return guard;
    }
    // A folder, or a link to one inside the project (whose parts are guarded where they are; the
    // link itself cannot be pinned).
    let mut found = Vec::new();
    push_inside(&mut found, &link, project);
    let Some(dot_git) = found.pop().filter(|real| real.is_dir()) else { return guard };
    if meta.is_dir() {
        guard.pinned.push(dot_git.clone());
    }
    let mut read_only = |path: PathBuf| push_inside(&mut guard.read_only, &path, project);
    for name in CODE_RUNNING {
        read_only(dot_git.join(name));
    }
    // Each submodule's repository is a repository of its own, with its own config and hooks.
    if let Ok(modules) = std::fs::read_dir(dot_git.join("modules")) {
        for module in modules.flatten() {
            for name in ["config", "hooks", "info"] {
                read_only(module.path().join(name));
            }
        }
    }
    if let Some(hooks) = hooks_path(&dot_git.join("config"), project) {
        read_only(hooks);
    }
    guard.read_only.sort();
    guard.read_only.dedup();
    guard
}

/// `path` as it really is (links followed), when it exists strictly inside `project`: only there
/// can a command write it, and a place outside (a link to the home's `.ssh`, a `core.hooksPath`
/// naming `/`) is the project's choice, not one the box may mount.
fn push_inside(out: &mut Vec<PathBuf>, path: &Path, project: &Path) {
    let Ok(real) = std::fs::canonicalize(path) else { return };
    let project = std::fs::canonicalize(project).unwrap_or_else(|_| project.to_path_buf());
    if real != project && real.starts_with(&project) {
        out.push(real);
    }
}

/// The folder `core.hooksPath` names in the repository's config (its last setting), resolved as
/// git does for a working tree: relative to its root, `~/` from the home.
fn hooks_path(config: &Path, project: &Path) -> Option<PathBuf> {
    let value = hooks_path_value(&std::fs::read_to_string(config).ok()?)?;
    match value.strip_prefix("~/") {
        Some(rest) => Some(dirs::home_dir()?.join(rest)),
        None => Some(project.join(value)),
    }
}

/// The value of `core.hooksPath` in a config's `text` (the last one set), as written.
pub(super) fn hooks_path_value(text: &str) -> Option<String> {
    git_config::lines(text)
        .into_iter()
        .rev()
        .filter(|line| line.section == "core")
        .filter_map(|line| line.setting)
        .find(|(key, value)| key == "hookspath" && !value.is_empty())
        .map(|(_, value)| value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_code_running_parts_that_exist_are_read_only_and_the_folder_is_pinned() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let p = dir.path();
        for d in [".git/hooks", ".git/info", ".git/objects", ".git/modules/lib/hooks", ".husky/_"] {
            std::fs::create_dir_all(p.join(d)).unwrap_or_else(|e| panic!("{e}"));
        }
        std::fs::write(p.join(".git/config"), "[core]\n\tbare = false\n\thooksPath = .husky/_ ; husky\n")
            .unwrap_or_else(|e| panic!("{e}"));
        let guard = guard(p);
        let real = std::fs::canonicalize(p).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(guard.pinned, [real.join(".git")]);
        for want in [".git/config", ".git/hooks", ".git/info", ".git/modules/lib/hooks", ".husky/_"] {
            assert!(guard.read_only.contains(&real.join(want)), "{want}: {guard:?}");
        }
        assert!(!guard.read_only.contains(&real.join(".git/objects")), "objects stay writable");
        assert!(!guard.read_only.contains(&real.join(".git/commondir")), "only what exists");
    }

    #[test]
    fn a_gitfile_is_read_only_and_no_repository_guards_nothing() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(guard(dir.path()), GitGuard::default());
        std::fs::write(dir.path().join(".git"), "gitdir: ../main/.git/worktrees/x\n")
            .unwrap_or_else(|e| panic!("{e}"));
        let real = std::fs::canonicalize(dir.path()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(guard(dir.path()), GitGuard { pinned: vec![], read_only: vec![real.join(".git")] });
    }

    #[test]
    fn hooks_path_is_read_as_git_writes_it() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let config = dir.path().join("config");
        for (text, want) in [
            ("[core]\n  hooksPath = .husky/_\n", Some(".husky/_")),
            ("[CORE]\nHOOKSPATH=\"githooks\"\n", Some("githooks")),
            ("[core] hooksPath = tools/hooks\n", Some("tools/hooks")),
            ("[user]\n  hooksPath = nope\n[core]\n  editor = vi\n", None),
            ("[core]\n  hooksPath =\n", None),
        ] {
            std::fs::write(&config, text).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(
                hooks_path(&config, Path::new("/p")),
                want.map(|w| Path::new("/p").join(w)),
                "{text:?}"
            );
        }
    }
}

/// Where git looks for the repository's config and hooks when a `.git` folder holds a `commondir`
/// file: only a linked worktree's own folder (`.git/worktrees/<name>/`) has one, never a
/// project's `.git`, so one there was written by a command, and the user's next git command
/// outside the box would take its config (`core.fsmonitor`, hooks…) from wherever it points.
const COMMONDIR: &str = "commondir";
const COMMONDIR_DANGER: &str = "have made git take its config and hooks from another folder";

/// After a boxed call: move aside into `aside` (a folder of Warden's, created when needed) what a
/// command left in the project's `.git` that makes git run code from elsewhere. Returns each
/// path moved and where it went; a file that cannot be moved is logged and left (and said so).
pub fn sweep(project: &Path, aside: &Path) -> Vec<Swept> {
    let Ok(dot_git) = git_aside::open_in_project(project, Path::new(".git")) else { return Vec::new() };
    if dot_git.symlink_metadata(COMMONDIR).is_err() {
        return Vec::new();
    }
    let shown = project.join(".git").join(COMMONDIR);
    vec![git_aside::move_aside(&dot_git, COMMONDIR.as_ref(), &shown, aside, COMMONDIR_DANGER)]
}

/// A path [`sweep`] or [`sweep_new_repositories`] found, and where it went (`None`: it could not
/// be moved).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Swept {
    pub from: PathBuf,
    pub to: Option<PathBuf>,
    /// What it would have done: "make git take its config and hooks from another folder".
    pub danger: &'static str,
}

impl Swept {
    /// Words for the model and the tool block.
    pub fn describe(&self) -> String {
        match &self.to {
            Some(to) => format!(
                "Warden moved {} to {}: it would {}, and run code from there at the next git command \
                 outside the sandbox.",
                self.from.display(),
                to.display(),
                self.danger
            ),
            None => format!(
                "{} would {}, and Warden could not move it aside: remove it before running git.",
                self.from.display(),
                self.danger
            ),
        }
    }
}

#[cfg(test)]
mod sweep_tests {
    use super::*;

    #[test]
    fn a_commondir_in_the_projects_git_is_moved_aside_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let (project, aside) = (dir.path().join("p"), dir.path().join("aside"));
        std::fs::create_dir_all(project.join(".git/worktrees/w")).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(project.join(".git/worktrees/w/commondir"), "../..\n")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(sweep(&project, &aside), [], "a clean repository: nothing");
        std::fs::write(project.join(".git/commondir"), "/tmp/evil\n").unwrap_or_else(|e| panic!("{e}"));
        let swept = sweep(&project, &aside);
        assert_eq!(swept.len(), 1);
        assert!(!project.join(".git/commondir").exists());
        let to = swept[0].to.clone().unwrap_or_else(|| panic!("moved"));
        assert_eq!(std::fs::read_to_string(to).ok().as_deref(), Some("/tmp/evil\n"), "kept, not deleted");
        assert!(project.join(".git/worktrees/w/commondir").exists(), "a linked worktree's own is git's");
        assert!(swept[0].describe().contains("another folder"));
    }
}

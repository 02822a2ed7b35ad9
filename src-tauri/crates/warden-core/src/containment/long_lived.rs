//! Boxes that outlive a call: a background command, a local MCP server. After a boxed call the
//! runner moves aside what makes a repository the call made run code outside the box
//! ([`super::git_repositories`]), and "made by the call" is "not there when the call began". A box
//! that outlives its call breaks that reasoning: a repository made while it runs — by it, by
//! another box, by the user's own `git init` — can be given hooks or a config from it at any
//! moment, and every later call found the repository already there. So while any such box of a
//! project runs, what counts as there before is what was there when the oldest of them started
//! ([`there_before`]); and when the last one ends, what it may have left is looked at once more
//! (the guard's drop), since no call may follow.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use super::git_snapshot::GitSnapshot;
use super::{git_metadata, git_repositories, git_snapshot};

/// Per project: how many of its boxes outlive their call, and the repositories there when the
/// oldest still running started.
struct Mark {
    boxes: usize,
    before: BTreeSet<PathBuf>,
    /// Where the box leaves `.git`'s config and hooks writable (the Landlock fallback): them, as
    /// they were then.
    files: Option<GitSnapshot>,
}

static MARKS: Mutex<BTreeMap<PathBuf, Mark>> = Mutex::new(BTreeMap::new());

/// Held for as long as a box that outlives its call runs in `project`; dropped once its processes
/// are gone.
#[derive(Debug)]
pub struct LongLived {
    project: PathBuf,
    /// Where what is moved aside goes (the project's Warden storage).
    aside: PathBuf,
}

/// Mark that a box outliving its call is about to start in `project` (take it before the box
/// starts, so that nothing it writes is counted as there before).
pub fn start(project: &Path, aside: &Path) -> LongLived {
    let mut marks = MARKS.lock().unwrap_or_else(PoisonError::into_inner);
    match marks.get_mut(project) {
        Some(mark) => mark.boxes += 1,
        None => {
            let before = git_repositories::repositories(project);
            let files =
                super::mechanism().leaves_git_writable().then(|| git_snapshot::take(project)).flatten();
            marks.insert(project.to_path_buf(), Mark { boxes: 1, before, files });
        }
    }
    LongLived { project: project.to_path_buf(), aside: aside.to_path_buf() }
}

/// Of `before` (the repositories when a call began), those that were also there when the oldest
/// box of the project still running started: what the call's sweep may leave alone.
pub fn there_before(project: &Path, before: BTreeSet<PathBuf>) -> BTreeSet<PathBuf> {
    let marks = MARKS.lock().unwrap_or_else(PoisonError::into_inner);
    match marks.get(project) {
        Some(mark) => before.intersection(&mark.before).cloned().collect(),
        None => before,
    }
}

/// The project's `.git` config and hooks as they were when the oldest box of the project still
/// running started, where the box leaves them writable: what a call puts back instead of its own
/// view, which may already hold what such a box wrote.
pub fn files_before(project: &Path) -> Option<GitSnapshot> {
    let marks = MARKS.lock().unwrap_or_else(PoisonError::into_inner);
    marks.get(project)?.files.clone()
}

impl Drop for LongLived {
    fn drop(&mut self) {
        let mut marks = MARKS.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(mark) = marks.get_mut(&self.project) else { return };
        mark.boxes = mark.boxes.saturating_sub(1);
        if mark.boxes > 0 {
            return;
        }
        let Some(mark) = marks.remove(&self.project) else { return };
        drop(marks);
        let mut swept = git_metadata::sweep(&self.project, &self.aside);
        swept.extend(git_repositories::sweep_new(&self.project, &mark.before, &self.aside));
        if let Some(files) = &mark.files {
            swept.extend(files.restore(&self.project, &self.aside));
        }
        for swept in swept {
            tracing::warn!(what = %swept.describe(), "after the last box that outlived its call ended");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repository_with_hook(dir: &Path) {
        std::fs::create_dir_all(dir.join(".git/hooks")).unwrap();
        std::fs::create_dir_all(dir.join(".git/objects")).unwrap();
        std::fs::create_dir_all(dir.join(".git/refs")).unwrap();
        std::fs::write(dir.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
        std::fs::write(dir.join(".git/hooks/pre-commit"), "#!/bin/sh\ntouch HOOKED\n").unwrap();
    }

    #[test]
    fn a_repository_made_while_a_box_outlives_its_call_is_new_until_the_last_such_box_ends() {
        let root = tempfile::tempdir().unwrap();
        let project = root.path().join("project");
        let aside = root.path().join("aside");
        std::fs::create_dir_all(&project).unwrap();
        repository_with_hook(&project.join("old"));

        let first = start(&project, &aside);
        let second = start(&project, &aside);
        repository_with_hook(&project.join("new"));
        // A call that began after the repository was made: it is not "there before".
        let before = git_repositories::repositories(&project);
        assert_eq!(before.len(), 2);
        let kept = there_before(&project, before);
        assert_eq!(kept.into_iter().collect::<Vec<_>>(), [project.join("old/.git")]);

        drop(first);
        assert!(project.join("new/.git/hooks/pre-commit").exists(), "a box still runs: no sweep yet");
        drop(second);
        assert!(!project.join("new/.git/hooks/pre-commit").exists(), "the last box's end sweeps");
        assert!(project.join("old/.git/hooks/pre-commit").exists(), "what was there before is the user's");
        // With no such box, a call's own view stands.
        let before = git_repositories::repositories(&project);
        assert_eq!(there_before(&project, before.clone()), before);
    }
}

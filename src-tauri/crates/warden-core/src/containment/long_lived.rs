//! Boxes that outlive a call: a background command, a local MCP server. After a boxed call the
//! runner moves aside what makes a repository the call made run code outside the box
//! ([`super::git_repositories`]), and "made by the call" is "not there when the call began". A box
//! that outlives its call breaks that reasoning: a repository made while it runs — by it, by
//! another box, by the user's own `git init` — can be given hooks or a config from it at any
//! moment, and every later call found the repository already there. So while any such box of a
//! project runs, what counts as there before is what was there when the oldest of them started
//! ([`since_oldest`]); and when the last one ends, what it may have left is looked at once more
//! (the guard's drop), since no call may follow.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use super::git_before::GitBefore;

/// Per project: how many of its boxes outlive their call, and its git metadata when the oldest
/// still running started.
struct Mark {
    boxes: usize,
    before: GitBefore,
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
    let marks = || MARKS.lock().unwrap_or_else(PoisonError::into_inner);
    let joined = marks().get_mut(project).map(|mark| mark.boxes += 1).is_some();
    if !joined {
        // Walked without holding every project's marks: the first such box of this project.
        let before = GitBefore::now(project);
        marks().entry(project.to_path_buf()).or_insert(Mark { boxes: 0, before }).boxes += 1;
    }
    LongLived { project: project.to_path_buf(), aside: aside.to_path_buf() }
}

/// `before` (a call's view of the project's git metadata when it began), less what was not there
/// yet when the oldest box of the project still running started: what the call's sweep takes as
/// there before.
pub fn since_oldest(project: &Path, before: GitBefore) -> GitBefore {
    let marks = MARKS.lock().unwrap_or_else(PoisonError::into_inner);
    match marks.get(project) {
        Some(mark) => before.and(&mark.before),
        None => before,
    }
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
        for swept in mark.before.sweep(&self.project, &self.aside) {
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
        let before = GitBefore::now(&project);
        assert_eq!(before.repositories().len(), 2);
        let kept = since_oldest(&project, before);
        assert_eq!(kept.repositories().iter().cloned().collect::<Vec<_>>(), [project.join("old/.git")]);

        drop(first);
        assert!(project.join("new/.git/hooks/pre-commit").exists(), "a box still runs: no sweep yet");
        drop(second);
        assert!(!project.join("new/.git/hooks/pre-commit").exists(), "the last box's end sweeps");
        assert!(project.join("old/.git/hooks/pre-commit").exists(), "what was there before is the user's");
        // With no such box, a call's own view stands.
        let before = GitBefore::now(&project);
        assert_eq!(since_oldest(&project, before.clone()).repositories(), before.repositories());
    }
}

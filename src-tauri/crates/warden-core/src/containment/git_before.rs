//! The project's git metadata before boxes ran, and the sweep against it: what a boxed process left
//! that would make git run code outside the box — a `commondir` in the project's `.git`
//! ([`git_metadata::sweep`]), a repository made since ([`git_repositories::sweep_new`]), and, where
//! the box leaves `.git`'s config and hooks writable (the Landlock fallback), what changed of them
//! ([`git_snapshot`]) — is moved into Warden's storage (and put back as it was, for the latter).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::git_metadata::{self, Swept};
use super::git_repositories;
use super::git_snapshot::{self, GitSnapshot};

/// The project's repositories (and, where the box leaves them writable, `.git`'s code-running
/// files) at one moment.
#[derive(Debug, Clone)]
pub struct GitBefore {
    taken: Instant,
    repositories: BTreeSet<PathBuf>,
    files: Option<GitSnapshot>,
}

impl GitBefore {
    /// `project`'s git metadata now, as much of it as this machine's box needs kept.
    pub fn now(project: &Path) -> Self {
        let files = super::mechanism().leaves_git_writable().then(|| git_snapshot::take(project)).flatten();
        Self { taken: Instant::now(), repositories: git_repositories::repositories(project), files }
    }

    /// What was there at both moments: the repositories in both, the files as the older saw them.
    pub(super) fn and(self, other: &GitBefore) -> Self {
        let older = if other.taken < self.taken { other } else { &self };
        let files = older.files.clone();
        let taken = older.taken;
        let repositories = self.repositories.intersection(&other.repositories).cloned().collect();
        Self { taken, repositories, files }
    }

    #[cfg(test)]
    pub(super) fn repositories(&self) -> &BTreeSet<PathBuf> {
        &self.repositories
    }

    /// Move aside what boxes left in `project`'s git metadata since this moment; `aside` is the
    /// project's folder of Warden's for it.
    pub fn sweep(&self, project: &Path, aside: &Path) -> Vec<Swept> {
        let mut swept = git_metadata::sweep(project, aside);
        swept.extend(git_repositories::sweep_new(project, &self.repositories, aside));
        if let Some(files) = &self.files {
            swept.extend(files.restore(project, aside));
        }
        swept
    }
}

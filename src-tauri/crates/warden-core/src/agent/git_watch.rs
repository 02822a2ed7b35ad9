//! Repositories made while a session's background commands run.
//!
//! After a boxed call, the runner moves aside what would make git run code outside the box in a
//! repository the call made (`containment::sweep_new_git_repositories`), and "made by the call" is
//! "not there when the call began". A background command's box outlives its call, and with it that
//! reasoning: a repository made after its start's sweep — by it, by another box, by the user — can
//! be given hooks from that box at any moment, and every later call found the repository already
//! there. So while any background command of the session runs, what counts as there before is what
//! was there before the oldest of them started; the mark goes once none runs, and the session's
//! end (its background commands killed first) sweeps once more.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use crate::containment::{self, Swept};
use crate::tool::BackgroundProcesses;

#[derive(Debug)]
pub(crate) struct GitWatch {
    project: PathBuf,
    /// Where what is moved aside goes (in Warden's storage for the project).
    aside: PathBuf,
    processes: Arc<BackgroundProcesses>,
    /// The repositories there before the oldest background command still running started.
    mark: Mutex<Option<BTreeSet<PathBuf>>>,
}

impl GitWatch {
    pub fn new(project: PathBuf, aside: PathBuf, processes: Arc<BackgroundProcesses>) -> Self {
        Self { project, aside, processes, mark: Mutex::new(None) }
    }

    /// Sweep the project after a boxed call that began with `before` (the repositories then):
    /// what makes git run code, in the project's `.git` and in every repository made since the
    /// call began — or since the oldest background command still running began.
    pub fn call_ended(&self, before: BTreeSet<PathBuf>) -> Vec<Swept> {
        let mut mark = self.mark.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let there_before = match &*mark {
            Some(mark) => before.intersection(mark).cloned().collect(),
            None => before.clone(),
        };
        let swept = self.sweep(&there_before);
        let running = !self.processes.running().is_empty();
        *mark = if running { Some(mark.take().unwrap_or(before)) } else { None };
        swept
    }

    fn sweep(&self, before: &BTreeSet<PathBuf>) -> Vec<Swept> {
        let mut swept = containment::sweep_git_metadata(&self.project, &self.aside);
        swept.extend(containment::sweep_new_git_repositories(&self.project, before, &self.aside));
        swept
    }
}

impl Drop for GitWatch {
    fn drop(&mut self) {
        let mark = self.mark.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner).take();
        let Some(mark) = mark else { return };
        // Nothing may write after the last look.
        self.processes.kill_all();
        for swept in self.sweep(&mark) {
            tracing::warn!(what = %swept.describe(), "at the session's end");
        }
    }
}

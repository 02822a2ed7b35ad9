//! The checkpoint store of each project, shared by the sessions that work in it and by the
//! window's commands (list, compare, restore): one watcher and one first look at every file per
//! project in a process, however many conversations are open.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Weak};

use super::sessions::chosen_project;
use super::{Engine, SetupError};
use warden_protocol::Message;

use crate::checkpoint::CheckpointStore;
use crate::sandbox::Workspace;
use crate::scope::Scope;

/// The stores open in this process, by project; a store lives while a session (or a command)
/// holds it.
#[derive(Default)]
pub(super) struct OpenStores(Mutex<HashMap<PathBuf, Weak<CheckpointStore>>>);

impl std::fmt::Debug for OpenStores {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OpenStores")
    }
}

impl OpenStores {
    fn get(&self, project: &Path) -> Option<Arc<CheckpointStore>> {
        let mut open = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        open.retain(|_, store| store.strong_count() > 0);
        open.get(project).and_then(Weak::upgrade)
    }

    /// Keep `store` for `project`, unless another was kept meanwhile: then that one is returned.
    fn keep(&self, project: &Path, store: CheckpointStore) -> Arc<CheckpointStore> {
        let mut open = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(kept) = open.get(project).and_then(Weak::upgrade) {
            return kept;
        }
        let store = Arc::new(store);
        open.insert(project.to_path_buf(), Arc::downgrade(&store));
        store
    }
}

impl Engine {
    /// The project sessions start in now: the settings' folder (the user's home when none is
    /// chosen), canonical, refused when it and Warden's home overlap.
    pub fn current_project(&self) -> Result<PathBuf, SetupError> {
        self.project_outside_home(&chosen_project(&self.settings()))
    }

    /// The checkpoint store of [`Engine::current_project`] (opened, and made, when needed).
    /// Blocking: it may run git. Opened whether or not checkpoints are on for the project, so the
    /// ones taken while they were on can still be looked at and restored.
    pub fn open_checkpoints(&self) -> Result<Arc<CheckpointStore>, SetupError> {
        let project = self.current_project()?;
        self.project_checkpoints(&project)
    }

    /// `history` of conversation `id` with what each call changed, for results saved before
    /// results kept their report: read from the current project's checkpoint log, so that a
    /// reopened conversation shows each call's and each turn's changes as the live one did, from
    /// one answer. Blocking (it may run git); left as it is when the log cannot be read.
    pub fn with_call_changes(&self, id: &str, mut history: Vec<Message>) -> Vec<Message> {
        let wanted = crate::checkpoint::results_without_changes(&history);
        if wanted.is_empty() {
            return history;
        }
        let known = self
            .open_checkpoints()
            .map_err(|e| e.to_string())
            .and_then(|store| store.call_changes(id, &wanted).map_err(|e| e.to_string()));
        match known {
            Ok(known) => crate::checkpoint::fill_call_changes(&mut history, &known),
            Err(error) => {
                tracing::warn!(%error, "what a saved conversation's calls changed could not be read")
            }
        }
        history
    }

    /// The user's stop of the look at `project` (canonical) its sessions' store is taking now
    /// ([`CheckpointStore::stop_scanning`]); `false` when no store of it is open here.
    pub fn stop_checkpoint_scan(&self, project: &Path) -> bool {
        self.open_store(project).map(|store| store.stop_scanning()).is_some()
    }

    /// The checkpoint store of `project` (canonical), the one every session of it shares.
    /// Blocking when it is not open yet: opening runs git.
    pub fn project_checkpoints(&self, project: &Path) -> Result<Arc<CheckpointStore>, SetupError> {
        if let Some(store) = self.checkpoint_stores.get(project) {
            return Ok(store);
        }
        let (dir, workspace) = self.store_parts(project)?;
        Ok(self.keep_store(project, CheckpointStore::open(&dir, workspace)?))
    }

    /// The store of `project` if a session or command holds it open now.
    pub(super) fn open_store(&self, project: &Path) -> Option<Arc<CheckpointStore>> {
        self.checkpoint_stores.get(project)
    }

    /// What opening the store of `project` takes: its folder and a read-only view of the project
    /// (only the project root matters to the store — what it reads, where it writes back; a
    /// restore is the user's own act, not the agent's, so no scope narrows it).
    pub(super) fn store_parts(&self, project: &Path) -> Result<(PathBuf, Arc<Workspace>), SetupError> {
        let workspace = Workspace::new(project, self.home.project_dir(project), Scope::read_only())?;
        Ok((self.home.checkpoints_dir(project), Arc::new(workspace)))
    }

    /// Share `store` as the store of `project` (or the one another opener kept first).
    pub(super) fn keep_store(&self, project: &Path, store: CheckpointStore) -> Arc<CheckpointStore> {
        self.checkpoint_stores.keep(project, store)
    }
}

//! The checkpoint store of the project the window works in, for its commands (list, compare,
//! restore): the same project folder and the same store a session of that project uses.

use std::path::PathBuf;
use std::sync::Arc;

use super::sessions::chosen_project;
use super::{Engine, SetupError};
use crate::checkpoint::CheckpointStore;
use crate::sandbox::Workspace;
use crate::scope::Scope;

impl Engine {
    /// The project sessions start in now: the settings' folder (the user's home when none is
    /// chosen), canonical, refused when it and Warden's home overlap.
    pub fn current_project(&self) -> Result<PathBuf, SetupError> {
        self.project_outside_home(&chosen_project(&self.settings()))
    }

    /// Open (making it when needed) the checkpoint store of [`Engine::current_project`]. Blocking:
    /// it runs git. Opened whether or not checkpoints are on for the project, so the ones taken
    /// while they were on can still be looked at and restored.
    pub fn open_checkpoints(&self) -> Result<CheckpointStore, SetupError> {
        let project = self.current_project()?;
        // Only the project root matters to the store (what it reads, where it writes back); a
        // restore is the user's own act, not the agent's, so no scope narrows it.
        let workspace = Workspace::new(&project, self.home.project_dir(&project), Scope::read_only())?;
        Ok(CheckpointStore::open(&self.home.checkpoints_dir(&project), Arc::new(workspace))?)
    }
}

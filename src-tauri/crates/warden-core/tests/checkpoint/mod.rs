//! The checkpoint store on its own: what its watcher says agrees with looking at every file, the
//! retention policy, diffs of one file.

mod hostile;
mod nested;
mod patch;
mod retention;
mod stopped;
mod watcher;

use std::path::Path;
use std::sync::Arc;

use tempfile::TempDir;
use warden_core::checkpoint::CheckpointStore;
use warden_core::sandbox::Workspace;
use warden_core::scope::Scope;

/// A store named `name` in `home` for `project`.
fn open_store(project: &Path, home: &Path, name: &str) -> CheckpointStore {
    let workspace = Workspace::new(project, home.join("storage"), Scope::read_only()).unwrap();
    CheckpointStore::open(&home.join(name), Arc::new(workspace)).unwrap()
}

/// A project folder, a home folder, and a store for them.
fn temp_store() -> (TempDir, TempDir, CheckpointStore) {
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let store = open_store(project.path(), home.path(), "store");
    (project, home, store)
}

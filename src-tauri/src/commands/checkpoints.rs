//! `checkpoint_list`, `checkpoint_changes`, `checkpoint_patch`, `checkpoint_restore`: the
//! checkpoints Warden took of the current project before each change, what changed between two
//! of them (or one and now), and putting files back. The store is the one sessions of the project
//! use (`Engine::open_checkpoints`), opened on the blocking pool for each command: it runs git.

use std::sync::Arc;

use tauri::State;
use warden_core::checkpoint::{CheckpointError, CheckpointStore};
use warden_core::setup::Engine;
use warden_protocol::{CheckpointInfo, FileChange, RestoreReport};

use crate::error::{CommandError, CommandResult};
use crate::state::AppState;

/// Runs `work` on the current project's store, off the async threads.
async fn with_store<T: Send + 'static>(
    engine: Arc<Engine>,
    work: impl FnOnce(&CheckpointStore) -> Result<T, CheckpointError> + Send + 'static,
) -> CommandResult<T> {
    tauri::async_runtime::spawn_blocking(move || {
        let store = engine.open_checkpoints()?;
        Ok(work(&store)?)
    })
    .await
    .map_err(|error| CommandError::internal(format!("Checkpoints failed: {error}")))?
}

/// The project's checkpoints, oldest first; of one conversation when `conversation_id` is given.
#[tauri::command]
#[specta::specta]
pub async fn checkpoint_list(
    state: State<'_, AppState>,
    conversation_id: Option<String>,
) -> CommandResult<Vec<CheckpointInfo>> {
    with_store(state.engine.clone(), move |store| store.list(conversation_id.as_deref())).await
}

/// The files that differ between checkpoint `from_id` and checkpoint `to_id` (the project as it
/// is now when `to_id` is not given).
#[tauri::command]
#[specta::specta]
pub async fn checkpoint_changes(
    state: State<'_, AppState>,
    from_id: String,
    to_id: Option<String>,
) -> CommandResult<Vec<FileChange>> {
    with_store(state.engine.clone(), move |store| store.changes(&from_id, to_id.as_deref())).await
}

/// The unified diff between two checkpoints (or one and now), of one file when `path` is given.
#[tauri::command]
#[specta::specta]
pub async fn checkpoint_patch(
    state: State<'_, AppState>,
    from_id: String,
    to_id: Option<String>,
    path: Option<String>,
) -> CommandResult<String> {
    with_store(state.engine.clone(), move |store| store.patch(&from_id, to_id.as_deref(), path.as_deref()))
        .await
}

/// Puts the project (or only `paths`, relative to the project root) back as checkpoint `id`
/// recorded it. Refused with `TURN_RUNNING` while a turn runs in the project, and with
/// `CHANGED_OUTSIDE` (the files in `paths`) when it would overwrite files changed outside Warden
/// since its last checkpoint, unless `force`. The report's `undoCheckpointId` undoes the restore.
#[tauri::command]
#[specta::specta]
pub async fn checkpoint_restore(
    state: State<'_, AppState>,
    id: String,
    paths: Vec<String>,
    force: bool,
) -> CommandResult<RestoreReport> {
    // A turn that has just ended may hold the project a moment longer: the store waits for that.
    with_store(state.engine.clone(), move |store| store.restore(&id, &paths, force)).await
}

//! `checkpoint_list`, `checkpoint_stop_scan`, `checkpoint_changes`, `checkpoint_patch`, `checkpoint_restore_plan`,
//! `checkpoint_restore`: the checkpoints Warden took of the current project before each change,
//! what changed between two of them (or one and now), and putting files back. The store is the one
//! sessions of the project use (`Engine::open_checkpoints`), opened on the blocking pool for each
//! command: it runs git.

use tauri::State;
use warden_protocol::{CheckpointInfo, FileChange, RestorePlan, RestoreReport};

use crate::error::CommandResult;
use crate::restore::on_store as with_store;
use crate::state::AppState;

/// The project's checkpoints, oldest first; of one conversation when `conversation_id` is given.
#[tauri::command]
#[specta::specta]
pub async fn checkpoint_list(
    state: State<'_, AppState>,
    conversation_id: Option<String>,
) -> CommandResult<Vec<CheckpointInfo>> {
    with_store(state.engine.clone(), move |store| store.list(conversation_id.as_deref())).await
}

/// Stop Warden's look at the project's files (the first one can be long in a large folder that is
/// not a git repository): no checkpoint is taken in this project until it is opened again, and
/// each call that changes files asks first. Over a remote project's conversation
/// (`conversation_id`), the look its session takes there.
#[tauri::command]
#[specta::specta]
pub async fn checkpoint_stop_scan(
    state: State<'_, AppState>,
    conversation_id: Option<String>,
) -> CommandResult<()> {
    if let Some(remote) = state.remote(conversation_id.as_deref()).await {
        return remote.stop_scan().await;
    }
    with_store(state.engine.clone(), |store| {
        store.stop_scanning();
        Ok(())
    })
    .await
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
/// For a remote project's conversation (`conversation_id`), read there, over the link.
#[tauri::command]
#[specta::specta]
pub async fn checkpoint_patch(
    state: State<'_, AppState>,
    conversation_id: Option<String>,
    from_id: String,
    to_id: Option<String>,
    path: Option<String>,
) -> CommandResult<String> {
    if let Some(remote) = state.remote(conversation_id.as_deref()).await {
        return remote.checkpoint_patch(from_id, to_id, path).await;
    }
    with_store(state.engine.clone(), move |store| store.patch(&from_id, to_id.as_deref(), path.as_deref()))
        .await
}

/// What restoring `paths` (all files when empty) of checkpoint `id` would do now: the files it
/// would change, create and delete, and the background commands and MCP servers running in the
/// project that it would stop first. Shown to the user before `checkpoint_restore`. For a remote
/// project's conversation (`conversation_id`), asked there (its session's background commands).
#[tauri::command]
#[specta::specta]
pub async fn checkpoint_restore_plan(
    state: State<'_, AppState>,
    conversation_id: Option<String>,
    id: String,
    paths: Vec<String>,
) -> CommandResult<RestorePlan> {
    if let Some(remote) = state.remote(conversation_id.as_deref()).await {
        return remote.restore_plan(id, paths).await;
    }
    state.restore_plan(id, paths).await
}

/// For a remote project's conversation (`conversation_id`), done there, over the link.
/// Puts the project (or only `paths`, relative to the project root) back as checkpoint `id`
/// recorded it, after stopping what runs in the project when `stop_running` (the user agreed to
/// the plan). Refused with `TURN_RUNNING` while a turn runs in the project (or a session of it is
/// open in another Warden), and with `CHANGED_OUTSIDE` (the files in `paths`) when it would
/// overwrite files changed outside Warden since its last checkpoint, unless `force`. The
/// report's `undoCheckpointId` undoes the restore.
#[tauri::command]
#[specta::specta]
pub async fn checkpoint_restore(
    state: State<'_, AppState>,
    conversation_id: Option<String>,
    id: String,
    paths: Vec<String>,
    force: bool,
    stop_running: bool,
) -> CommandResult<RestoreReport> {
    if let Some(remote) = state.remote(conversation_id.as_deref()).await {
        return remote.restore(id, paths, force, stop_running).await;
    }
    state.restore(id, paths, force, stop_running).await
}

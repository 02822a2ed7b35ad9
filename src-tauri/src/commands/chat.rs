//! `chat_send`, `chat_cancel`, `chat_history`, `chat_history_read_only`, `chat_message_stamps`,
//! `chat_compact`, `chat_compaction`.

use tauri::State;
use warden_protocol::{CompactionInfo, Message, MessageStamp, ReadOnlyHistory, ToolImage};

use super::off_thread;
use crate::error::CommandResult;
use crate::state::AppState;

/// Sends a user message, with images when given (base64 PNG, JPEG, GIF or WebP; checked and
/// scaled down by the engine, refused with `INVALID_INPUT` when not an image); the answer arrives
/// as `chat:*` events.
#[tauri::command]
#[specta::specta]
pub async fn chat_send(
    state: State<'_, AppState>,
    conversation_id: String,
    content: String,
    images: Option<Vec<ToolImage>>,
    plan: Option<bool>,
    approved_plan: Option<Vec<String>>,
) -> CommandResult<()> {
    let send = warden_protocol::ChatSend {
        conversation_id,
        content,
        images: images.unwrap_or_default(),
        plan: plan.unwrap_or(false),
        approved_plan: approved_plan.unwrap_or_default(),
    };
    state.send_as(send).await
}

/// Stops the conversation's running turn (a no-op when nothing runs).
#[tauri::command]
#[specta::specta]
pub async fn chat_cancel(state: State<'_, AppState>, conversation_id: String) -> CommandResult<()> {
    state.cancel(conversation_id).await
}

/// The conversation so far (empty before its first message). Fails with
/// `CONVERSATION_UNREADABLE` when the saved conversation cannot be read whole: the window then
/// shows it read-only (`chat_history_read_only`).
#[tauri::command]
#[specta::specta]
pub async fn chat_history(
    state: State<'_, AppState>,
    conversation_id: String,
) -> CommandResult<Vec<Message>> {
    state.history(&conversation_id).await
}

/// What can be read of a saved conversation that cannot be read whole, to show it read-only:
/// every message read, one that could not be marked in its place, and why. A remote project's
/// conversation is read there.
#[tauri::command]
#[specta::specta]
pub async fn chat_history_read_only(
    state: State<'_, AppState>,
    conversation_id: String,
) -> CommandResult<ReadOnlyHistory> {
    state.read_only_history(&conversation_id).await
}

/// When each saved message of the conversation was written and which model wrote each answer, in
/// the order of `chat_history` (empty for a conversation that is not saved). A remote project's
/// conversation is read there.
#[tauri::command]
#[specta::specta]
pub async fn chat_message_stamps(
    state: State<'_, AppState>,
    conversation_id: String,
) -> CommandResult<Vec<MessageStamp>> {
    state.stamps(&conversation_id).await
}

/// "Compact now": summarizes the conversation's older part in what the model is sent from now on
/// (`chat:compacted` says what it did). Refused while it is answering.
#[tauri::command]
#[specta::specta]
pub async fn chat_compact(state: State<'_, AppState>, conversation_id: String) -> CommandResult<()> {
    state.compact(&conversation_id).await
}

/// Where the conversation was last compacted (`None`: never), for the divider in its history.
#[tauri::command]
#[specta::specta]
pub async fn chat_compaction(
    state: State<'_, AppState>,
    conversation_id: String,
) -> CommandResult<Option<CompactionInfo>> {
    if let Some(remote) = state.remote(Some(&conversation_id)).await {
        // Compacted where it runs, and saved there.
        return remote.compaction().await;
    }
    let engine = state.engine.clone();
    Ok(off_thread(move || engine.conversation_compaction(&conversation_id)).await??)
}

//! `chat_list`, `chat_search`, `chat_rename`, `chat_delete`, `chat_restore`, `chat_rewind`: the
//! saved conversations, from the engine's conversation store (the window keeps no list of its own).

use tauri::State;
use warden_protocol::{ConversationHit, ConversationPage};

use super::off_thread;
use crate::error::CommandResult;
use crate::state::AppState;

/// The saved conversations, newest first: `limit` of them (1 to 500) from `offset`.
#[tauri::command]
#[specta::specta]
pub async fn chat_list(
    state: State<'_, AppState>,
    offset: u32,
    limit: u32,
) -> CommandResult<ConversationPage> {
    let engine = state.engine.clone();
    Ok(off_thread(move || engine.list_conversations(offset, limit)).await??)
}

/// The saved conversations holding every word of `query` (the last word as a prefix): those
/// whose title matches first, then the most recently written matches; at most `limit` (1 to 200).
#[tauri::command]
#[specta::specta]
pub async fn chat_search(
    state: State<'_, AppState>,
    query: String,
    limit: u32,
) -> CommandResult<Vec<ConversationHit>> {
    let engine = state.engine.clone();
    Ok(off_thread(move || engine.search_conversations(&query, limit)).await??)
}

/// Names a saved conversation; an empty title names it after its first message again. A remote
/// project's conversation is named there (its project must be linked).
#[tauri::command]
#[specta::specta]
pub async fn chat_rename(
    state: State<'_, AppState>,
    conversation_id: String,
    title: String,
) -> CommandResult<()> {
    state.rename(conversation_id, title).await
}

/// Deletes a conversation (refused while it is answering); `chat_restore` brings it back within a
/// minute. One never saved is no error.
#[tauri::command]
#[specta::specta]
pub async fn chat_delete(state: State<'_, AppState>, conversation_id: String) -> CommandResult<()> {
    state.delete_conversation(&conversation_id).await
}

/// Brings back a conversation deleted moments ago (the window's "Undo").
#[tauri::command]
#[specta::specta]
pub async fn chat_restore(state: State<'_, AppState>, conversation_id: String) -> CommandResult<()> {
    let engine = state.engine.clone();
    Ok(off_thread(move || engine.restore_conversation(&conversation_id)).await??)
}

/// Rewinds a conversation: drops the `userMessageIndex`-th message the user wrote (0-based) and
/// everything after it, leaving the project's files as they are (restoring them is a separate
/// choice). Refused while it is answering. Returns the dropped message's text, to offer again.
#[tauri::command]
#[specta::specta]
pub async fn chat_rewind(
    state: State<'_, AppState>,
    conversation_id: String,
    user_message_index: u32,
) -> CommandResult<String> {
    let n = usize::try_from(user_message_index).unwrap_or(usize::MAX);
    state.rewind(&conversation_id, n).await
}

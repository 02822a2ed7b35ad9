//! `chat_tool_approve`: the answer to a `chat:tool-confirm`.

use tauri::State;
use warden_protocol::Remember;

use crate::error::CommandResult;
use crate::state::AppState;

/// Approves or rejects a pending tool call. Routed to the conversation that asked; an answer for
/// one tool id never releases another.
#[tauri::command]
#[specta::specta]
pub async fn chat_tool_approve(
    state: State<'_, AppState>,
    tool_id: String,
    approved: bool,
    reason: Option<String>,
    remember: Option<Remember>,
) -> CommandResult<()> {
    state.approve(tool_id, approved, reason, remember).await
}

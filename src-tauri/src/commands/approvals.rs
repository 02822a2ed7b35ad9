//! `chat_tool_approve`: the answer to a `chat:tool-confirm`; `chat_grants` and
//! `chat_grant_revoke`: what "Allow for this session" remembered in a conversation.

use tauri::State;
use warden_protocol::{AlwaysRule, Remember, SessionGrant};

use crate::error::CommandResult;
use crate::state::AppState;

/// Approves or rejects a pending tool call: `confirm_id` is the `confirmId` of the
/// `chat:tool-confirm`, `conversation_id` the conversation that asked (the answer goes there and
/// releases that confirmation only).
#[tauri::command]
#[specta::specta]
// The window's answer arrives as named arguments (the generated `approveTool`), one per field.
#[allow(clippy::too_many_arguments)]
pub async fn chat_tool_approve<R: tauri::Runtime>(
    app: tauri::AppHandle<R>,
    state: State<'_, AppState>,
    conversation_id: String,
    confirm_id: String,
    approved: bool,
    reason: Option<String>,
    remember: Option<Remember>,
    always: Option<AlwaysRule>,
) -> CommandResult<()> {
    // Its notification, if one was sent, has nothing left to ask.
    crate::attention::approval_answered(&app, &confirm_id);
    state.approve(conversation_id, confirm_id, approved, reason, remember, always).await
}

/// What "Allow for this session" remembered in a conversation (empty when it is not open).
#[tauri::command]
#[specta::specta]
pub async fn chat_grants(
    state: State<'_, AppState>,
    conversation_id: String,
) -> CommandResult<Vec<SessionGrant>> {
    state.grants(&conversation_id).await
}

/// Revoke one of them: the calls it covered ask again.
#[tauri::command]
#[specta::specta]
pub async fn chat_grant_revoke(
    state: State<'_, AppState>,
    conversation_id: String,
    grant: SessionGrant,
) -> CommandResult<()> {
    state.revoke_grant(&conversation_id, &grant).await
}

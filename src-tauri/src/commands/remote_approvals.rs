//! `remote_project_offers`, `remote_hooks_choose`, `remote_mcp_choose`: a linked remote project's
//! own hooks and `.mcp.json`, read there and approved here by digest. The answer is kept in the
//! settings under the project's `host:/path`; its session there takes it up before the next
//! message.

use tauri::State;
use warden_protocol::RemoteProjectOffers;

use super::remote::linked;
use crate::error::CommandResult;
use crate::state::AppState;

/// The project's own hooks and `.mcp.json` on its machine, as they wait for an answer.
#[tauri::command]
#[specta::specta]
pub async fn remote_project_offers(
    state: State<'_, AppState>,
    conversation_id: String,
) -> CommandResult<RemoteProjectOffers> {
    linked(&state, &conversation_id, "its own hooks and servers").await?.project_offers(&state.engine).await
}

/// Run (`approve`) the remote project's hooks whose digest the user was shown, or stop running
/// them. Refused when the file there now holds other hooks.
#[tauri::command]
#[specta::specta]
pub async fn remote_hooks_choose(
    state: State<'_, AppState>,
    conversation_id: String,
    digest: String,
    approve: bool,
) -> CommandResult<()> {
    let remote = linked(&state, &conversation_id, "its own hooks").await?;
    remote.choose_hooks(&state.engine, &digest, approve).await?;
    state.settings_changed();
    Ok(())
}

/// Use (`approved`) the remote project's `.mcp.json` whose digest the user was shown, or decline
/// it. Refused when the file there changed since, or cannot be used.
#[tauri::command]
#[specta::specta]
pub async fn remote_mcp_choose(
    state: State<'_, AppState>,
    conversation_id: String,
    digest: String,
    approved: bool,
) -> CommandResult<()> {
    let remote = linked(&state, &conversation_id, "its own servers").await?;
    remote.choose_mcp(&state.engine, &digest, approved).await?;
    state.settings_changed();
    Ok(())
}

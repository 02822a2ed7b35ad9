//! What the window shows of a linked remote project's own, read on its machine: its hooks and
//! `.mcp.json` (`remote_project_offers`), approved here by digest (`remote_hooks_choose`,
//! `remote_mcp_choose`: kept in the settings under the project's `host:/path`, taken up by its
//! session there before the next message), the box's notice (`remote_box_notice`), and the skills
//! and commands a conversation there gets (`remote_conventions`).

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

/// The box's notice of the remote project, once (`None`: nothing to say): what of that machine's
/// home its commands no longer see.
#[tauri::command]
#[specta::specta]
pub async fn remote_box_notice(
    state: State<'_, AppState>,
    conversation_id: String,
) -> CommandResult<Option<warden_protocol::BoxHomeNotice>> {
    linked(&state, &conversation_id, "its box").await?.box_notice(&state.engine).await
}

/// The user has read the remote project's box notice: it is not shown again (kept there).
#[tauri::command]
#[specta::specta]
pub async fn remote_box_notice_dismiss(
    state: State<'_, AppState>,
    conversation_id: String,
) -> CommandResult<()> {
    linked(&state, &conversation_id, "its box").await?.dismiss_box_notice().await
}

/// The skills and custom commands a conversation in the remote project gets there (the
/// composer's `/` completion over its conversation).
#[tauri::command]
#[specta::specta]
pub async fn remote_conventions(
    state: State<'_, AppState>,
    conversation_id: String,
) -> CommandResult<warden_protocol::ConventionsInUse> {
    linked(&state, &conversation_id, "its skills and commands").await?.conventions(&state.engine).await
}

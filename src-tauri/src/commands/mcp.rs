//! `mcp_status`, `mcp_parse`: Settings → MCP servers. The servers themselves are part of the
//! settings (`mcpServers`, saved with `settings_set`); these say where each server stands (starting
//! it when it is not running) and read the JSON users paste from other apps.

use std::collections::BTreeMap;

use tauri::State;
use warden_protocol::{McpResourceText, McpServerConfig, McpServerStatus};

use crate::error::{CommandError, CommandErrorCode, CommandResult};
use crate::state::AppState;

/// Every configured server with its state, tools and (for a failed one) the last lines it wrote
/// to stderr; started for the chosen project when not running yet. Servers no longer in the
/// settings are stopped.
#[tauri::command]
#[specta::specta]
pub async fn mcp_status(state: State<'_, AppState>) -> CommandResult<Vec<McpServerStatus>> {
    Ok(state.engine.window_mcp_statuses().await?)
}

/// The servers of a pasted `{"mcpServers": {…}}` document (Claude Desktop, Cursor, codex), checked;
/// Settings adds them to its draft.
#[tauri::command]
#[specta::specta]
pub async fn mcp_parse(json: String) -> CommandResult<BTreeMap<String, McpServerConfig>> {
    warden_core::mcp::parse_servers(&json)
        .map_err(|e| CommandError::new(CommandErrorCode::InvalidInput, e.to_string()))
}

/// Sign in to the HTTP server `name`: its sign-in page opens in the system browser, which comes
/// back to Warden on a loopback address; the tokens go to the keychain. Resolves once signed in
/// (or when the user gave up, after five minutes).
#[tauri::command]
#[specta::specta]
pub async fn mcp_sign_in(state: State<'_, AppState>, name: String) -> CommandResult<()> {
    let authorizer = warden_core::mcp::BrowserAuthorizer::bind(|_| {})
        .await
        .map_err(|e| CommandError::internal(format!("Cannot listen for the sign-in's return: {e}")))?;
    state.engine.mcp_sign_in(&name, &authorizer).await.map_err(mcp_error)
}

/// Forget the sign-in to the HTTP server `name` (its tokens leave the keychain).
#[tauri::command]
#[specta::specta]
pub async fn mcp_sign_out(state: State<'_, AppState>, name: String) -> CommandResult<()> {
    state.engine.mcp_sign_out(&name).await.map_err(mcp_error)
}

/// Read the resource `uri` of the server `name` (started when it is not running), to go with the
/// user's next message: its text, binary parts named, cut at 50,000 characters.
#[tauri::command]
#[specta::specta]
pub async fn mcp_read_resource(
    state: State<'_, AppState>,
    name: String,
    uri: String,
) -> CommandResult<McpResourceText> {
    state.engine.mcp_read_resource(&name, &uri).await.map_err(mcp_error)
}

fn mcp_error(error: warden_core::engine::McpSetupError) -> CommandError {
    use warden_core::engine::McpSetupError as E;
    let code = match &error {
        E::Unknown(_) | E::Config(_) => CommandErrorCode::InvalidInput,
        E::Save(_) => CommandErrorCode::Settings,
        E::SignIn(_) | E::Read(_) => CommandErrorCode::Provider,
    };
    CommandError::new(code, error.to_string())
}

/// The chosen project's own `.mcp.json`, when it has one: its servers and what the user chose for
/// this content (never used before they approve it).
#[tauri::command]
#[specta::specta]
pub async fn mcp_project_offer(
    state: State<'_, AppState>,
) -> CommandResult<Option<warden_protocol::ProjectMcpOffer>> {
    let Some(project) = state.engine.settings().project_dir else { return Ok(None) };
    Ok(state.engine.project_mcp_offer(std::path::Path::new(&project))?)
}

/// Use (or not) the chosen project's `.mcp.json` whose content has `digest` (what the user saw).
#[tauri::command]
#[specta::specta]
pub async fn mcp_project_choose(
    state: State<'_, AppState>,
    digest: String,
    approved: bool,
) -> CommandResult<()> {
    let Some(project) = state.engine.settings().project_dir else {
        return Err(CommandError::new(CommandErrorCode::InvalidInput, "No project folder is chosen."));
    };
    state.engine.choose_project_mcp(std::path::Path::new(&project), &digest, approved)?;
    state.settings_changed();
    Ok(())
}

/// Keep a secret in the keychain for MCP entries that say `keychain:NAME` in `env` or `headers`.
#[tauri::command]
#[specta::specta]
pub async fn mcp_secret_set(state: State<'_, AppState>, name: String, value: String) -> CommandResult<()> {
    state
        .engine
        .keep_mcp_secret(&name, &value)
        .await
        .map_err(|e| CommandError::new(CommandErrorCode::InvalidInput, e.to_string()))
}

/// The user's answer to a form an MCP server asked for (`mcp:elicit`).
#[tauri::command]
#[specta::specta]
pub async fn mcp_elicit_answer(
    state: State<'_, AppState>,
    request_id: String,
    answer: warden_protocol::McpElicitAnswer,
) -> CommandResult<()> {
    if state.elicitor.answer(&request_id, answer) {
        Ok(())
    } else {
        Err(CommandError::new(
            CommandErrorCode::InvalidInput,
            "This form is no longer waiting for an answer.",
        ))
    }
}

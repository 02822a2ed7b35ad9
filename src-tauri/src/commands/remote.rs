//! `remote_open`: a project on another machine (`host:/path`, over ssh or a given command), whose
//! session then takes the same chat commands as any other.

use tauri::{AppHandle, Runtime, State};

use warden_core::remote::{install, RemoteTarget};
use warden_protocol::KnownRemote;

use crate::error::{CommandError, CommandResult};
use crate::remote::RemoteOpened;
use crate::state::AppState;

/// Connects, opens a session there with this window's settings and keys (or, `remote_env_keys`,
/// that machine's own) — a new conversation, or (`resume`) one saved there, whose messages
/// `chat_history` then gives — and says what was
/// opened; the link's state comes as `remote:link` events from then on. The project is
/// remembered, to be listed after a restart (`remote_known`).
#[tauri::command]
#[specta::specta]
pub async fn remote_open<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    target: String,
    transport: Option<String>,
    resume: Option<String>,
    remote_env_keys: bool,
) -> CommandResult<RemoteOpened> {
    let asked = crate::remote::OpenAsked {
        target: &target,
        transport: transport.as_deref(),
        resume: resume.as_deref(),
        remote_env_keys,
    };
    let (opened, status) = state.open_remote(asked).await?;
    tauri::async_runtime::spawn(crate::remote::tell_link_states(app, opened.conversation_id.clone(), status));
    Ok(opened)
}

/// The remote projects opened before, newest first: listed after a restart, each taken up again
/// with `remote_open(…, resume)`.
#[tauri::command]
#[specta::specta]
pub async fn remote_known(state: State<'_, AppState>) -> CommandResult<Vec<KnownRemote>> {
    Ok(warden_core::remote::known::load(state.engine.home()))
}

/// Forget a remote project (the conversation stays saved on its machine).
#[tauri::command]
#[specta::specta]
pub async fn remote_forget(state: State<'_, AppState>, conversation_id: String) -> CommandResult<()> {
    warden_core::remote::known::forget(state.engine.home(), &conversation_id)
        .map_err(|e| CommandError::internal(format!("The list of remote projects cannot be saved: {e}")))
}

/// Settings → Sandbox for a remote project linked in this window (`conversation_id`): the box its
/// commands get on its machine, asked there.
#[tauri::command]
#[specta::specta]
pub async fn remote_sandbox_status(
    state: State<'_, AppState>,
    conversation_id: String,
) -> CommandResult<warden_protocol::SandboxStatus> {
    linked(&state, &conversation_id, "its box").await?.sandbox_status(&state.engine).await
}

/// Settings → MCP servers for a remote project linked in this window (`conversation_id`): the
/// servers its session runs on its machine, in its box, and where each stands, asked there.
#[tauri::command]
#[specta::specta]
pub async fn remote_mcp_status(
    state: State<'_, AppState>,
    conversation_id: String,
) -> CommandResult<Vec<warden_protocol::McpServerStatus>> {
    linked(&state, &conversation_id, "its MCP servers").await?.mcp_status().await
}

/// The composer's "Attach a resource" over a linked remote project's conversation: the resource
/// `uri` of its session's MCP server `name`, read there.
#[tauri::command]
#[specta::specta]
pub async fn remote_mcp_read_resource(
    state: State<'_, AppState>,
    conversation_id: String,
    name: String,
    uri: String,
) -> CommandResult<warden_protocol::McpResourceText> {
    linked(&state, &conversation_id, "its MCP servers' resources").await?.read_resource(name, uri).await
}

/// The conversations saved in a linked remote project (`conversation_id` is the one shown) on its
/// machine, most recently changed first: each is taken up with `remote_open(…, resume)`.
#[tauri::command]
#[specta::specta]
pub async fn remote_conversations(
    state: State<'_, AppState>,
    conversation_id: String,
) -> CommandResult<Vec<warden_protocol::ConversationSummary>> {
    linked(&state, &conversation_id, "the conversations saved there").await?.conversations().await
}

/// The top bar's "Using AGENTS.md" over a linked remote project's conversation: its instruction
/// files, read there (listed, not opened from here), and whether the global instructions are used.
#[tauri::command]
#[specta::specta]
pub async fn remote_instructions_in_use(
    state: State<'_, AppState>,
    conversation_id: String,
) -> CommandResult<warden_protocol::InstructionsInUse> {
    linked(&state, &conversation_id, "its instructions").await?.instructions_in_use(&state.engine).await
}

/// The linked remote project of conversation `conversation_id`, or why `what` cannot be shown.
pub(super) async fn linked(
    state: &AppState,
    conversation_id: &str,
    what: &str,
) -> CommandResult<std::sync::Arc<crate::remote::RemoteHandle>> {
    state.remote(Some(conversation_id)).await.ok_or_else(|| {
        CommandError::invalid_input(format!("This remote project is not linked: link it to see {what}."))
    })
}

/// The user's answer to what ssh asked (`remote:askpass`); `None` refuses (a host key not
/// accepted, a passphrase not given).
#[tauri::command]
#[specta::specta]
pub async fn remote_askpass_answer(
    state: State<'_, AppState>,
    id: String,
    answer: Option<String>,
) -> CommandResult<()> {
    if state.askpass.answer(&id, answer) {
        Ok(())
    } else {
        Err(crate::error::CommandError::invalid_input("This question is no longer waiting for an answer."))
    }
}

/// What copying this Warden to the machine of `target` (`host:/path`, over ssh) would do, in words,
/// after asking the machine what it is; refused in words when this build cannot run there.
#[tauri::command]
#[specta::specta]
pub async fn remote_install_plan(state: State<'_, AppState>, target: String) -> CommandResult<String> {
    let host = host_of(&target)?;
    let asks = crate::remote::askpass_for(&state.askpass, &host)?;
    let plan = install::plan(&host, Some(asks.asks())).await.map_err(cannot_copy)?;
    Ok(plan.describe())
}

/// Copy this Warden to the machine of `target` over ssh (checked again first), so that the
/// project can be opened; the copy's version is checked at the end.
#[tauri::command]
#[specta::specta]
pub async fn remote_install(state: State<'_, AppState>, target: String) -> CommandResult<()> {
    let host = host_of(&target)?;
    let asks = crate::remote::askpass_for(&state.askpass, &host)?;
    let plan = install::plan(&host, Some(asks.asks())).await.map_err(cannot_copy)?;
    plan.copy().await.map_err(cannot_copy)
}

fn host_of(target: &str) -> CommandResult<String> {
    RemoteTarget::parse(target).map(|t| t.host).map_err(CommandError::invalid_input)
}

fn cannot_copy(why: String) -> CommandError {
    CommandError::invalid_input(format!("Warden cannot be copied there: {why}"))
}

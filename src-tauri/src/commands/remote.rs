//! `remote_open`: a project on another machine (`host:/path`, over ssh or a given command), whose
//! session then takes the same chat commands as any other.

use tauri::{AppHandle, Runtime, State};

use crate::error::CommandResult;
use crate::remote::RemoteOpened;
use crate::state::AppState;

/// Connects, opens a session there with this window's settings and keys, and says what was
/// opened; the link's state comes as `remote:link` events from then on.
#[tauri::command]
#[specta::specta]
pub async fn remote_open<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    target: String,
    transport: Option<String>,
) -> CommandResult<RemoteOpened> {
    let (opened, status) = state.open_remote(&target, transport.as_deref()).await?;
    tauri::async_runtime::spawn(crate::remote::tell_link_states(app, opened.conversation_id.clone(), status));
    Ok(opened)
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

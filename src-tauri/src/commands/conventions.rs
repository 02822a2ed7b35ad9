//! `conventions_list`, `skill_switch`: the skills and custom slash commands a conversation started
//! now has (Settings → Skills, the composer's `/` completion), and switching a skill off or on.

use tauri::State;
use warden_protocol::ConventionsInUse;

use crate::error::{CommandError, CommandErrorCode, CommandResult};
use crate::state::AppState;

/// The skills (switched-off ones marked) and commands from Warden's config folder, `~/.agents` and
/// the chosen project, with what was left out and why.
#[tauri::command]
#[specta::specta]
pub async fn conventions_list(state: State<'_, AppState>) -> CommandResult<ConventionsInUse> {
    let engine = state.engine.clone();
    tokio::task::spawn_blocking(move || engine.conventions_in_use())
        .await
        .map_err(|_| CommandError::internal("Could not read the skills and commands."))
}

/// Offer the skill `name` to conversations started from now on (`on`), or stop offering it.
#[tauri::command]
#[specta::specta]
pub async fn skill_switch(state: State<'_, AppState>, name: String, on: bool) -> CommandResult<()> {
    let engine = state.engine.clone();
    tokio::task::spawn_blocking(move || engine.switch_skill(&name, on))
        .await
        .map_err(|_| CommandError::internal("Could not save the settings."))?
        .map_err(|message| CommandError::new(CommandErrorCode::InvalidInput, message))
}

//! `settings_get`, `settings_set`. Settings never hold a secret (keys: see `keys.rs`).

use tauri::State;
use warden_protocol::Settings;

use crate::error::CommandResult;
use crate::state::AppState;

#[tauri::command]
#[specta::specta]
pub async fn settings_get(state: State<'_, AppState>) -> CommandResult<Settings> {
    state.engine.settings()
}

/// Saves the settings; conversations started afterwards use them.
#[tauri::command]
#[specta::specta]
pub async fn settings_set(state: State<'_, AppState>, settings: Settings) -> CommandResult<()> {
    state.save_settings(settings)
}

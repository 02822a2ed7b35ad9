//! `settings_get`, `settings_set`. Settings never hold a secret (keys: see `keys.rs`).

use tauri::State;
use warden_protocol::Settings;

use crate::engine::SettingsIntegrity;
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

/// Whether the settings file is the one Warden wrote. When it is not, its security-relevant fields
/// are ignored and Settings shows why, with [`settings_accept_file`] as the way to accept it.
#[tauri::command]
#[specta::specta]
pub async fn settings_integrity(state: State<'_, AppState>) -> CommandResult<SettingsIntegrity> {
    Ok(state.engine.settings_integrity())
}

/// The user accepts the settings file as it is now (after reading the notice): Warden seals it and
/// uses it, trust level and permissions included.
#[tauri::command]
#[specta::specta]
pub async fn settings_accept_file(state: State<'_, AppState>) -> CommandResult<()> {
    state.accept_settings_file()
}

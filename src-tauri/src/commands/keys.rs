//! `keys_status`, `keys_set`, `keys_delete`: API keys go straight to the OS keychain. The window
//! can write or delete a key, and learn whether one is set — never read one back.

use tauri::State;
use warden_protocol::{KeyName, KeyStatus};

use crate::error::{CommandError, CommandErrorCode, CommandResult};
use crate::state::AppState;

#[tauri::command]
#[specta::specta]
pub async fn keys_status(state: State<'_, AppState>) -> CommandResult<Vec<KeyStatus>> {
    Ok(state.engine.key_status().await)
}

/// Stores a key in the keychain. The value is not returned, logged or kept anywhere else.
#[tauri::command]
#[specta::specta]
pub async fn keys_set(state: State<'_, AppState>, name: KeyName, value: String) -> CommandResult<()> {
    if value.trim().is_empty() {
        return Err(CommandError::new(CommandErrorCode::InvalidInput, "The key is empty."));
    }
    state.set_key(name, &value).await
}

#[tauri::command]
#[specta::specta]
pub async fn keys_delete(state: State<'_, AppState>, name: KeyName) -> CommandResult<()> {
    state.delete_key(name).await
}

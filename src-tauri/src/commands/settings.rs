//! `settings_get`, `settings_set`. Settings never hold a secret (keys: see `keys.rs`).

use tauri::State;
use warden_protocol::Settings;

use warden_core::config::Integrity;

use crate::error::CommandResult;
use crate::state::AppState;

/// Whether the settings in use are the file as Warden wrote it (see `warden_core::config`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct SettingsIntegrity {
    pub trusted: bool,
    /// What is wrong and what Warden does about it, for the notice in Settings.
    pub problem: Option<String>,
    /// What loading the file had to say although it is trusted: it could not be read and was kept
    /// aside (the defaults are in use), or a newer Warden wrote it.
    pub notice: Option<String>,
}

#[tauri::command]
#[specta::specta]
pub async fn settings_get(state: State<'_, AppState>) -> CommandResult<Settings> {
    Ok(state.engine.settings_for_window())
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
    Ok(integrity(&state.engine))
}

/// How commands are contained on this machine and what the project's box allows, for Settings →
/// Sandbox.
#[tauri::command]
#[specta::specta]
pub async fn sandbox_status(state: State<'_, AppState>) -> CommandResult<warden_protocol::SandboxStatus> {
    Ok(state.engine.sandbox_status())
}

/// For the project chosen now, once: what of the home its commands no longer see since the box
/// shows only the toolchains (`None`: nothing to say).
#[tauri::command]
#[specta::specta]
pub async fn box_home_notice(
    state: State<'_, AppState>,
) -> CommandResult<Option<warden_protocol::BoxHomeNotice>> {
    Ok(state.engine.box_home_notice()?)
}

/// The user has read the chosen project's notice of what its box no longer shows.
#[tauri::command]
#[specta::specta]
pub async fn box_home_notice_dismiss(state: State<'_, AppState>) -> CommandResult<()> {
    Ok(state.engine.dismiss_box_home_notice()?)
}

/// Remove the project's cache layer (what its commands wrote to the package caches), for Settings →
/// Sandbox's Clear.
#[tauri::command]
#[specta::specta]
pub async fn sandbox_clear_cache_layer(state: State<'_, AppState>) -> CommandResult<()> {
    state
        .engine
        .clear_cache_layer()
        .map_err(|e| crate::error::CommandError::internal(format!("Cannot clear the cache layer: {e}")))
}

/// Let the project of `conversation_id` have its commands read `path`, a path of the home a failed
/// command's block offered (the box had left it out); refused, with the reason, for one the box
/// hides on purpose.
#[tauri::command]
#[specta::specta]
pub async fn sandbox_allow_read(
    state: State<'_, AppState>,
    conversation_id: String,
    path: String,
) -> CommandResult<()> {
    state.allow_read(&conversation_id, &path).await
}

/// Put back what Warden moved out of the project's git metadata after a command (a hook, a config,
/// a gitfile it wrote): `from` where it was, `aside` its name in the project's storage, both from
/// the command's result. Refused with the reason when something else is there now.
#[tauri::command]
#[specta::specta]
pub async fn git_aside_restore(
    state: State<'_, AppState>,
    conversation_id: String,
    from: String,
    aside: String,
) -> CommandResult<()> {
    state.restore_git_aside(&conversation_id, &from, &aside).await
}

/// Every tool the window can list: plain-language label, category (a block's kind), danger, and
/// whether a new project allows it.
#[tauri::command]
#[specta::specta]
pub async fn tools_catalog() -> CommandResult<Vec<warden_protocol::ToolInfo>> {
    Ok(warden_core::engine::tool_catalog())
}

fn integrity(engine: &warden_core::engine::Engine) -> SettingsIntegrity {
    let notice = engine.settings_notice().map(str::to_owned);
    match engine.settings_integrity() {
        Integrity::Trusted => SettingsIntegrity { trusted: true, problem: None, notice },
        Integrity::Untrusted => SettingsIntegrity {
            trusted: false,
            problem: Some(format!(
                "The settings file {} was not written by Warden, or was changed since Warden last \
saved it (by a command the agent ran, an editor, or a version of Warden from before this check). \
Until you accept it, its trust level, project permissions, provider addresses and global \
instructions are ignored and \
the safe defaults are used.",
                engine.home().settings_path().display()
            )),
            notice,
        },
        Integrity::NoSealKey(why) => SettingsIntegrity {
            trusted: false,
            problem: Some(format!(
                "Warden cannot check its settings file ({why}), so its trust level, project \
permissions, provider addresses and global instructions are ignored and the safe defaults are used."
            )),
            notice,
        },
    }
}

/// The user accepts the settings file as it is now (after reading the notice): Warden seals it and
/// uses it, trust level and permissions included.
#[tauri::command]
#[specta::specta]
pub async fn settings_accept_file(state: State<'_, AppState>) -> CommandResult<()> {
    state.accept_settings_file()
}

//! The app itself: what the About box shows (version, licence, where data lives), the log folder
//! opened for a bug report, and updates (check, then install on the user's word).

use serde::{Deserialize, Serialize};
use specta::Type;
use tauri::{AppHandle, Manager, Runtime, State};

use crate::error::{CommandError, CommandErrorCode, CommandResult};
use crate::state::AppState;
use crate::updates::{self, PendingUpdate, UpdateCheck, UpdateError};

/// One place Warden keeps something of the user's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct DataPlace {
    pub what: String,
    pub path: String,
}

/// The About box.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct AppInfo {
    pub name: String,
    pub version: String,
    pub licence: String,
    /// Where settings, conversations, checkpoints, logs and the window's place are kept.
    pub places: Vec<DataPlace>,
    /// How this copy is kept up to date, in words.
    pub updates: String,
}

#[tauri::command]
#[specta::specta]
pub async fn app_info<R: Runtime>(app: AppHandle<R>, state: State<'_, AppState>) -> CommandResult<AppInfo> {
    let home = state.engine.home();
    let shown = |path: &std::path::Path| path.display().to_string();
    let place = |what: &str, path: String| DataPlace { what: what.to_owned(), path };
    let mut places = vec![
        place("Settings", shown(&home.settings_path())),
        place("Conversations", shown(&home.store_path())),
        place("Checkpoints", shown(&home.data_dir().join("checkpoints"))),
        place("Logs", shown(home.logs_dir())),
        place("API keys", "the system keychain (service \"warden\")".to_owned()),
    ];
    if let Ok(config) = app.path().app_config_dir() {
        places.push(place("Window size and place", shown(&config.join(crate::WINDOW_STATE_FILE))));
    }
    let updates = updates::how_updated(&app, &state.engine.settings().updates);
    Ok(AppInfo {
        name: app.package_info().name.clone(),
        version: app.package_info().version.to_string(),
        licence: "MIT".to_owned(),
        places,
        updates,
    })
}

/// Opens the folder of the log files in the system's file manager.
#[tauri::command]
#[specta::specta]
pub async fn logs_open(state: State<'_, AppState>) -> CommandResult<()> {
    let dir = state.engine.home().logs_dir().to_path_buf();
    std::fs::create_dir_all(&dir).map_err(|error| {
        CommandError::new(
            CommandErrorCode::Internal,
            format!("Could not make the log folder {} ({error}).", dir.display()),
        )
    })?;
    warden_core::opener::open_file(&dir).map_err(|error| {
        CommandError::new(CommandErrorCode::Internal, format!("Could not open {} ({error}).", dir.display()))
    })
}

/// Asks the update server whether a newer Warden exists.
#[tauri::command]
#[specta::specta]
pub async fn update_check<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    pending: State<'_, PendingUpdate>,
) -> CommandResult<UpdateCheck> {
    let settings = state.engine.settings();
    updates::check(&app, &settings.updates, &pending).await.map_err(update_error)
}

/// Downloads, verifies and installs the update the last check found, then restarts into it.
#[tauri::command]
#[specta::specta]
pub async fn update_install<R: Runtime>(
    app: AppHandle<R>,
    pending: State<'_, PendingUpdate>,
) -> CommandResult<()> {
    updates::install(&app, &pending).await.map_err(update_error)
}

fn update_error(error: UpdateError) -> CommandError {
    let code = match error {
        UpdateError::Network(_) => CommandErrorCode::Network,
        UpdateError::BadEndpoint(_) => CommandErrorCode::InvalidInput,
        _ => CommandErrorCode::Internal,
    };
    CommandError::new(code, error.to_string())
}

//! `pick_project_folder`: the native folder dialog, opened from Rust. The webview has no dialog
//! permission of its own; it can only ask for this one dialog and receive the chosen path.

use tauri::{AppHandle, Runtime};
use tauri_plugin_dialog::DialogExt;

use crate::error::{CommandError, CommandResult};

/// Opens the folder picker; `None` when the user cancels.
#[tauri::command]
#[specta::specta]
pub async fn pick_project_folder<R: Runtime>(app: AppHandle<R>) -> CommandResult<Option<String>> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.dialog().file().set_title("Choose the project folder").pick_folder(move |folder| {
        let _ = tx.send(folder);
    });
    let picked = rx.await.map_err(|_| CommandError::internal("The folder dialog closed unexpectedly."))?;
    match picked {
        None => Ok(None),
        Some(path) => path
            .into_path()
            .map(|p| Some(p.to_string_lossy().into_owned()))
            .map_err(|_| CommandError::internal("The chosen folder is not a local path.")),
    }
}

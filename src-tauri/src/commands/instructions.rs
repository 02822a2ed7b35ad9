//! `instructions_in_use`, `instructions_open`: which instruction files the model reads besides
//! Warden's own prompt (the project's `AGENTS.md`, see `warden_core::instructions`), and opening
//! one in the user's own app. Only a file in use can be opened: the webview names it, the engine
//! checks it is one of them (so inside the project), and the system opener gets where it really is.

use tauri::State;
use warden_protocol::InstructionsInUse;

use crate::error::{CommandError, CommandErrorCode, CommandResult};
use crate::state::AppState;

/// The project's instruction files a conversation started now reads, and whether the global
/// instructions in Settings are used.
#[tauri::command]
#[specta::specta]
pub async fn instructions_in_use(state: State<'_, AppState>) -> CommandResult<InstructionsInUse> {
    let engine = state.engine.clone();
    tokio::task::spawn_blocking(move || engine.instructions_in_use())
        .await
        .map_err(|_| CommandError::internal("Could not read the project's instruction files."))
}

/// Opens an instruction file in use (`path` as `instructions_in_use` gave it) with the system's
/// app for it; any other path is refused and opens nothing.
#[tauri::command]
#[specta::specta]
pub async fn instructions_open(state: State<'_, AppState>, path: String) -> CommandResult<()> {
    let engine = state.engine.clone();
    let file = tokio::task::spawn_blocking(move || engine.instruction_file_to_open(&path))
        .await
        .map_err(|_| CommandError::internal("Could not read the project's instruction files."))?
        .ok_or_else(|| {
            CommandError::new(
                CommandErrorCode::InvalidInput,
                "Only an instruction file the project uses (its AGENTS.md) is opened this way.",
            )
        })?;
    warden_core::opener::open_file(&file).map_err(|error| {
        CommandError::new(CommandErrorCode::Internal, format!("Could not open {} ({error}).", file.display()))
    })
}

//! `hooks_project_offer`, `hooks_project_choose`, `hooks_check`: a project's own hooks (its
//! `.claude/settings.json`), offered with their exact commands and never run before the user
//! approves them; and checking the user's hooks before Settings saves them.

use tauri::State;
use warden_protocol::{HooksConfig, ProjectHooksOffer};

use crate::error::{CommandError, CommandErrorCode, CommandResult};
use crate::state::AppState;

/// The chosen project's own hooks, when its `.claude/settings.json` names any, with whether the
/// user approved exactly these.
#[tauri::command]
#[specta::specta]
pub async fn hooks_project_offer(state: State<'_, AppState>) -> CommandResult<Option<ProjectHooksOffer>> {
    let Some(project) = state.engine.settings().project_dir else { return Ok(None) };
    Ok(state.engine.project_hooks_offer(std::path::Path::new(&project))?)
}

/// Run (`approve`) the chosen project's hooks whose digest the user was shown, or stop running
/// them. Refused when the file now holds other hooks.
#[tauri::command]
#[specta::specta]
pub async fn hooks_project_choose(
    state: State<'_, AppState>,
    digest: String,
    approve: bool,
) -> CommandResult<()> {
    let Some(project) = state.engine.settings().project_dir else {
        return Err(CommandError::new(CommandErrorCode::InvalidInput, "No project folder is chosen."));
    };
    state
        .engine
        .choose_project_hooks(std::path::Path::new(&project), &digest, approve)
        .map_err(|message| CommandError::new(CommandErrorCode::InvalidInput, message))?;
    state.settings_changed();
    Ok(())
}

/// What in `hooks` would not run (an unknown event, a matcher that is not a valid expression, an
/// empty command…), in words; empty when all of it would.
#[tauri::command]
#[specta::specta]
pub async fn hooks_check(hooks: HooksConfig) -> CommandResult<Vec<String>> {
    Ok(warden_core::hooks::HookSet::from_config(&hooks, warden_core::hooks::HookOrigin::User).1)
}

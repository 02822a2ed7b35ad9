//! Settings → Permissions: `rules_list`, `rules_add`, `rules_remove` and `rules_check` (what a
//! call would do, and why), for the project chosen now.

use tauri::State;
use warden_protocol::{PermissionRule, RuleCheck, RuleScope, ScopedRule};

use crate::error::{CommandError, CommandResult};
use crate::state::AppState;

/// Every rule that applies in the project: the organisation's, the user's and the project's.
#[tauri::command]
#[specta::specta]
pub async fn rules_list(state: State<'_, AppState>) -> CommandResult<Vec<ScopedRule>> {
    Ok(state.engine.window_rules()?)
}

/// Add a rule to the project's rules or the user's (checked first: one that does not parse is
/// refused with why).
#[tauri::command]
#[specta::specta]
pub async fn rules_add(
    state: State<'_, AppState>,
    scope: RuleScope,
    rule: PermissionRule,
) -> CommandResult<()> {
    state.engine.window_add_rule(scope, rule).map_err(CommandError::invalid_input)
}

/// Remove the rule that says what `rule` says from `scope`'s rules; false when there was none.
#[tauri::command]
#[specta::specta]
pub async fn rules_remove(
    state: State<'_, AppState>,
    scope: RuleScope,
    rule: PermissionRule,
) -> CommandResult<bool> {
    state.engine.window_remove_rule(scope, &rule).map_err(CommandError::invalid_input)
}

/// What the policy would do with a call of `tool` with `input` in the project, and why.
#[tauri::command]
#[specta::specta]
pub async fn rules_check(
    state: State<'_, AppState>,
    tool: String,
    input: serde_json::Value,
) -> CommandResult<RuleCheck> {
    Ok(state.engine.window_check_call(&tool, &input)?)
}

/// Claude Code's and codex's rules for the project and the user, converted and not yet added:
/// the window shows them for the user to tick, then adds the ticked ones with `rules_add`.
#[tauri::command]
#[specta::specta]
pub async fn rules_import_preview(state: State<'_, AppState>) -> CommandResult<warden_protocol::RuleImport> {
    Ok(state.engine.window_import_rules()?)
}

//! `provider_models`, `provider_test`, `provider_readiness`: what the window asks about providers.

use tauri::State;
use warden_protocol::{ModelEntry, ProviderId};

use crate::error::CommandResult;
use crate::state::AppState;

/// The models the provider offers, for the model picker.
#[tauri::command]
#[specta::specta]
pub async fn provider_models(
    state: State<'_, AppState>,
    provider: ProviderId,
) -> CommandResult<Vec<ModelEntry>> {
    Ok(state.engine.list_models(provider).await?)
}

/// Checks the endpoint and the key with a cheap request.
#[tauri::command]
#[specta::specta]
pub async fn provider_test(state: State<'_, AppState>, provider: ProviderId) -> CommandResult<()> {
    Ok(state.engine.test_connection(provider).await?)
}

/// Whether `provider` can answer now, and what is missing when not: the engine's one answer.
#[tauri::command]
#[specta::specta]
pub async fn provider_readiness(
    state: State<'_, AppState>,
    provider: ProviderId,
) -> CommandResult<warden_protocol::ProviderReadiness> {
    Ok(state.engine.provider_readiness(provider).await)
}

//! `provider_models`, `provider_test`, `ollama_probe`: what the settings panel asks providers.

use std::time::Duration;

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

/// Whether an Ollama server answers at the configured (or default) address.
#[tauri::command]
#[specta::specta]
pub async fn ollama_probe(state: State<'_, AppState>) -> CommandResult<bool> {
    let answered =
        tokio::time::timeout(OLLAMA_PROBE_TIMEOUT, state.engine.list_models(ProviderId::Ollama)).await;
    Ok(matches!(answered, Ok(Ok(_))))
}

/// How long `ollama_probe` waits for a local Ollama to answer.
const OLLAMA_PROBE_TIMEOUT: Duration = Duration::from_secs(2);

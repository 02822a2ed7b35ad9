//! The provider factory: a provider as the settings, the keychain and a session's overrides
//! describe it, and the two calls the window makes on one (list models, test the connection).

use std::sync::Arc;

use warden_protocol::{KeyName, ModelEntry, ProviderId, ProviderReadiness};

use super::{Engine, SetupError, SetupOrProviderError};
use crate::provider::{self, Provider};
use crate::secrets::ApiKey;

/// The default model of each provider, used when neither the user nor the settings name one.
pub fn default_model(provider: ProviderId) -> &'static str {
    match provider {
        ProviderId::Anthropic => "claude-sonnet-4-5",
        ProviderId::Openai => "gpt-4.1",
        ProviderId::OpenaiCompatible => "default",
        ProviderId::Ollama => "llama3.2",
    }
}

/// The key a provider's requests carry (`None`: Ollama takes none).
pub(super) fn key_name(id: ProviderId) -> Option<KeyName> {
    match id {
        ProviderId::Anthropic => Some(KeyName::Anthropic),
        ProviderId::Openai => Some(KeyName::Openai),
        ProviderId::OpenaiCompatible => Some(KeyName::OpenaiCompatible),
        ProviderId::Ollama => None,
    }
}

impl Engine {
    /// A provider as the settings (and the spec's overrides) describe it.
    pub async fn provider(
        &self,
        id: ProviderId,
        base_url: Option<String>,
        native_tools: Option<bool>,
    ) -> Result<Arc<dyn Provider>, SetupError> {
        let settings = self.settings();
        let stored = settings.providers.get(&id).cloned().unwrap_or_default();
        let base_url = base_url.or(stored.base_url).filter(|u| !u.trim().is_empty());
        let key_name = key_name(id);
        // A keychain that cannot be reached is the same as no key here; the error below says so.
        let (key, keychain_error): (Option<ApiKey>, Option<String>) = match key_name {
            Some(name) => match self.key(name).await {
                Ok(key) => (key, None),
                Err(error) => {
                    tracing::debug!(%error, "keychain unavailable");
                    (None, Some(error.to_string()))
                }
            },
            None => (None, None),
        };
        // Hosted APIs need a key; a local OpenAI-compatible server (a base URL of its own) may not.
        let needs_key = match id {
            ProviderId::Anthropic => true,
            ProviderId::Openai => base_url.is_none(),
            ProviderId::OpenaiCompatible | ProviderId::Ollama => false,
        };
        if needs_key && key.is_none() {
            let name = key_name.unwrap_or(KeyName::Anthropic);
            return Err(SetupError::MissingKey {
                provider: id.as_str(),
                env_var: name.env_var(),
                keychain: keychain_error,
            });
        }
        let learned = provider::LearnedAt {
            store: Arc::new(super::learned::SettingsFacts(self.settings.clone())),
            base_url: base_url.clone().unwrap_or_else(|| wire_kind(id).default_base_url().to_owned()),
        };
        let options = provider::ProviderOptions {
            base_url,
            api_key: key,
            native_tools: native_tools.or(stored.native_tools).unwrap_or(true),
            learned: Some(learned),
            ..provider::ProviderOptions::default()
        };
        Ok(provider::build_provider(wire_kind(id), options))
    }

    /// The model a session uses when neither the user nor the settings name one: the provider's
    /// default for a hosted API; for a server of the user's own (an OpenAI-compatible base URL),
    /// never a hosted API's model name but the server's only model, or the user is asked to
    /// choose among its models.
    pub(super) async fn model_by_default(
        &self,
        id: ProviderId,
        base_url: Option<&str>,
        provider: &dyn Provider,
    ) -> Result<String, SetupError> {
        let own_server = match id {
            ProviderId::OpenaiCompatible => true,
            ProviderId::Openai => base_url.is_some_and(|url| !url.contains("://api.openai.com")),
            ProviderId::Anthropic | ProviderId::Ollama => false,
        };
        if !own_server {
            return Ok(default_model(id).to_owned());
        }
        let server = base_url.unwrap_or("the configured base URL").to_owned();
        let listed = tokio::time::timeout(MODEL_LIST_TIME, provider.list_models()).await;
        let mut models = match listed {
            Ok(Ok(models)) => models,
            Ok(Err(error)) => {
                return Err(SetupError::NoModel { server, why: format!("did not list its models ({error})") })
            }
            Err(_) => {
                return Err(SetupError::NoModel { server, why: "did not list its models in time".to_owned() })
            }
        };
        match models.len() {
            0 => Err(SetupError::NoModel { server, why: "lists no model".to_owned() }),
            1 => Ok(models.remove(0).id),
            _ => Err(SetupError::ChooseModel { server, models: models.into_iter().map(|m| m.id).collect() }),
        }
    }

    pub async fn list_models(&self, id: ProviderId) -> Result<Vec<ModelEntry>, SetupOrProviderError> {
        let provider = self.provider(id, None, None).await?;
        let models = provider.list_models().await?;
        Ok(models
            .into_iter()
            .map(|m| ModelEntry {
                takes_images: crate::images::model_takes_images(wire_kind(id), &m.id),
                id: m.id,
                display_name: m.display_name,
                supports_tools: m.supports_tools,
                context_window: m.context_window,
            })
            .collect())
    }

    /// Whether `id` can answer a conversation now: its key where it needs one (settings, keychain or
    /// environment), a server address for an OpenAI-compatible server, and for Ollama a server that
    /// answers within [`OLLAMA_ANSWER_TIMEOUT`]. The one answer the window and the CLI use.
    pub async fn provider_readiness(&self, id: ProviderId) -> ProviderReadiness {
        let not_ready = |reason: String| ProviderReadiness { ready: false, reason: Some(reason) };
        let stored_url = self.settings().providers.get(&id).and_then(|p| p.base_url.clone());
        if id == ProviderId::OpenaiCompatible && stored_url.as_deref().is_none_or(|u| u.trim().is_empty()) {
            return not_ready("Set the server's address (base URL) in Settings.".to_owned());
        }
        let provider = match self.provider(id, None, None).await {
            Ok(provider) => provider,
            Err(error) => return not_ready(error.to_string()),
        };
        if id != ProviderId::Ollama {
            return ProviderReadiness { ready: true, reason: None };
        }
        match tokio::time::timeout(OLLAMA_ANSWER_TIMEOUT, provider.list_models()).await {
            Ok(Ok(_)) => ProviderReadiness { ready: true, reason: None },
            Ok(Err(error)) => not_ready(format!("Ollama did not answer: {error}")),
            Err(_) => not_ready(format!(
                "Ollama did not answer within {} s: is it running?",
                OLLAMA_ANSWER_TIMEOUT.as_secs()
            )),
        }
    }

    pub async fn test_connection(&self, id: ProviderId) -> Result<(), SetupOrProviderError> {
        let provider = self.provider(id, None, None).await?;
        Ok(provider.validate_credentials().await?)
    }
}

/// How long a session's start waits for a server's model list when it has to pick the model.
const MODEL_LIST_TIME: std::time::Duration = std::time::Duration::from_secs(10);

/// How long [`Engine::provider_readiness`] waits for a local Ollama.
pub const OLLAMA_ANSWER_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

pub(super) fn wire_kind(id: ProviderId) -> provider::ProviderKind {
    match id {
        ProviderId::Anthropic => provider::ProviderKind::Anthropic,
        ProviderId::Openai | ProviderId::OpenaiCompatible => provider::ProviderKind::OpenAi,
        ProviderId::Ollama => provider::ProviderKind::Ollama,
    }
}

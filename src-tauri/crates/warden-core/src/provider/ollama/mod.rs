//! Ollama's native API: `POST {base}/api/chat` streaming NDJSON, `GET /api/tags`, `POST /api/show`.

mod decoder;
pub(crate) mod request;

use std::sync::Arc;

use async_trait::async_trait;
use futures::{future, stream};
use serde::Deserialize;
use serde_json::{json, Value};

use super::common::{encode_body, join_url};
use super::http::shared_client;
use super::transport::{answer_body, network_error, stream_request, Transport};
use super::{ChatRequest, ChunkStream, ModelInfo, Provider, ProviderError, ProviderOptions};
use decoder::OllamaDecoder;

pub const DEFAULT_BASE_URL: &str = "http://localhost:11434";

pub struct OllamaProvider {
    base_url: String,
    transport: Arc<Transport>,
}

#[derive(Deserialize)]
struct Tags {
    #[serde(default, deserialize_with = "super::common::null_as_default")]
    models: Vec<TagEntry>,
}

#[derive(Deserialize)]
struct TagEntry {
    name: String,
    #[serde(default)]
    details: Option<Value>,
    /// Only newer servers list capabilities here; never rely on it.
    #[serde(default)]
    capabilities: Option<Vec<String>>,
}

#[derive(Deserialize)]
struct Show {
    #[serde(default)]
    capabilities: Option<Vec<String>>,
    #[serde(default)]
    model_info: Option<serde_json::Map<String, Value>>,
}

impl OllamaProvider {
    pub fn new(settings: &ProviderOptions) -> Self {
        let base_url = settings.base_url.clone().unwrap_or_else(|| DEFAULT_BASE_URL.to_owned());
        Self { base_url, transport: Arc::new(settings.transport("Ollama")) }
    }

    fn authorized(&self, builder: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        // Ollama itself takes no key; a proxy in front of it may.
        match &self.transport.key {
            Some(key) => builder.bearer_auth(key.expose()),
            None => builder,
        }
    }

    async fn fetch_json<T: serde::de::DeserializeOwned>(
        &self,
        request: reqwest::RequestBuilder,
    ) -> Result<T, ProviderError> {
        let response =
            self.authorized(request).send().await.map_err(|e| network_error(&self.transport, &e))?;
        let body = answer_body(&self.transport, response, "answer").await?;
        serde_json::from_slice(&body).map_err(|e| {
            ProviderError::invalid_response(
                "Ollama sent an answer Warden could not read. Is it Ollama at that address?",
            )
            .with_detail(e.to_string())
        })
    }

    /// `POST /api/show`: capabilities and the model's context length.
    async fn show(&self, model: &str) -> Result<(Option<bool>, Option<u32>), ProviderError> {
        let client = shared_client()?;
        let show: Show = self
            .fetch_json(client.post(join_url(&self.base_url, "api/show")).json(&json!({"model": model})))
            .await?;
        let tools = show.capabilities.map(|c| c.iter().any(|c| c == "tools"));
        let context = show.model_info.and_then(|info| {
            info.iter()
                .find(|(k, _)| k.ends_with(".context_length"))
                .and_then(|(_, v)| v.as_u64())
                .and_then(|n| u32::try_from(n).ok())
        });
        Ok((tools, context))
    }
}

#[async_trait]
impl Provider for OllamaProvider {
    fn name(&self) -> &str {
        "ollama"
    }

    fn stream(&self, request: ChatRequest) -> ChunkStream {
        let body = match encode_body(&request::body(&request)) {
            Ok(body) => body,
            Err(error) => return Box::pin(stream::iter([Err(error)])),
        };
        let url = join_url(&self.base_url, "api/chat");
        let key = self.transport.key.clone();
        let factory = Box::new(move |client: &reqwest::Client| {
            let builder = client.post(&url).header("content-type", "application/json").body(body.clone());
            match &key {
                Some(key) => builder.bearer_auth(key.expose()),
                None => builder,
            }
        });
        let key = self.transport.key.clone();
        stream_request(self.transport.clone(), factory, Box::new(move || OllamaDecoder::new(key.clone())))
    }

    /// Local models from `/api/tags`; tool support and context length from the listing when the
    /// server includes them, else from `/api/show` per model (cheap: it is a local server).
    async fn list_models(&self) -> Result<Vec<ModelInfo>, ProviderError> {
        let client = shared_client()?;
        let tags: Tags = self.fetch_json(client.get(join_url(&self.base_url, "api/tags"))).await?;
        let lookups = tags.models.into_iter().map(|entry| async move {
            let listed_context = entry
                .details
                .as_ref()
                .and_then(|d| d.get("context_length"))
                .and_then(Value::as_u64)
                .and_then(|n| u32::try_from(n).ok());
            let listed_tools = entry.capabilities.as_ref().map(|c| c.iter().any(|c| c == "tools"));
            let (tools, context) = match (listed_tools, listed_context) {
                (Some(tools), Some(context)) => (Some(tools), Some(context)),
                _ => match self.show(&entry.name).await {
                    Ok((tools, context)) => (listed_tools.or(tools), listed_context.or(context)),
                    Err(error) => {
                        tracing::debug!(model = %entry.name, %error, "ollama show failed");
                        (listed_tools, listed_context)
                    }
                },
            };
            ModelInfo { id: entry.name, display_name: None, supports_tools: tools, context_window: context }
        });
        Ok(future::join_all(lookups).await)
    }

    /// From `/api/show`: `Some(false)` when the model's capabilities lack `tools`. A failed lookup,
    /// a slow one (longer than the idle timeout) or an older server without `capabilities` is `None`.
    async fn supports_native_tools(&self, model: &str) -> Option<bool> {
        match tokio::time::timeout(self.transport.idle_timeout, self.show(model)).await {
            Ok(Ok((tools, _))) => tools,
            Ok(Err(error)) => {
                tracing::debug!(%model, %error, "ollama show failed; assuming native tools");
                None
            }
            Err(_) => {
                tracing::debug!(%model, "ollama show timed out; assuming native tools");
                None
            }
        }
    }
}

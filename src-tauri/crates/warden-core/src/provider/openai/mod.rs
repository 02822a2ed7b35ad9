//! OpenAI Chat Completions, for OpenAI and every OpenAI-compatible server by base URL (vLLM,
//! LM Studio, llama.cpp, OpenRouter, Groq, MiniMax, Ollama's `/v1`…): `POST {base}/chat/completions`.

mod decoder;
mod local;
pub(crate) mod request;

use std::sync::Arc;

use async_trait::async_trait;
use futures::stream;
use serde::Deserialize;

use super::common::{encode_body, join_url};
use super::http::{note_key_verdict, shared_client};
use super::learned::is_local_or_private;
use super::transport::{answer_body, network_error, stream_request, Transport};
use super::{
    ChatRequest, ChunkStream, ErrorCategory, ModelInfo, Provider, ProviderError, ProviderOptions, LOOKUP_TIME,
};
use decoder::OpenAiDecoder;
use request::TokenLimitField;

pub const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";

pub struct OpenAiProvider {
    base_url: String,
    transport: Arc<Transport>,
    /// OpenAI itself: a key is required and the token limit field is `max_completion_tokens`.
    official: bool,
}

impl OpenAiProvider {
    pub fn new(settings: &ProviderOptions) -> Self {
        let base_url = settings.base_url.clone().unwrap_or_else(|| DEFAULT_BASE_URL.to_owned());
        let official = base_url.contains("://api.openai.com");
        // A sentence starts with it ("The server at … refused"); `transport::in_sentence` puts
        // it inside one ("Could not reach the server at …").
        let label = if official { "OpenAI".to_owned() } else { format!("The server at {base_url}") };
        Self { base_url, transport: Arc::new(settings.transport(&label)), official }
    }

    fn missing_key(&self) -> Option<ProviderError> {
        (self.official && self.transport.key.is_none()).then(|| {
            ProviderError::new(
                ErrorCategory::MissingCredentials,
                "No OpenAI API key is set. Add one in Settings.",
            )
        })
    }

    /// A `GET` whose JSON answer is read if it comes within [`LOOKUP_TIME`]; anything else
    /// (a 404 from a server without that endpoint) is `None`.
    async fn lookup(&self, url: &str) -> Option<serde_json::Value> {
        let client = shared_client().ok()?;
        let read = async {
            let response = self.authorized(client.get(url)).send().await.ok()?;
            serde_json::from_slice(&answer_body(&self.transport, response, "answer").await.ok()?).ok()
        };
        tokio::time::timeout(LOOKUP_TIME, read).await.ok()?
    }

    fn authorized(&self, builder: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        match &self.transport.key {
            Some(key) => builder.bearer_auth(key.expose()),
            None => builder,
        }
    }
}

#[async_trait]
impl Provider for OpenAiProvider {
    fn name(&self) -> &str {
        "openai"
    }

    fn stream(&self, request: ChatRequest) -> ChunkStream {
        if let Some(error) = self.missing_key() {
            return Box::pin(stream::iter([Err(error)]));
        }
        let limit =
            if self.official { TokenLimitField::MaxCompletionTokens } else { TokenLimitField::MaxTokens };
        let wire = request::body(&request, limit);
        let body = match encode_body(&wire) {
            Ok(body) => body,
            Err(error) => return Box::pin(stream::iter([Err(error)])),
        };
        // What to send again, not streamed, when the stream's body holds no event (below).
        let unstreamed = (!self.official).then(|| local::unstreamed_body(&wire)).flatten();
        let url = join_url(&self.base_url, "chat/completions");
        let key = self.transport.key.clone();
        let factory = Box::new(move |client: &reqwest::Client| {
            let builder = client
                .post(&url)
                .header("content-type", "application/json")
                .header("accept", "text/event-stream")
                .body(body.clone());
            match &key {
                Some(key) => builder.bearer_auth(key.expose()),
                None => builder,
            }
        });
        let (label, key) = (self.transport.label.clone(), self.transport.key.clone());
        let decoder = Box::new(move || OpenAiDecoder::new(label.clone(), key.clone()));
        let streamed = stream_request(self.transport.clone(), factory, decoder);
        match unstreamed {
            Some(body) => {
                local::unstreamed_when_empty(streamed, self.transport.clone(), self.base_url.clone(), body)
            }
            None => streamed,
        }
    }

    async fn probe_native_tools(&self, model: &str) -> Option<bool> {
        if self.official || !is_local_or_private(&self.base_url) {
            return None;
        }
        let client = shared_client().ok()?;
        let request = self
            .authorized(client.post(join_url(&self.base_url, "chat/completions")))
            .json(&local::probe_body(model))
            .send();
        // A local model may first have to be loaded: as long as a stream may stay silent.
        let response = tokio::time::timeout(self.transport.idle_timeout, request).await.ok()?.ok()?;
        if !response.status().is_success() {
            // A refusal of the tools is the request's to find (and the text protocol's to answer).
            tracing::debug!(status = %response.status(), "the tools probe was refused");
            return None;
        }
        let body = tokio::time::timeout(
            self.transport.idle_timeout,
            answer_body(&self.transport, response, "answer to the tools probe"),
        )
        .await
        .ok()?
        .ok()?;
        let verdict = local::probe_verdict(&serde_json::from_slice(&body).ok()?);
        tracing::info!(%model, ?verdict, "asked the server whether it honours native tools");
        verdict
    }

    /// llama.cpp's `/props`, then the model list (vLLM's `max_model_len`), then LM Studio's model
    /// list: the first that says. api.openai.com is asked nothing (the engine's table knows its
    /// models).
    async fn context_window(&self, model: &str) -> Option<u32> {
        if self.official {
            return None;
        }
        let [props, lmstudio] = local::window_lookups(&self.base_url);
        if let Some(props) = self.lookup(&props).await {
            if let Some(window) = local::props_window(&props) {
                return Some(window);
            }
        }
        let listed = tokio::time::timeout(LOOKUP_TIME, self.list_models()).await.ok().and_then(Result::ok);
        if let Some(window) =
            listed.into_iter().flatten().find(|m| m.id == model).and_then(|m| m.context_window)
        {
            return Some(window);
        }
        local::lmstudio_window(&self.lookup(&lmstudio).await?, model)
    }

    async fn list_models(&self) -> Result<Vec<ModelInfo>, ProviderError> {
        #[derive(Deserialize)]
        struct Page {
            #[serde(default, deserialize_with = "super::common::null_as_default")]
            data: Vec<Model>,
        }
        #[derive(Deserialize)]
        struct Model {
            id: String,
            /// vLLM reports the served context length so.
            max_model_len: Option<u32>,
            context_length: Option<u32>,
        }
        if let Some(error) = self.missing_key() {
            return Err(error);
        }
        let client = shared_client()?;
        let response = self
            .authorized(client.get(join_url(&self.base_url, "models")))
            .send()
            .await
            .map_err(|e| network_error(&self.transport, &e))?;
        let status = response.status();
        note_key_verdict(self.transport.key.as_ref(), status.as_u16());
        let body = answer_body(&self.transport, response, "model list").await?;
        let page: Page = serde_json::from_slice(&body).map_err(|e| {
            ProviderError::invalid_response(format!(
                "{}'s list of models could not be read. Check the base URL in Settings.",
                self.transport.label
            ))
            .with_detail(e.to_string())
        })?;
        Ok(page
            .data
            .into_iter()
            .map(|m| ModelInfo {
                context_window: m.max_model_len.or(m.context_length),
                id: m.id,
                display_name: None,
                supports_tools: None,
            })
            .collect())
    }
}

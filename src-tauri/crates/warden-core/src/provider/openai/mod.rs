//! OpenAI Chat Completions, for OpenAI and every OpenAI-compatible server by base URL (vLLM,
//! LM Studio, llama.cpp, OpenRouter, Groq, MiniMax, Ollama's `/v1`…): `POST {base}/chat/completions`.

mod decoder;
pub(crate) mod request;

use std::sync::Arc;

use async_trait::async_trait;
use futures::stream;
use serde::Deserialize;

use super::common::{encode_body, join_url};
use super::http::{note_key_verdict, shared_client};
use super::transport::{answer_body, network_error, stream_request, Transport};
use super::{ChatRequest, ChunkStream, ErrorCategory, ModelInfo, Provider, ProviderError, ProviderOptions};
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
        let body = match encode_body(&request::body(&request, limit)) {
            Ok(body) => body,
            Err(error) => return Box::pin(stream::iter([Err(error)])),
        };
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
        let decoder = OpenAiDecoder::new(self.transport.label.clone(), self.transport.key.clone());
        stream_request(self.transport.clone(), factory, decoder)
    }

    async fn list_models(&self) -> Result<Vec<ModelInfo>, ProviderError> {
        #[derive(Deserialize)]
        struct Page {
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
                "{}'s model list could not be read ({e}).",
                self.transport.label
            ))
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

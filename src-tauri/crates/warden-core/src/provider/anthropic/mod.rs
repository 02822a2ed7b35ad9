//! Anthropic Messages API: `POST {base}/v1/messages` with `stream: true`.

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
use decoder::AnthropicDecoder;

pub const DEFAULT_BASE_URL: &str = "https://api.anthropic.com";
/// The API version whose request and event shapes this module speaks.
pub const API_VERSION: &str = "2023-06-01";

pub struct AnthropicProvider {
    base_url: String,
    transport: Arc<Transport>,
}

impl AnthropicProvider {
    pub fn new(settings: &ProviderOptions) -> Self {
        let base_url = settings.base_url.clone().unwrap_or_else(|| DEFAULT_BASE_URL.to_owned());
        Self { base_url, transport: Arc::new(settings.transport("Anthropic")) }
    }

    fn missing_key() -> ProviderError {
        ProviderError::new(
            ErrorCategory::MissingCredentials,
            "No Anthropic API key is set. Add one in Settings.",
        )
    }

    fn authorized(&self, builder: reqwest::RequestBuilder) -> Result<reqwest::RequestBuilder, ProviderError> {
        let key = self.transport.key.as_ref().ok_or_else(Self::missing_key)?;
        Ok(builder.header("x-api-key", key.expose()).header("anthropic-version", API_VERSION))
    }
}

#[async_trait]
impl Provider for AnthropicProvider {
    fn name(&self) -> &str {
        "anthropic"
    }

    fn stream(&self, request: ChatRequest) -> ChunkStream {
        let Some(key) = self.transport.key.clone() else {
            return Box::pin(stream::iter([Err(Self::missing_key())]));
        };
        let url = join_url(&self.base_url, "v1/messages");
        let body = match encode_body(&request::body(&request)) {
            Ok(body) => body,
            Err(error) => return Box::pin(stream::iter([Err(error)])),
        };
        let factory_key = key.clone();
        let factory = Box::new(move |client: &reqwest::Client| {
            client
                .post(&url)
                .header("x-api-key", factory_key.expose())
                .header("anthropic-version", API_VERSION)
                .header("content-type", "application/json")
                .header("accept", "text/event-stream")
                .body(body.clone())
        });
        stream_request(
            self.transport.clone(),
            factory,
            Box::new(move || AnthropicDecoder::new(Some(key.clone()))),
        )
    }

    async fn list_models(&self) -> Result<Vec<ModelInfo>, ProviderError> {
        #[derive(Deserialize)]
        struct Page {
            data: Vec<Model>,
        }
        #[derive(Deserialize)]
        struct Model {
            id: String,
            display_name: Option<String>,
            max_input_tokens: Option<u32>,
        }
        let client = shared_client()?;
        let url = join_url(&self.base_url, "v1/models?limit=1000");
        let request = self.authorized(client.get(url))?;
        let response = request.send().await.map_err(|e| network_error(&self.transport, &e))?;
        let status = response.status();
        note_key_verdict(self.transport.key.as_ref(), status.as_u16());
        let body = answer_body(&self.transport, response, "model list").await?;
        let page: Page = serde_json::from_slice(&body).map_err(|e| {
            ProviderError::invalid_response(
                "Anthropic's list of models could not be read. Check the base URL in Settings.",
            )
            .with_detail(e.to_string())
        })?;
        Ok(page
            .data
            .into_iter()
            .map(|m| ModelInfo {
                id: m.id,
                display_name: m.display_name,
                supports_tools: Some(true),
                context_window: m.max_input_tokens,
            })
            .collect())
    }
}

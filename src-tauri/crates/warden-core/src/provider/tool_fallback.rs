//! Tools for every model, without a setting: native tool calling where the model takes it, the
//! text tool protocol where it does not.
//!
//! [`ToolFallback`] wraps a provider speaking native tools. For each model it decides once and
//! remembers for as long as it lives (a session):
//!
//! 1. Before the first request for a model it asks the provider whether the model takes native
//!    tools ([`Provider::supports_native_tools`]: Ollama's `/api/show` capabilities). A model known
//!    not to goes straight to the [`TextToolProtocol`].
//! 2. Otherwise the request goes out natively. If the server refuses it — before anything was
//!    streamed — with an error that names tools ([`refuses_native_tools`]), the same request is
//!    sent once more through the text protocol and the model is remembered as a text model. Any
//!    other error goes through unchanged; the text protocol never falls back again.
//!
//! Either way the switch is told to the user once per model, as a [`StreamChunk::Notice`] before
//! the message's `Start`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use futures::{stream, StreamExt};

use super::text_protocol::TextToolProtocol;
use super::{ChatRequest, ChunkStream, ErrorCategory, ModelInfo, Provider, ProviderError, StreamChunk};

/// Told when the model is known not to take native tools.
pub(crate) const NOTICE_NO_NATIVE_TOOLS: &str =
    "This model has no native tool calling; Warden describes the tools in the prompt instead.";
/// Told when the server refused native tools for the model.
pub(crate) const NOTICE_TOOLS_REFUSED: &str =
    "The server refused native tool calling for this model; Warden describes the tools in the prompt instead.";

/// What servers answer when they will not take native tools for a model, lower-cased and with
/// quotes and backticks removed. Each is a server's own wording; a wording is only added when a
/// real server was seen to send it, so an unrelated refusal never switches protocols.
const TOOL_REFUSALS: &[&str] = &[
    // Ollama, `/api/chat` and `/v1/chat/completions`, HTTP 400:
    // `{"error":"registry.ollama.ai/library/gemma:2b does not support tools"}`.
    "does not support tools",
    // llama.cpp `llama-server` without `--jinja` (HTTP 500 in the builds that say so, type
    // `server_error`): "tools param requires --jinja flag", "tool_choice param requires --jinja flag".
    "tools param requires --jinja",
    "tool_choice param requires --jinja",
    // llama.cpp builds before tool support (HTTP 500): "Unsupported param: tools".
    "unsupported param: tools",
    "unsupported param: tool_choice",
    // vLLM without tool parsing (HTTP 400):
    // "\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set".
    "auto tool choice requires --enable-auto-tool-choice",
    // OpenAI-compatible gateways: "`tools` is not supported" / "'tool_choice' is not supported".
    "tools is not supported",
    "tool_choice is not supported",
];

/// Whether `error` is a server refusing native tools for the model. Only a refused request counts
/// (`BadRequest`, or `Server` because llama.cpp answers with 500): auth, quota, rate limits,
/// overload, network failures and timeouts never do, whatever they say.
pub(crate) fn refuses_native_tools(error: &ProviderError) -> bool {
    if !matches!(error.category, ErrorCategory::BadRequest | ErrorCategory::Server) {
        return false;
    }
    let text: String =
        error.message.to_lowercase().chars().filter(|c| !matches!(c, '`' | '\'' | '"')).collect();
    TOOL_REFUSALS.iter().any(|wording| text.contains(wording))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ToolMode {
    /// Native tools (the server said so, or did not say otherwise yet).
    Native,
    /// Tools through the text protocol.
    Text,
}

/// Native tools with the text protocol as the fallback, decided per model. See the module docs.
pub struct ToolFallback {
    shared: Arc<Shared>,
}

struct Shared {
    native: Arc<dyn Provider>,
    text: TextToolProtocol,
    /// What each model was found to take; absent until its first request.
    models: Mutex<HashMap<String, ToolMode>>,
}

impl Shared {
    fn mode(&self, model: &str) -> Option<ToolMode> {
        self.models.lock().unwrap_or_else(|e| e.into_inner()).get(model).copied()
    }

    fn remember(&self, model: &str, mode: ToolMode) {
        self.models.lock().unwrap_or_else(|e| e.into_inner()).insert(model.to_owned(), mode);
    }
}

impl ToolFallback {
    pub fn new(native: Arc<dyn Provider>) -> Self {
        let text = TextToolProtocol::new(native.clone());
        Self { shared: Arc::new(Shared { native, text, models: Mutex::new(HashMap::new()) }) }
    }
}

/// Where one request's stream stands.
enum Phase {
    /// Native, and nothing but `Retrying` came yet: a refusal of tools may still switch. Keeps the
    /// request to send it again.
    Deciding(ChunkStream, Box<ChatRequest>),
    /// Everything from here goes through as it comes.
    Through(ChunkStream),
}

#[async_trait]
impl Provider for ToolFallback {
    fn name(&self) -> &str {
        self.shared.native.name()
    }

    fn stream(&self, request: ChatRequest) -> ChunkStream {
        let shared = self.shared.clone();
        Box::pin(stream::once(route(shared, request)).flatten())
    }

    async fn list_models(&self) -> Result<Vec<ModelInfo>, ProviderError> {
        self.shared.native.list_models().await
    }

    async fn validate_credentials(&self) -> Result<(), ProviderError> {
        self.shared.native.validate_credentials().await
    }

    async fn supports_native_tools(&self, model: &str) -> Option<bool> {
        self.shared.native.supports_native_tools(model).await
    }
}

/// Pick the protocol for this request's model, asking the server on its first request.
async fn route(shared: Arc<Shared>, request: ChatRequest) -> ChunkStream {
    let mode = match shared.mode(&request.model) {
        Some(mode) => mode,
        None => {
            let native = shared.native.supports_native_tools(&request.model).await != Some(false);
            if !native {
                tracing::info!(model = %request.model, "model has no native tools; using the text protocol");
                shared.remember(&request.model, ToolMode::Text);
                return with_notice(NOTICE_NO_NATIVE_TOOLS, shared.text.stream(request));
            }
            shared.remember(&request.model, ToolMode::Native);
            ToolMode::Native
        }
    };
    match mode {
        ToolMode::Text => shared.text.stream(request),
        ToolMode::Native => native_or_fallback(shared, request),
    }
}

fn with_notice(notice: &str, rest: ChunkStream) -> ChunkStream {
    Box::pin(stream::iter([Ok(StreamChunk::Notice(notice.to_owned()))]).chain(rest))
}

/// The native stream, switched to the text protocol if the server refuses tools before the first
/// chunk. A `Retrying` whose error refuses tools switches at once (llama.cpp's refusal is a 500,
/// which the transport would otherwise retry); other `Retrying` chunks go through.
fn native_or_fallback(shared: Arc<Shared>, request: ChatRequest) -> ChunkStream {
    let native = shared.native.stream(request.clone());
    let phase = Phase::Deciding(native, Box::new(request));
    Box::pin(stream::unfold(Some((phase, shared)), |state| async move {
        let (phase, shared) = state?;
        match phase {
            Phase::Through(mut inner) => {
                let item = inner.next().await?;
                Some((item, Some((Phase::Through(inner), shared))))
            }
            Phase::Deciding(mut inner, request) => {
                let item = inner.next().await?;
                let refusal = match &item {
                    Err(error) => refuses_native_tools(error).then_some(error),
                    Ok(StreamChunk::Retrying { error, .. }) => refuses_native_tools(error).then_some(error),
                    Ok(_) => None,
                };
                if let Some(error) = refusal {
                    tracing::info!(
                        model = %request.model, %error,
                        "the server refused native tools; sending again through the text protocol"
                    );
                    drop(inner);
                    shared.remember(&request.model, ToolMode::Text);
                    let text = shared.text.stream(*request);
                    let notice = Ok(StreamChunk::Notice(NOTICE_TOOLS_REFUSED.to_owned()));
                    return Some((notice, Some((Phase::Through(text), shared))));
                }
                let next = match &item {
                    Ok(StreamChunk::Retrying { .. }) => Phase::Deciding(inner, request),
                    _ => Phase::Through(inner),
                };
                Some((item, Some((next, shared))))
            }
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(category: ErrorCategory, message: &str) -> ProviderError {
        ProviderError::new(category, message)
    }

    #[test]
    fn refusals_of_tools_are_recognised() {
        for message in [
            "Ollama refused the request (400 registry.ollama.ai/library/gemma:2b does not support tools).",
            "The server at http://x/v1 refused the request (400 \"auto\" tool choice requires \
             --enable-auto-tool-choice and --tool-call-parser to be set).",
            "The server at http://x/v1 refused the request (400 `tools` is not supported).",
            "The server at http://x/v1 refused the request (400 'tool_choice' is not supported).",
        ] {
            assert!(refuses_native_tools(&error(ErrorCategory::BadRequest, message)), "{message}");
        }
        for message in [
            "The server at http://x/v1 had a server error (500 tools param requires --jinja flag). Try again later.",
            "The server at http://x/v1 had a server error (500 Unsupported param: tools). Try again later.",
        ] {
            assert!(refuses_native_tools(&error(ErrorCategory::Server, message)), "{message}");
        }
    }

    #[test]
    fn other_errors_are_not_refusals_of_tools() {
        for (category, message) in [
            (
                ErrorCategory::BadRequest,
                "X refused the request (400 This model's maximum context length is 8192 tokens).",
            ),
            (
                ErrorCategory::BadRequest,
                "X refused the request (400 Invalid 'tools[0].function.name': string too long).",
            ),
            (ErrorCategory::Server, "X had a server error (500 boom). Try again later."),
            (ErrorCategory::Auth, "X rejected the API key (401 does not support tools)."),
            (ErrorCategory::RateLimited, "X is rate-limiting requests (429 does not support tools)."),
            (ErrorCategory::Network, "Could not reach X (does not support tools)."),
        ] {
            assert!(!refuses_native_tools(&error(category, message)), "{message}");
        }
    }
}

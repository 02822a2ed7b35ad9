//! Providers: one trait, one chunk sequence, whatever the wire format.
//!
//! Every provider turns its stream into the same [`StreamChunk`] sequence:
//! `Start`, then any of `Text` / `Thinking` / `ThinkingSignature` / `ToolCallStart` →
//! `ToolCallDelta`* → `ToolCallEnd`, `Usage`, and finally `End`. A failure ends the stream with an
//! `Err(ProviderError)`; a stream that stops without its terminator is such a failure.
//! Before anything of the answer (only `Start` and `Usage` may have come), a provider may yield
//! `Retrying` chunks while it waits to send the request again — a `Start` is never repeated — and
//! before `Start`, `Notice` chunks that tell the user how the message is being produced.
//!
//! Build providers with [`build_provider`]; the wire formats live in `anthropic`, `openai` (also
//! every OpenAI-compatible server) and `ollama`, and [`TextToolProtocol`] gives tools to models
//! without native tool calling — chosen by setting, or on its own by [`ToolFallback`] when a model is
//! known not to take native tools or its server refuses them.

pub mod anthropic;
mod chunk_queue;
mod common;
mod error;
mod factory;
pub(crate) mod http;
pub mod learned;
pub mod ndjson;
pub mod ollama;
pub mod openai;
mod reach;
mod retry;
pub mod sse;
mod sse_feed;
pub mod text_protocol;
mod tool_fallback;
mod transport;

#[cfg(test)]
mod plain_errors_tests;

use std::pin::Pin;
use std::time::Duration;

use async_trait::async_trait;
use futures::{Stream, StreamExt};
use serde::{Deserialize, Serialize};
use warden_protocol::{Message, StopReason, ToolDefinition, Usage};

pub use error::{ErrorCategory, ProviderError};
pub use factory::{build_provider, ProviderKind, ProviderOptions, DEFAULT_IDLE_TIMEOUT};
pub(crate) use http::same_origin_redirects;
pub use learned::{LearnedAt, LearnedFacts};
pub use retry::RetryPolicy;
pub use text_protocol::TextToolProtocol;
pub use tool_fallback::ToolFallback;

/// One step of a streamed assistant message, provider-agnostic.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamChunk {
    /// The request failed before anything of the answer was streamed and will be sent again after
    /// `delay`: it failed before its body, or its stream broke off right after `Start` (then the
    /// next attempt's `Start` is not repeated). `attempt` is the attempt that failed (1-based).
    Retrying {
        attempt: u32,
        delay: Duration,
        error: ProviderError,
    },
    /// Something the user should know about how this message is produced, in words for them (e.g.
    /// that the tools are described in the prompt because the model has no native tool calling).
    /// Only ever comes before `Start`.
    Notice(String),
    /// The message began. `message_id` is the provider's id when it gives one.
    Start {
        message_id: Option<String>,
        model: Option<String>,
    },
    Text(String),
    Thinking(String),
    /// The signature of the current thinking block (replaces, never appends).
    ThinkingSignature(String),
    /// Encrypted reasoning to be echoed back verbatim.
    RedactedThinking(String),
    ToolCallStart {
        tool_id: String,
        tool_name: String,
    },
    /// A fragment of the tool input JSON; concatenate all fragments of a call, parse at the end.
    ToolCallDelta {
        tool_id: String,
        partial_json: String,
    },
    ToolCallEnd {
        tool_id: String,
    },
    /// A whole call the model wrote that could not be read (a malformed block of the text tool
    /// protocol): `written` is the block exactly as written, kept in the history so the model sees
    /// its own text again; `reason` says what is wrong with it and goes back as the call's failed
    /// result, so the model can write it again correctly.
    ToolCallUnreadable {
        tool_id: String,
        tool_name: String,
        written: String,
        reason: String,
    },
    /// Usage so far. Later values replace earlier ones; never add them.
    Usage(Usage),
    End {
        stop_reason: StopReason,
    },
}

pub type ChunkStream = Pin<Box<dyn Stream<Item = Result<StreamChunk, ProviderError>> + Send>>;

/// How long a lookup of a model's facts (its context window) may take before it counts as silence.
pub const LOOKUP_TIME: Duration = Duration::from_secs(3);

/// Reasoning settings; providers without reasoning ignore it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThinkingConfig {
    pub budget_tokens: u32,
}

/// Everything a provider needs for one assistant message.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ChatRequest {
    pub model: String,
    pub system: Option<String>,
    pub messages: Vec<Message>,
    pub tools: Vec<ToolDefinition>,
    pub max_tokens: u32,
    pub thinking: Option<ThinkingConfig>,
    /// Whether the model may call the tools it is shown.
    pub tool_choice: ToolChoice,
}

/// Whether the model may call tools in this message. The tools are still described when they
/// may not be called, because a history with tool calls needs their definitions (Anthropic
/// refuses such a request otherwise).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ToolChoice {
    #[default]
    Auto,
    /// Answer in text only (the context budget's last request).
    None,
}

/// A model a provider offers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelInfo {
    pub id: String,
    pub display_name: Option<String>,
    /// Whether the model takes native tool definitions; `None` when the provider does not say.
    pub supports_tools: Option<bool>,
    pub context_window: Option<u32>,
}

/// A source of assistant messages. `stream` is the one thing a provider must do.
#[async_trait]
pub trait Provider: Send + Sync {
    /// The wire protocol's name: `anthropic`, `openai`, `ollama`.
    fn name(&self) -> &str;

    /// Stream the answer to `request`. All I/O (connecting, retrying, reading) happens inside the
    /// returned stream, so dropping it cancels everything at once.
    fn stream(&self, request: ChatRequest) -> ChunkStream;

    async fn list_models(&self) -> Result<Vec<ModelInfo>, ProviderError> {
        Ok(Vec::new())
    }

    /// Whether `model` takes native tool definitions, when the server says so (Ollama's
    /// `/api/show` capabilities); `None` when it is not known. Never fails: not knowing is `None`.
    async fn supports_native_tools(&self, _model: &str) -> Option<bool> {
        None
    }

    /// Whether the server honours native tools for `model`, found out by asking the model to call
    /// a tool once: `Some(false)` when a server that accepts `tools` silently ignored them (the
    /// answer came back as text). Only servers on this machine or a private network are asked,
    /// never a paid API; `None` when not asked or the answer says nothing.
    async fn probe_native_tools(&self, _model: &str) -> Option<bool> {
        None
    }

    /// How large `model`'s context window is, when the server says (its model list; llama.cpp's
    /// `/props`, LM Studio's model info, Ollama's `/api/show`). `None` when it does not say, or
    /// does not answer in time: never a guess.
    async fn context_window(&self, model: &str) -> Option<u32> {
        let models = tokio::time::timeout(LOOKUP_TIME, self.list_models()).await.ok()?.ok()?;
        // Ollama lists `llama3.2:latest` for a model asked for as `llama3.2`.
        let same = |id: &str| id == model || id.strip_suffix(":latest") == Some(model);
        models.into_iter().find(|m| same(&m.id)).and_then(|m| m.context_window)
    }

    /// Check that the configured key is accepted, without spending tokens where possible.
    async fn validate_credentials(&self) -> Result<(), ProviderError> {
        self.list_models().await.map(|_| ())
    }
}

/// The text of a whole answer to `request`, for callers that want the answer and not its stream
/// (a compaction's summary, an MCP server's sampling request): the text chunks joined, everything
/// else left out, the first error returned. Dropping the future drops the stream, which stops the
/// request.
pub async fn answer_text(provider: &dyn Provider, request: ChatRequest) -> Result<String, ProviderError> {
    let mut stream = provider.stream(request);
    let mut text = String::new();
    while let Some(chunk) = stream.next().await {
        if let StreamChunk::Text(delta) = chunk? {
            text.push_str(&delta);
        }
    }
    Ok(text)
}

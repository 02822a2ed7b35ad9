//! Tools for every model, without a setting: native tool calling where the model takes it, the
//! text tool protocol where it does not.
//!
//! [`ToolFallback`] wraps a provider speaking native tools. For each model it decides once and
//! remembers for as long as it lives (a session), and — when the engine gave it a place to keep
//! them ([`LearnedAt`]) — between sessions, per (base URL, model):
//!
//! 1. A decision kept earlier (Warden's or the user's, Settings → Providers) is used as it is.
//! 2. Before the first request for a model it asks the provider whether the model takes native
//!    tools ([`Provider::supports_native_tools`]: Ollama's `/api/show` capabilities). A model known
//!    not to goes straight to the [`TextToolProtocol`].
//! 3. Otherwise, on a server on this machine or a private network, one probe asks the model to
//!    call a tool ([`Provider::probe_native_tools`]): a server that accepts `tools` and silently
//!    ignores them (llama-cpp-python with a chat format that has no function calling) answers in
//!    text, and the model goes to the text protocol. Never a paid API.
//! 4. Otherwise the request goes out natively. If the server refuses it — before anything was
//!    streamed — with an error that names tools ([`refuses_native_tools`]), the same request is
//!    sent once more through the text protocol and the model is remembered as a text model. Any
//!    other error goes through unchanged; the text protocol never falls back again.
//! 5. While native: when tools were offered and the model answers twice in a row with a tool call
//!    written as text ([`writes_calls_as_text`]) instead of a native call, the next request goes
//!    through the text protocol.
//!
//! Every switch is told to the user once per model, as a [`StreamChunk::Notice`] before the
//! message's `Start`, and kept (steps 3–5) so Settings can show and undo it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use futures::{stream, StreamExt};

use warden_protocol::{ToolsDecidedBy, ToolsDecision};

use super::learned::LearnedAt;
use super::text_protocol::TextToolProtocol;
use super::{ChatRequest, ChunkStream, ErrorCategory, ModelInfo, Provider, ProviderError, StreamChunk};

/// Told when the model is known not to take native tools.
pub(crate) const NOTICE_NO_NATIVE_TOOLS: &str =
    "This model has no native tool calling; Warden describes the tools in the prompt instead.";
/// Told when the server refused native tools for the model.
pub(crate) const NOTICE_TOOLS_REFUSED: &str =
    "The server refused native tool calling for this model; Warden describes the tools in the prompt instead.";
/// Told when the probe found that the server ignores the tools it is sent.
pub(crate) const NOTICE_TOOLS_IGNORED: &str = "The server ignores the tools Warden sends this model (asked to call \
one, the model answered in text); Warden describes the tools in the prompt instead. Settings → Providers can undo this.";
/// Told when the model wrote its calls as text twice in a row.
pub(crate) const NOTICE_CALLS_AS_TEXT: &str = "The model wrote its tool calls as text twice in a row instead of \
calling the tools; from this message on, Warden describes the tools in the prompt. Settings → Providers can undo this.";

/// Answers in a row that wrote a call as text, after which a model goes to the text protocol.
const CALLS_AS_TEXT_TO_SWITCH: u32 = 2;
/// The most answer text kept to look for a call written as text (the start is what matters).
const WATCHED_TEXT: usize = 64 * 1024;

/// Whether an answer that made no native call wrote one as text instead: a ```` ```tool ````
/// block, a `<tool_call>` tag (the Hermes, Qwen and SmolLM2 templates' own), or a JSON object
/// naming one of the tools offered (`"name": "file_read"`).
pub(crate) fn writes_calls_as_text(text: &str, tools: &[String]) -> bool {
    if text.contains("```tool") || text.contains("<tool_call>") {
        return true;
    }
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    tools.iter().any(|name| compact.contains(&format!("\"name\":\"{name}\"")))
}

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

/// What is known about one model in this session.
#[derive(Debug, Clone, Default)]
struct ModelState {
    /// `None` until the model's first request with tools decides it.
    mode: Option<ToolMode>,
    /// Answers in a row that wrote a call as text while native tools were offered.
    calls_as_text: u32,
    /// Said before the next message's `Start` (a switch decided at the end of an answer).
    notice: Option<String>,
}

/// Native tools with the text protocol as the fallback, decided per model. See the module docs.
pub struct ToolFallback {
    shared: Arc<Shared>,
}

struct Shared {
    native: Arc<dyn Provider>,
    text: TextToolProtocol,
    models: Mutex<HashMap<String, ModelState>>,
    /// Where decisions are kept between sessions (the engine's settings); `None` in a bare
    /// provider, which then never probes either.
    learned: Option<LearnedAt>,
}

impl Shared {
    fn with_model<T>(&self, model: &str, f: impl FnOnce(&mut ModelState) -> T) -> T {
        let mut models = self.models.lock().unwrap_or_else(|e| e.into_inner());
        f(models.entry(model.to_owned()).or_default())
    }

    fn mode(&self, model: &str) -> Option<ToolMode> {
        self.with_model(model, |state| state.mode)
    }

    fn remember(&self, model: &str, mode: ToolMode) {
        self.with_model(model, |state| state.mode = Some(mode));
    }

    /// Remember `mode` for the session and keep Warden's decision for the next ones.
    fn decide(&self, model: &str, native: bool, by: ToolsDecidedBy, reason: &str) {
        self.remember(model, if native { ToolMode::Native } else { ToolMode::Text });
        if let Some(learned) = &self.learned {
            learned
                .remember_tools(model, ToolsDecision { native, decided_by: by, reason: reason.to_owned() });
        }
    }

    fn take_notice(&self, model: &str) -> Option<String> {
        self.with_model(model, |state| state.notice.take())
    }

    /// One answer of a native request with tools is over: count a call written as text, and
    /// switch after [`CALLS_AS_TEXT_TO_SWITCH`] in a row.
    fn answered(&self, model: &str, wrote_call_as_text: bool) {
        let switch = self.with_model(model, |state| {
            state.calls_as_text = if wrote_call_as_text { state.calls_as_text + 1 } else { 0 };
            let switch = state.calls_as_text >= CALLS_AS_TEXT_TO_SWITCH && state.mode != Some(ToolMode::Text);
            if switch {
                state.notice = Some(NOTICE_CALLS_AS_TEXT.to_owned());
            }
            switch
        });
        if switch {
            tracing::info!(%model, "the model writes its calls as text; using the text protocol");
            self.decide(
                model,
                false,
                ToolsDecidedBy::TextBlocks,
                "the model answered twice in a row with a tool call written as text instead of a native call",
            );
        }
    }
}

impl ToolFallback {
    pub fn new(native: Arc<dyn Provider>) -> Self {
        Self::with_learned(native, None)
    }

    /// A fallback that keeps its decisions in `learned` and may probe a local server.
    pub fn with_learned(native: Arc<dyn Provider>, learned: Option<LearnedAt>) -> Self {
        let text = TextToolProtocol::new(native.clone());
        Self { shared: Arc::new(Shared { native, text, models: Mutex::new(HashMap::new()), learned }) }
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

    async fn probe_native_tools(&self, model: &str) -> Option<bool> {
        self.shared.native.probe_native_tools(model).await
    }

    async fn context_window(&self, model: &str) -> Option<u32> {
        self.shared.native.context_window(model).await
    }
}

/// Pick the protocol for this request's model, deciding it on its first request with tools.
async fn route(shared: Arc<Shared>, request: ChatRequest) -> ChunkStream {
    let model = request.model.clone();
    let mode = match shared.mode(&model) {
        Some(mode) => mode,
        None => match decide_first(&shared, &request).await {
            Decided::Mode(mode) => mode,
            Decided::Switched(notice) => return with_notice(notice, shared.text.stream(request)),
            // No tools offered: nothing to decide yet.
            Decided::Later => return shared.native.stream(request),
        },
    };
    let notice = shared.take_notice(&model);
    let stream = match mode {
        ToolMode::Text => shared.text.stream(request),
        ToolMode::Native => native_or_fallback(shared, request),
    };
    match notice {
        Some(notice) => with_notice(&notice, stream),
        None => stream,
    }
}

enum Decided {
    Mode(ToolMode),
    /// The text protocol, and the notice that says why.
    Switched(&'static str),
    Later,
}

/// The first decision for a model: a kept one, the server's word, the probe, else native.
async fn decide_first(shared: &Shared, request: &ChatRequest) -> Decided {
    let model = &request.model;
    if let Some(kept) = shared.learned.as_ref().and_then(|learned| learned.tools(model)) {
        let mode = if kept.native { ToolMode::Native } else { ToolMode::Text };
        shared.remember(model, mode);
        if !kept.native {
            let notice = match kept.decided_by {
                ToolsDecidedBy::User => "Tools are described in the prompt for this model, as chosen in Settings → Providers.".to_owned(),
                _ => format!("Tools are described in the prompt for this model: {}. Settings → Providers can undo this.", kept.reason),
            };
            shared.with_model(model, |state| state.notice = Some(notice));
        }
        return Decided::Mode(mode);
    }
    if shared.native.supports_native_tools(model).await == Some(false) {
        tracing::info!(%model, "model has no native tools; using the text protocol");
        shared.remember(model, ToolMode::Text);
        return Decided::Switched(NOTICE_NO_NATIVE_TOOLS);
    }
    if request.tools.is_empty() {
        return Decided::Later;
    }
    if shared.learned.is_some() {
        match shared.native.probe_native_tools(model).await {
            Some(false) => {
                shared.decide(model, false, ToolsDecidedBy::Probe, "asked to call a tool, the model answered in text: the server ignores the tools it is sent");
                return Decided::Switched(NOTICE_TOOLS_IGNORED);
            }
            Some(true) => shared.decide(
                model,
                true,
                ToolsDecidedBy::Probe,
                "asked to call a tool, the model made a native call",
            ),
            None => {}
        }
    }
    shared.remember(model, ToolMode::Native);
    Decided::Mode(ToolMode::Native)
}

fn with_notice(notice: &str, rest: ChunkStream) -> ChunkStream {
    Box::pin(stream::iter([Ok(StreamChunk::Notice(notice.to_owned()))]).chain(rest))
}

/// The native stream, switched to the text protocol if the server refuses tools before the first
/// chunk. A `Retrying` whose error refuses tools switches at once (llama.cpp's refusal is a 500,
/// which the transport would otherwise retry); other `Retrying` chunks go through. An answer to a
/// request with tools is watched for calls written as text.
fn native_or_fallback(shared: Arc<Shared>, request: ChatRequest) -> ChunkStream {
    let native = watched(shared.clone(), &request, shared.native.stream(request.clone()));
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
                    shared.decide(&request.model, false, ToolsDecidedBy::Refusal, &error.message);
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

/// `stream` as it is, noting at its `End` whether a request with tools got a call written as
/// text instead of a native one.
fn watched(shared: Arc<Shared>, request: &ChatRequest, stream: ChunkStream) -> ChunkStream {
    if request.tools.is_empty() {
        return stream;
    }
    let tools: Vec<String> = request.tools.iter().map(|t| t.name.clone()).collect();
    let model = request.model.clone();
    let mut text = String::new();
    let mut native_call = false;
    Box::pin(stream.inspect(move |item| match item {
        Ok(StreamChunk::Text(delta)) if text.len() < WATCHED_TEXT => text.push_str(delta),
        Ok(StreamChunk::ToolCallStart { .. }) => native_call = true,
        Ok(StreamChunk::End { .. }) => {
            shared.answered(&model, !native_call && writes_calls_as_text(&text, &tools));
        }
        _ => {}
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

    #[test]
    fn calls_written_as_text_are_recognised() {
        let tools = ["file_read".to_owned(), "list_dir".to_owned()];
        for text in [
            "Sure.\n```tool\n{\"name\": \"file_read\", \"args\": {}}\n```",
            "<tool_call>\n{\"name\": \"list_dir\", \"arguments\": {}}\n</tool_call>",
            "I will call {\n  \"name\" :  \"file_read\", \"arguments\": {\"path\": \"a\"}}",
        ] {
            assert!(writes_calls_as_text(text, &tools), "{text}");
        }
        for text in ["The file is named README.md.", "{\"name\": \"Alice\"}", "use file_read to read it"] {
            assert!(!writes_calls_as_text(text, &tools), "{text}");
        }
    }
}

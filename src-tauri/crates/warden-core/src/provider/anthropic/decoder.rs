//! Anthropic's SSE events → chunks.
//!
//! Content blocks are keyed by `index` (parallel tool use has several); `input_json_delta`
//! fragments are passed on untouched — they split keys, escapes and UTF-8 sequences, so only the
//! concatenation is JSON. `output_tokens` in `message_delta` is cumulative: it replaces.

use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};

use serde::Deserialize;
use serde_json::Value;
use warden_protocol::{StopReason, Usage};

use crate::provider::chunk_queue::ChunkQueue;
use crate::provider::common::{null_as_default, WireText};
use crate::provider::http::classify_stream_error;
use crate::provider::sse_feed::{SseEvents, SseFeed};
use crate::provider::transport::ChunkResult;
use crate::provider::{ProviderError, StreamChunk};
use crate::secrets::ApiKey;

#[derive(Deserialize)]
struct Event<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(default, deserialize_with = "null_as_default")]
    index: u64,
    #[serde(borrow, default)]
    delta: Option<Delta<'a>>,
    #[serde(default)]
    content_block: Option<Value>,
    #[serde(default)]
    message: Option<MessageStart>,
    #[serde(default)]
    usage: Option<WireUsage>,
    #[serde(default)]
    error: Option<Value>,
}

#[derive(Deserialize)]
struct Delta<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<WireText<'a>>,
    #[serde(borrow, default)]
    text: Option<WireText<'a>>,
    #[serde(borrow, default)]
    thinking: Option<WireText<'a>>,
    #[serde(default)]
    signature: Option<String>,
    #[serde(borrow, default)]
    partial_json: Option<WireText<'a>>,
    #[serde(default)]
    stop_reason: Option<String>,
}

#[derive(Deserialize)]
struct MessageStart {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    usage: Option<WireUsage>,
}

#[derive(Deserialize, Default)]
struct WireUsage {
    input_tokens: Option<u32>,
    cache_creation_input_tokens: Option<u32>,
    cache_read_input_tokens: Option<u32>,
    output_tokens: Option<u32>,
}

enum Block {
    Tool { id: String, start_input: Option<Value>, had_delta: bool },
    Other,
}

pub(crate) struct AnthropicDecoder {
    feed: SseFeed,
    blocks: HashMap<u64, Block>,
    stop_reason: Option<StopReason>,
    usage: Usage,
    key: Option<ApiKey>,
}

impl AnthropicDecoder {
    pub(crate) fn new(key: Option<ApiKey>) -> Self {
        Self {
            feed: SseFeed::default(),
            blocks: HashMap::new(),
            stop_reason: None,
            usage: Usage::default(),
            key,
        }
    }

    fn handle_event(&mut self, data: &str, out: &mut VecDeque<ChunkResult>) -> Result<(), ProviderError> {
        let event: Event<'_> = serde_json::from_str(data).map_err(|e| {
            ProviderError::invalid_response("Anthropic sent an answer Warden could not read. Try again.")
                .with_detail(format!("an event that is not valid JSON: {e}"))
        })?;
        match event.kind.as_ref() {
            "message_start" => {
                let message = event.message.unwrap_or(MessageStart { id: None, model: None, usage: None });
                out.push_back(Ok(StreamChunk::Start { message_id: message.id, model: message.model }));
                if let Some(usage) = message.usage {
                    self.apply_usage(&usage);
                    out.push_back(Ok(StreamChunk::Usage(self.usage)));
                }
            }
            "content_block_start" => self.block_start(event.index, event.content_block, out),
            "content_block_delta" => {
                if let Some(delta) = event.delta {
                    self.block_delta(event.index, delta, out);
                }
            }
            "content_block_stop" => {
                if let Some(Block::Tool { id, start_input, had_delta }) = self.blocks.remove(&event.index) {
                    // Input given whole at the start and never streamed (not seen from the API
                    // itself, but legal): pass it on as the one fragment.
                    if let (false, Some(input)) = (had_delta, start_input) {
                        out.push_back(Ok(StreamChunk::ToolCallDelta {
                            tool_id: id.clone(),
                            partial_json: input.to_string(),
                        }));
                    }
                    out.push_back(Ok(StreamChunk::ToolCallEnd { tool_id: id }));
                }
            }
            "message_delta" => {
                if let Some(reason) = event.delta.and_then(|d| d.stop_reason) {
                    self.stop_reason = Some(stop_reason(&reason));
                }
                if let Some(usage) = event.usage {
                    self.apply_usage(&usage);
                    out.push_back(Ok(StreamChunk::Usage(self.usage)));
                }
            }
            "message_stop" => {
                // Blocks never stopped still end, so the loop never waits on a call forever.
                let mut open: Vec<(u64, Block)> = self.blocks.drain().collect();
                open.sort_by_key(|(index, _)| *index);
                for (_, block) in open {
                    if let Block::Tool { id, .. } = block {
                        out.push_back(Ok(StreamChunk::ToolCallEnd { tool_id: id }));
                    }
                }
                let stop_reason = self.stop_reason.unwrap_or(StopReason::EndTurn);
                out.push_back(Ok(StreamChunk::End { stop_reason }));
                self.feed.finished = true;
            }
            "error" => {
                let error = event.error.unwrap_or(Value::Null);
                return Err(classify_stream_error("Anthropic", &error, self.key.as_ref()));
            }
            // `ping` and event types added after this was written.
            _ => {}
        }
        Ok(())
    }

    fn block_start(&mut self, index: u64, block: Option<Value>, out: &mut VecDeque<ChunkResult>) {
        let Some(block) = block else { return };
        let text_of = |name: &str| block.get(name).and_then(Value::as_str).unwrap_or_default().to_owned();
        let state = match block.get("type").and_then(Value::as_str) {
            Some("tool_use") => {
                let id = text_of("id");
                out.push_back(Ok(StreamChunk::ToolCallStart {
                    tool_id: id.clone(),
                    tool_name: text_of("name"),
                }));
                let start_input =
                    block.get("input").filter(|v| v.as_object().is_some_and(|o| !o.is_empty())).cloned();
                Block::Tool { id, start_input, had_delta: false }
            }
            Some("text") => {
                out.push_text(&text_of("text"));
                Block::Other
            }
            Some("thinking") => {
                out.push_thinking(&text_of("thinking"));
                let signature = text_of("signature");
                if !signature.is_empty() {
                    out.push_back(Ok(StreamChunk::ThinkingSignature(signature)));
                }
                Block::Other
            }
            Some("redacted_thinking") => {
                out.push_back(Ok(StreamChunk::RedactedThinking(text_of("data"))));
                Block::Other
            }
            _ => Block::Other,
        };
        self.blocks.insert(index, state);
    }

    fn block_delta(&mut self, index: u64, delta: Delta<'_>, out: &mut VecDeque<ChunkResult>) {
        match delta.kind.as_deref() {
            Some("text_delta") => out.push_text(delta.text.as_deref().unwrap_or("")),
            Some("thinking_delta") => out.push_thinking(delta.thinking.as_deref().unwrap_or("")),
            Some("signature_delta") => {
                if let Some(signature) = delta.signature {
                    out.push_back(Ok(StreamChunk::ThinkingSignature(signature)));
                }
            }
            Some("input_json_delta") => {
                let fragment = delta.partial_json.as_deref().unwrap_or("");
                if let Some(Block::Tool { id, had_delta, .. }) = self.blocks.get_mut(&index) {
                    if !fragment.is_empty() {
                        *had_delta = true;
                        out.push_tool_fragment(id, fragment);
                    }
                }
            }
            _ => {}
        }
    }

    fn apply_usage(&mut self, usage: &WireUsage) {
        // Cached prompt tokens count against the context window like any other input.
        if let Some(input) = usage.input_tokens {
            self.usage.input_tokens = input
                .saturating_add(usage.cache_creation_input_tokens.unwrap_or(0))
                .saturating_add(usage.cache_read_input_tokens.unwrap_or(0));
        }
        if let Some(output) = usage.output_tokens {
            self.usage.output_tokens = output;
        }
    }
}

fn stop_reason(reason: &str) -> StopReason {
    match reason {
        "tool_use" => StopReason::ToolUse,
        "max_tokens" | "model_context_window_exceeded" => StopReason::MaxTokens,
        "stop_sequence" => StopReason::StopSequence,
        "refusal" => StopReason::Refusal,
        _ => StopReason::EndTurn,
    }
}

impl SseEvents for AnthropicDecoder {
    fn feed_state(&mut self) -> &mut SseFeed {
        &mut self.feed
    }

    fn feed_state_ref(&self) -> &SseFeed {
        &self.feed
    }

    fn ended_early(&self) -> ProviderError {
        if let Some(error) = crate::provider::sse_feed::not_a_stream("Anthropic", &self.feed) {
            return error;
        }
        ProviderError::cut_off(
            crate::provider::ErrorCategory::InvalidResponse,
            "Anthropic closed the connection before `message_stop`.",
        )
    }

    fn handle_data(&mut self, data: &str, out: &mut VecDeque<ChunkResult>) -> Result<(), ProviderError> {
        self.handle_event(data, out)
    }
}

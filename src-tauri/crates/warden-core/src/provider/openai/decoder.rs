//! Chat Completions SSE chunks → chunks, tolerant of what compatible servers really send.
//!
//! Tool calls are keyed by `index` (by id, then "the last call", when a server omits it);
//! `arguments` is appended from every delta including the first (llama.cpp puts `{"` there); a
//! repeated id or an empty `name` never overwrites; usage is taken from the last chunk that has
//! it. `[DONE]` ends the message: every call gets its `ToolCallEnd`, then `Usage`, then `End`.

use std::collections::VecDeque;

use serde::Deserialize;
use serde_json::Value;
use warden_protocol::{StopReason, Usage};

use crate::provider::chunk_queue::ChunkQueue;
use crate::provider::common::{generate_call_id, null_as_default, WireText};
use crate::provider::http::classify_stream_error;
use crate::provider::sse_feed::{SseEvents, SseFeed};
use crate::provider::transport::ChunkResult;
use crate::provider::{ProviderError, StreamChunk};
use crate::secrets::ApiKey;

#[derive(Deserialize)]
struct Chunk<'a> {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    model: Option<String>,
    #[serde(borrow, default, deserialize_with = "null_as_default")]
    choices: Vec<Choice<'a>>,
    #[serde(default)]
    usage: Option<WireUsage>,
    #[serde(default)]
    error: Option<Value>,
}

#[derive(Deserialize)]
struct Choice<'a> {
    #[serde(borrow, default)]
    delta: Option<Delta<'a>>,
    #[serde(default)]
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct Delta<'a> {
    #[serde(borrow, default)]
    content: Option<WireText<'a>>,
    #[serde(borrow, default)]
    reasoning_content: Option<WireText<'a>>,
    /// OpenRouter and Ollama's compatible endpoint call it `reasoning`.
    #[serde(borrow, default)]
    reasoning: Option<WireText<'a>>,
    #[serde(borrow, default, deserialize_with = "null_as_default")]
    tool_calls: Vec<ToolCallDelta<'a>>,
}

#[derive(Deserialize)]
struct ToolCallDelta<'a> {
    #[serde(default)]
    index: Option<u64>,
    #[serde(default)]
    id: Option<String>,
    #[serde(borrow, default)]
    function: Option<FunctionDelta<'a>>,
}

#[derive(Deserialize)]
struct FunctionDelta<'a> {
    #[serde(default)]
    name: Option<String>,
    #[serde(borrow, default)]
    arguments: Option<WireText<'a>>,
}

#[derive(Deserialize)]
struct WireUsage {
    #[serde(default)]
    prompt_tokens: Option<u32>,
    #[serde(default)]
    completion_tokens: Option<u32>,
}

struct Call {
    index: Option<u64>,
    id: Option<String>,
    name: Option<String>,
    started: bool,
    /// Arguments that arrived before the id and name were known.
    pending: String,
}

/// How an answer whose body held no event is said (nothing, or only `: ping` comments):
/// llama-cpp-python's answer to a request that does not fit, that its chat template cannot
/// render, or whose tool call `chatml-function-calling` cannot stream; the error comes after
/// the `200`.
pub(crate) const EMPTY_STREAM: &str = "answered with an empty stream";

pub(crate) struct OpenAiDecoder {
    label: String,
    feed: SseFeed,
    calls: Vec<Call>,
    started: bool,
    finish_reason: Option<StopReason>,
    usage: Option<Usage>,
    key: Option<ApiKey>,
}

impl OpenAiDecoder {
    pub(crate) fn new(label: String, key: Option<ApiKey>) -> Self {
        Self {
            label,
            feed: SseFeed::default(),
            calls: Vec::new(),
            started: false,
            finish_reason: None,
            usage: None,
            key,
        }
    }

    fn handle_event(&mut self, data: &str, out: &mut VecDeque<ChunkResult>) -> Result<(), ProviderError> {
        if data.starts_with("[DONE]") {
            self.done(out);
            return Ok(());
        }
        let chunk: Chunk<'_> = serde_json::from_str(data).map_err(|e| {
            ProviderError::invalid_response(format!(
                "{} sent an answer Warden could not read. Try again.",
                self.label
            ))
            .with_detail(format!("a chunk that is not valid JSON: {e}"))
        })?;
        if let Some(error) = chunk.error.filter(|e| !e.is_null()) {
            return Err(classify_stream_error(&self.label, &error, self.key.as_ref()));
        }
        if !self.started {
            self.started = true;
            out.push_back(Ok(StreamChunk::Start { message_id: chunk.id, model: chunk.model }));
        }
        for choice in chunk.choices {
            if let Some(delta) = choice.delta {
                self.delta(delta, out);
            }
            if let Some(reason) = choice.finish_reason {
                self.finish_reason = Some(stop_reason(&reason));
            }
        }
        if let Some(usage) = chunk.usage {
            // Sent twice by some servers (Groq, OpenRouter): the last one counts, never the sum.
            self.usage = Some(Usage {
                input_tokens: usage.prompt_tokens.unwrap_or(0),
                output_tokens: usage.completion_tokens.unwrap_or(0),
            });
        }
        Ok(())
    }

    fn delta(&mut self, delta: Delta<'_>, out: &mut VecDeque<ChunkResult>) {
        for reasoning in [delta.reasoning_content, delta.reasoning].into_iter().flatten() {
            out.push_thinking(&reasoning);
        }
        if let Some(content) = delta.content {
            out.push_text(&content);
        }
        for call in delta.tool_calls {
            self.tool_call(call, out);
        }
    }

    fn tool_call(&mut self, delta: ToolCallDelta<'_>, out: &mut VecDeque<ChunkResult>) {
        let id = delta.id.filter(|id| !id.is_empty());
        let position = match delta.index {
            Some(index) => self.calls.iter().position(|c| c.index == Some(index)),
            // No index (Gemini's compatible endpoint): a known id, else a new id, else the last call.
            None => match &id {
                Some(id) => self.calls.iter().position(|c| c.id.as_deref() == Some(id)),
                None => self.calls.len().checked_sub(1),
            },
        };
        let position = position.unwrap_or_else(|| {
            self.calls.push(Call {
                index: delta.index,
                id: None,
                name: None,
                started: false,
                pending: String::new(),
            });
            self.calls.len() - 1
        });
        let call = &mut self.calls[position];
        if call.id.is_none() {
            call.id = id;
        }
        let (name, arguments) = match delta.function {
            Some(f) => (f.name.filter(|n| !n.is_empty()), f.arguments),
            None => (None, None),
        };
        if call.name.is_none() {
            call.name = name;
        }
        if let Some(arguments) = arguments.filter(|a| !a.is_empty()) {
            call.pending.push_str(&arguments);
        }
        if !call.started && call.id.is_some() && call.name.is_some() {
            start_call(call, out);
        }
        flush_arguments(call, out);
    }

    fn done(&mut self, out: &mut VecDeque<ChunkResult>) {
        if !self.started {
            out.push_back(Ok(StreamChunk::Start { message_id: None, model: None }));
        }
        for call in &mut self.calls {
            if !call.started {
                // A server that never named the call or gave it an id: make it addressable anyway.
                call.id.get_or_insert_with(generate_call_id);
                call.name.get_or_insert_with(String::new);
                start_call(call, out);
                flush_arguments(call, out);
            }
            if let Some(id) = &call.id {
                out.push_back(Ok(StreamChunk::ToolCallEnd { tool_id: id.clone() }));
            }
        }
        if let Some(usage) = self.usage {
            out.push_back(Ok(StreamChunk::Usage(usage)));
        }
        let mut stop_reason = self.finish_reason.unwrap_or(StopReason::EndTurn);
        // Some servers say `stop` after tool calls; the calls are what matters.
        if !self.calls.is_empty() && stop_reason == StopReason::EndTurn {
            stop_reason = StopReason::ToolUse;
        }
        out.push_back(Ok(StreamChunk::End { stop_reason }));
        self.feed.finished = true;
    }
}

fn start_call(call: &mut Call, out: &mut VecDeque<ChunkResult>) {
    if let (Some(id), Some(name)) = (&call.id, &call.name) {
        out.push_back(Ok(StreamChunk::ToolCallStart { tool_id: id.clone(), tool_name: name.clone() }));
        call.started = true;
    }
}

fn flush_arguments(call: &mut Call, out: &mut VecDeque<ChunkResult>) {
    if let (true, Some(id)) = (call.started && !call.pending.is_empty(), &call.id) {
        out.push_tool_fragment(id, &call.pending);
        call.pending.clear();
    }
}

fn stop_reason(reason: &str) -> StopReason {
    match reason {
        "tool_calls" | "function_call" => StopReason::ToolUse,
        "length" => StopReason::MaxTokens,
        "content_filter" => StopReason::Refusal,
        _ => StopReason::EndTurn,
    }
}

impl SseEvents for OpenAiDecoder {
    fn feed_state(&mut self) -> &mut SseFeed {
        &mut self.feed
    }

    fn feed_state_ref(&self) -> &SseFeed {
        &self.feed
    }

    fn ended_early(&self) -> ProviderError {
        let who = crate::provider::transport::in_sentence(&self.label);
        if !self.feed.fields_seen {
            // Not a dropped connection but a server that streams nothing (see `local.rs`): it is
            // asked once more without streaming, never sent the same stream again.
            return ProviderError::invalid_response(format!("The stream ended early: {who} {EMPTY_STREAM}."));
        }
        if let Some(error) = crate::provider::sse_feed::not_a_stream(&self.label, &self.feed) {
            return error;
        }
        ProviderError::cut_off(
            crate::provider::ErrorCategory::InvalidResponse,
            format!("{} closed the connection before `[DONE]`.", self.label),
        )
    }

    fn handle_data(&mut self, data: &str, out: &mut VecDeque<ChunkResult>) -> Result<(), ProviderError> {
        self.handle_event(data, out)
    }
}

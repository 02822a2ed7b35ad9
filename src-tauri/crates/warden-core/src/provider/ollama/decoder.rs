//! Ollama's NDJSON lines → chunks. Tool calls arrive whole (spread over several lines), so each
//! becomes start → one delta with the serialized arguments → end at once.

use std::collections::VecDeque;

use serde::Deserialize;
use serde_json::Value;
use warden_protocol::{StopReason, Usage};

use crate::provider::chunk_queue::ChunkQueue;
use crate::provider::common::{generate_call_id, null_as_default, WireText};
use crate::provider::http::classify_stream_error;
use crate::provider::ndjson::NdjsonSplitter;
use crate::provider::transport::{ChunkResult, WireDecoder};
use crate::provider::{ProviderError, StreamChunk};
use crate::secrets::ApiKey;

#[derive(Deserialize)]
struct Line<'a> {
    #[serde(default)]
    model: Option<String>,
    #[serde(borrow, default)]
    message: Option<WireMessage<'a>>,
    #[serde(default, deserialize_with = "null_as_default")]
    done: bool,
    #[serde(default)]
    done_reason: Option<String>,
    #[serde(default)]
    prompt_eval_count: Option<u32>,
    #[serde(default)]
    eval_count: Option<u32>,
    #[serde(default)]
    error: Option<Value>,
}

#[derive(Deserialize)]
struct WireMessage<'a> {
    #[serde(borrow, default)]
    content: Option<WireText<'a>>,
    #[serde(borrow, default)]
    thinking: Option<WireText<'a>>,
    #[serde(default, deserialize_with = "null_as_default")]
    tool_calls: Vec<WireToolCall>,
}

#[derive(Deserialize)]
struct WireToolCall {
    #[serde(default)]
    id: Option<String>,
    function: WireFunction,
}

#[derive(Deserialize)]
struct WireFunction {
    name: String,
    #[serde(default)]
    arguments: Value,
}

pub(crate) struct OllamaDecoder {
    lines: NdjsonSplitter,
    started: bool,
    saw_tool_calls: bool,
    finished: bool,
    failed: bool,
    /// The key sent (to a proxy in front of Ollama), taken out of an error line that echoes it.
    key: Option<ApiKey>,
}

impl OllamaDecoder {
    pub(crate) fn new(key: Option<ApiKey>) -> Self {
        Self {
            key,
            lines: NdjsonSplitter::new(),
            started: false,
            saw_tool_calls: false,
            finished: false,
            failed: false,
        }
    }

    fn handle(&mut self, line: &[u8], out: &mut VecDeque<ChunkResult>) -> Result<(), ProviderError> {
        let line: Line<'_> = serde_json::from_slice(line).map_err(|e| {
            ProviderError::invalid_response("Ollama sent an answer Warden could not read. Try again.")
                .with_detail(format!("a line that is not valid JSON: {e}"))
        })?;
        if let Some(error) = line.error.filter(|e| !e.is_null()) {
            return Err(classify_stream_error("Ollama", &error, self.key.as_ref()));
        }
        if !self.started {
            self.started = true;
            out.push_back(Ok(StreamChunk::Start { message_id: None, model: line.model }));
        }
        if let Some(message) = line.message {
            if let Some(thinking) = message.thinking {
                out.push_thinking(&thinking);
            }
            if let Some(content) = message.content {
                out.push_text(&content);
            }
            for call in message.tool_calls {
                self.saw_tool_calls = true;
                let tool_id = call.id.filter(|id| !id.is_empty()).unwrap_or_else(generate_call_id);
                let arguments = if call.function.arguments.is_null() {
                    Value::Object(Default::default())
                } else {
                    call.function.arguments
                };
                out.push_back(Ok(StreamChunk::ToolCallStart {
                    tool_id: tool_id.clone(),
                    tool_name: call.function.name,
                }));
                out.push_back(Ok(StreamChunk::ToolCallDelta {
                    tool_id: tool_id.clone(),
                    partial_json: arguments.to_string(),
                }));
                out.push_back(Ok(StreamChunk::ToolCallEnd { tool_id }));
            }
        }
        if line.done {
            out.push_back(Ok(StreamChunk::Usage(Usage {
                input_tokens: line.prompt_eval_count.unwrap_or(0),
                output_tokens: line.eval_count.unwrap_or(0),
            })));
            let stop_reason = match line.done_reason.as_deref() {
                Some("length") => StopReason::MaxTokens,
                _ if self.saw_tool_calls => StopReason::ToolUse,
                _ => StopReason::EndTurn,
            };
            out.push_back(Ok(StreamChunk::End { stop_reason }));
            self.finished = true;
        }
        Ok(())
    }
}

impl WireDecoder for OllamaDecoder {
    fn feed(&mut self, bytes: &[u8], out: &mut VecDeque<ChunkResult>) {
        if self.finished || self.failed {
            return;
        }
        let mut lines = std::mem::take(&mut self.lines);
        let split = lines.feed(bytes, |line| {
            if self.finished || self.failed {
                return;
            }
            if let Err(error) = self.handle(line, out) {
                out.push_back(Err(error));
                self.failed = true;
            }
        });
        self.lines = lines;
        if let Err(too_large) = split {
            if !self.finished && !self.failed {
                out.push_back(Err(ProviderError::invalid_response(format!(
                    "Ollama's answer could not be read: {too_large}."
                ))));
                self.failed = true;
            }
        }
    }

    fn is_finished(&self) -> bool {
        self.finished || self.failed
    }

    fn finish(&mut self, out: &mut VecDeque<ChunkResult>) {
        if self.is_finished() {
            return;
        }
        // A last object without its newline is still an object.
        let rest = self.lines.remainder().to_vec();
        if !rest.is_empty() {
            if let Err(error) = self.handle(&rest, out) {
                out.push_back(Err(error));
                self.failed = true;
                return;
            }
        }
        if !self.finished {
            out.push_back(Err(ProviderError::cut_off(
                crate::provider::ErrorCategory::InvalidResponse,
                "Ollama closed the connection before `done: true`.",
            )));
        }
    }
}

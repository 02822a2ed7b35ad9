//! Drain a chunk stream into what a client extracts, checking the chunk order on the way.

use std::time::Duration;

use futures::StreamExt;
use serde_json::Value;
use warden_core::provider::{ChunkStream, ProviderError, StreamChunk};
use warden_protocol::{StopReason, Usage};

#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    pub id: String,
    pub name: String,
    /// The concatenated deltas.
    pub raw: String,
    /// `raw` parsed; `""` is `{}` (a tool without arguments); `None` when it is not JSON.
    pub input: Option<Value>,
}

#[derive(Debug, Default)]
pub struct Collected {
    pub chunks: Vec<StreamChunk>,
    pub started: bool,
    pub message_id: Option<String>,
    pub text: String,
    pub thinking: String,
    pub signature: Option<String>,
    pub redacted: Vec<String>,
    pub calls: Vec<Call>,
    pub stop_reason: Option<StopReason>,
    pub usage: Option<Usage>,
    pub retries: Vec<(u32, Duration, ProviderError)>,
    pub notices: Vec<String>,
    pub error: Option<ProviderError>,
}

impl Collected {
    pub fn expect_error(&self) -> &ProviderError {
        assert!(self.stop_reason.is_none(), "a failed stream must not end like a success: {self:?}");
        self.error.as_ref().unwrap_or_else(|| panic!("expected an error, got {self:?}"))
    }
}

pub async fn collect(mut stream: ChunkStream) -> Collected {
    let mut c = Collected::default();
    let mut open: Vec<String> = Vec::new();
    // Something of the answer came: a `Retrying` may come after `Start` only before that.
    let mut answered = false;
    while let Some(item) = stream.next().await {
        assert!(c.error.is_none() && c.stop_reason.is_none(), "nothing may follow End or an error: {item:?}");
        let chunk = match item {
            Ok(chunk) => chunk,
            Err(error) => {
                c.error = Some(error);
                continue;
            }
        };
        c.chunks.push(chunk.clone());
        match chunk {
            StreamChunk::Retrying { attempt, delay, error } => {
                assert!(!answered, "Retrying must come before anything of the answer");
                c.retries.push((attempt, delay, error));
            }
            StreamChunk::Notice(text) => {
                assert!(!c.started, "Notice must come before Start");
                c.notices.push(text);
            }
            StreamChunk::Start { message_id, .. } => {
                assert!(!c.started, "only one Start");
                c.started = true;
                c.message_id = message_id;
            }
            other => {
                assert!(c.started, "{other:?} before Start");
                answered |= !matches!(other, StreamChunk::Usage(_));
                match other {
                    StreamChunk::Text(t) => c.text.push_str(&t),
                    StreamChunk::Thinking(t) => c.thinking.push_str(&t),
                    StreamChunk::ThinkingSignature(s) => c.signature = Some(s),
                    StreamChunk::RedactedThinking(d) => c.redacted.push(d),
                    StreamChunk::ToolCallStart { tool_id, tool_name } => {
                        assert!(c.calls.iter().all(|call| call.id != tool_id), "duplicate call id {tool_id}");
                        open.push(tool_id.clone());
                        c.calls.push(Call { id: tool_id, name: tool_name, raw: String::new(), input: None });
                    }
                    StreamChunk::ToolCallDelta { tool_id, partial_json } => {
                        assert!(open.contains(&tool_id), "delta for a call not open: {tool_id}");
                        let call = c.calls.iter_mut().find(|call| call.id == tool_id).unwrap();
                        call.raw.push_str(&partial_json);
                    }
                    StreamChunk::ToolCallEnd { tool_id } => {
                        let at = open.iter().position(|id| *id == tool_id).expect("end of a call not open");
                        open.remove(at);
                        let call = c.calls.iter_mut().find(|call| call.id == tool_id).unwrap();
                        call.input = if call.raw.trim().is_empty() {
                            Some(Value::Object(Default::default()))
                        } else {
                            serde_json::from_str(&call.raw).ok()
                        };
                    }
                    StreamChunk::ToolCallUnreadable { tool_id, tool_name, written, .. } => {
                        assert!(open.is_empty(), "an unreadable call comes whole, not inside another");
                        c.calls.push(Call { id: tool_id, name: tool_name, raw: written, input: None });
                    }
                    StreamChunk::Usage(u) => c.usage = Some(u),
                    StreamChunk::End { stop_reason } => {
                        assert!(open.is_empty(), "calls still open at End: {open:?}");
                        c.stop_reason = Some(stop_reason);
                    }
                    StreamChunk::Retrying { .. } | StreamChunk::Notice(_) | StreamChunk::Start { .. } => {
                        unreachable!()
                    }
                }
            }
        }
    }
    c
}

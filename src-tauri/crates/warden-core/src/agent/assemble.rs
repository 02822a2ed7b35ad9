//! Builds the assistant message from provider chunks: blocks in the order they were produced,
//! text and thinking appended in place (linear in the stream), tool input fragments concatenated
//! per call and parsed once the call is complete.

use std::collections::HashMap;

use warden_protocol::{ContentBlock, Message, Role, StopReason, ToolUse, Usage};

use crate::provider::StreamChunk;

pub use super::tool_runner::RequestedCall;

#[derive(Debug, Default)]
pub struct MessageBuilder {
    blocks: Vec<ContentBlock>,
    /// Tool call id → (index in `blocks`, accumulated argument JSON).
    open_calls: HashMap<String, (usize, String)>,
    calls: Vec<RequestedCall>,
    stop_reason: Option<StopReason>,
    /// `None` until the provider reports usage (many local servers never do).
    usage: Option<Usage>,
}

impl MessageBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn apply(&mut self, chunk: &StreamChunk) {
        match chunk {
            StreamChunk::Text(text) => match self.blocks.last_mut() {
                Some(ContentBlock::Text { text: last }) => last.push_str(text),
                _ => self.blocks.push(ContentBlock::Text { text: text.clone() }),
            },
            StreamChunk::Thinking(delta) => match self.blocks.last_mut() {
                Some(ContentBlock::Thinking { thinking, .. }) => thinking.push_str(delta),
                _ => self.blocks.push(ContentBlock::Thinking { thinking: delta.clone(), signature: None }),
            },
            StreamChunk::ThinkingSignature(sig) => match self.blocks.last_mut() {
                Some(ContentBlock::Thinking { signature, .. }) => *signature = Some(sig.clone()),
                _ => self
                    .blocks
                    .push(ContentBlock::Thinking { thinking: String::new(), signature: Some(sig.clone()) }),
            },
            StreamChunk::RedactedThinking(data) => {
                self.blocks.push(ContentBlock::RedactedThinking { data: data.clone() });
            }
            StreamChunk::ToolCallStart { tool_id, tool_name } => {
                if !self.open_calls.contains_key(tool_id) {
                    self.blocks.push(ContentBlock::ToolUse(ToolUse {
                        id: tool_id.clone(),
                        name: tool_name.clone(),
                        input: serde_json::Value::Object(serde_json::Map::new()),
                        raw_arguments: None,
                        written: None,
                    }));
                    self.open_calls.insert(tool_id.clone(), (self.blocks.len() - 1, String::new()));
                }
            }
            StreamChunk::ToolCallDelta { tool_id, partial_json } => {
                if let Some((_, raw)) = self.open_calls.get_mut(tool_id) {
                    raw.push_str(partial_json);
                }
            }
            StreamChunk::ToolCallEnd { tool_id } => self.close_call(tool_id),
            StreamChunk::ToolCallUnreadable { tool_id, tool_name, written, reason } => {
                self.blocks.push(ContentBlock::ToolUse(ToolUse {
                    id: tool_id.clone(),
                    name: tool_name.clone(),
                    input: serde_json::Value::Object(serde_json::Map::new()),
                    raw_arguments: None,
                    written: Some(written.clone()),
                }));
                self.calls.push(RequestedCall {
                    id: tool_id.clone(),
                    name: tool_name.clone(),
                    input: Err(reason.clone()),
                });
            }
            StreamChunk::Usage(usage) => self.usage = Some(*usage),
            StreamChunk::End { stop_reason } => self.stop_reason = Some(*stop_reason),
            StreamChunk::Start { .. } | StreamChunk::Retrying { .. } | StreamChunk::Notice(_) => {}
        }
    }

    fn close_call(&mut self, tool_id: &str) {
        let Some((index, raw)) = self.open_calls.remove(tool_id) else { return };
        let Some(ContentBlock::ToolUse(tool_use)) = self.blocks.get_mut(index) else { return };
        let input = parse_input(&raw);
        if let Ok(value) = &input {
            tool_use.input = value.clone();
        }
        tool_use.raw_arguments = Some(raw);
        self.calls.push(RequestedCall { id: tool_use.id.clone(), name: tool_use.name.clone(), input });
    }

    /// What the provider counted, if it reported anything.
    pub fn usage(&self) -> Option<Usage> {
        self.usage
    }

    /// True when the message asked for at least one tool.
    pub fn has_tool_calls(&self) -> bool {
        !self.calls.is_empty() || !self.open_calls.is_empty()
    }

    /// The finished message and its tool calls in the model's order. Calls the provider never
    /// closed are closed here (their input is whatever arrived).
    pub fn finish(mut self) -> (Message, Vec<RequestedCall>, Option<StopReason>) {
        let mut open: Vec<(usize, String)> =
            self.open_calls.iter().map(|(id, (index, _))| (*index, id.clone())).collect();
        open.sort();
        for (_, id) in open {
            self.close_call(&id);
        }
        let order: HashMap<&str, usize> = self
            .blocks
            .iter()
            .enumerate()
            .filter_map(|(i, b)| match b {
                ContentBlock::ToolUse(t) => Some((t.id.as_str(), i)),
                _ => None,
            })
            .collect();
        let mut calls = self.calls;
        calls.sort_by_key(|c| order.get(c.id.as_str()).copied().unwrap_or(usize::MAX));
        (Message { role: Role::Assistant, content: self.blocks }, calls, self.stop_reason)
    }

    /// What was produced so far, without unfinished tool calls (for a cancelled or failed
    /// message, so the history stays valid for the next request).
    pub fn into_partial(self) -> Message {
        let content = self
            .blocks
            .into_iter()
            .filter(|b| matches!(b, ContentBlock::Text { text } if !text.is_empty()))
            .collect();
        Message { role: Role::Assistant, content }
    }
}

/// Tool input JSON: empty means no arguments; anything else must be a JSON object.
fn parse_input(raw: &str) -> Result<serde_json::Value, String> {
    if raw.trim().is_empty() {
        return Ok(serde_json::Value::Object(serde_json::Map::new()));
    }
    match serde_json::from_str::<serde_json::Value>(raw) {
        Ok(value @ serde_json::Value::Object(_)) => Ok(value),
        Ok(other) => Err(format!("tool input must be a JSON object, got {}", kind(&other))),
        Err(e) => Err(format!("tool input is not valid JSON ({e})")),
    }
}

fn kind(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn start(id: &str, name: &str) -> StreamChunk {
        StreamChunk::ToolCallStart { tool_id: id.into(), tool_name: name.into() }
    }
    fn delta(id: &str, s: &str) -> StreamChunk {
        StreamChunk::ToolCallDelta { tool_id: id.into(), partial_json: s.into() }
    }
    fn end(id: &str) -> StreamChunk {
        StreamChunk::ToolCallEnd { tool_id: id.into() }
    }

    #[test]
    fn text_thinking_and_interleaved_calls_keep_their_order() {
        let mut b = MessageBuilder::new();
        for c in [
            StreamChunk::Thinking("let me ".into()),
            StreamChunk::Thinking("think".into()),
            StreamChunk::ThinkingSignature("sig==".into()),
            StreamChunk::Text("Hi ".into()),
            StreamChunk::Text("there".into()),
            start("a", "file_read"),
            start("b", "system_info"),
            delta("a", "{\"pa"),
            delta("b", ""),
            delta("a", "th\": \"x\"}"),
            end("b"),
            end("a"),
            StreamChunk::End { stop_reason: StopReason::ToolUse },
        ] {
            b.apply(&c);
        }
        let (message, calls, stop) = b.finish();
        assert_eq!(stop, Some(StopReason::ToolUse));
        assert_eq!(
            message.content[0],
            ContentBlock::Thinking { thinking: "let me think".into(), signature: Some("sig==".into()) }
        );
        assert_eq!(message.text(), "Hi there");
        assert_eq!(calls.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(calls[0].input, Ok(json!({"path": "x"})));
        assert_eq!(calls[1].input, Ok(json!({})));
    }

    #[test]
    fn invalid_input_is_reported_not_fatal() {
        let mut b = MessageBuilder::new();
        b.apply(&start("a", "bash"));
        b.apply(&delta("a", "{\"command\": "));
        b.apply(&end("a"));
        b.apply(&start("b", "bash"));
        b.apply(&delta("b", "[1]"));
        let (_, calls, _) = b.finish();
        assert!(calls[0].input.as_ref().unwrap_err().contains("not valid JSON"));
        assert!(calls[1].input.as_ref().unwrap_err().contains("an array"));
    }

    #[test]
    fn partial_message_keeps_only_text() {
        let mut b = MessageBuilder::new();
        b.apply(&StreamChunk::Text("half".into()));
        b.apply(&start("a", "bash"));
        assert_eq!(b.into_partial().content, vec![ContentBlock::Text { text: "half".into() }]);
    }
}

//! Scripted provider answers in each wire format, for driving the loop through real HTTP.
//! Each function returns a whole response body as the provider would stream it.

use serde_json::{json, Value};

/// What one assistant message says.
#[derive(Debug, Clone)]
pub enum Part {
    Text(&'static str),
    Tool {
        id: String,
        name: &'static str,
        input: Value,
    },
    /// A tool call whose argument text is exactly `raw` (possibly not JSON).
    RawTool {
        id: String,
        name: &'static str,
        raw: &'static str,
    },
    /// Anthropic extended thinking with its signature.
    Thinking {
        text: &'static str,
        signature: &'static str,
    },
}

pub fn text(t: &'static str) -> Part {
    Part::Text(t)
}

pub fn tool(id: &str, name: &'static str, input: Value) -> Part {
    Part::Tool { id: id.to_owned(), name, input }
}

fn tool_parts(part: &Part) -> (String, &'static str, String) {
    match part {
        Part::Tool { id, name, input } => (id.clone(), name, input.to_string()),
        Part::RawTool { id, name, raw } => (id.clone(), name, (*raw).to_owned()),
        _ => unreachable!("not a tool part"),
    }
}

fn sse(event: Option<&str>, data: &Value) -> String {
    match event {
        Some(event) => format!("event: {event}\ndata: {data}\n\n"),
        None => format!("data: {data}\n\n"),
    }
}

/// An Anthropic Messages stream. Tool input is split into two `input_json_delta` fragments.
pub fn anthropic(parts: &[Part], usage_in: u32) -> Vec<u8> {
    let mut out = sse(
        Some("message_start"),
        &json!({"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant",
            "model": "claude-test", "content": [], "stop_reason": null, "stop_sequence": null,
            "usage": {"input_tokens": usage_in, "output_tokens": 1}}}),
    );
    let mut has_tools = false;
    for (index, part) in parts.iter().enumerate() {
        match part {
            Part::Text(t) => {
                out += &sse(
                    Some("content_block_start"),
                    &json!({"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}}),
                );
                out += &sse(
                    Some("content_block_delta"),
                    &json!({"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": t}}),
                );
            }
            Part::Tool { .. } | Part::RawTool { .. } => {
                has_tools = true;
                let (id, name, raw) = tool_parts(part);
                let (a, b) = raw.split_at(raw.len() / 2);
                out += &sse(
                    Some("content_block_start"),
                    &json!({"type": "content_block_start", "index": index, "content_block": {"type": "tool_use", "id": id, "name": name, "input": {}}}),
                );
                for fragment in [a, b] {
                    out += &sse(
                        Some("content_block_delta"),
                        &json!({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": fragment}}),
                    );
                }
            }
            Part::Thinking { text, signature } => {
                out += &sse(
                    Some("content_block_start"),
                    &json!({"type": "content_block_start", "index": index, "content_block": {"type": "thinking", "thinking": "", "signature": ""}}),
                );
                out += &sse(
                    Some("content_block_delta"),
                    &json!({"type": "content_block_delta", "index": index, "delta": {"type": "thinking_delta", "thinking": text}}),
                );
                out += &sse(
                    Some("content_block_delta"),
                    &json!({"type": "content_block_delta", "index": index, "delta": {"type": "signature_delta", "signature": signature}}),
                );
            }
        }
        out += &sse(Some("content_block_stop"), &json!({"type": "content_block_stop", "index": index}));
    }
    let stop = if has_tools { "tool_use" } else { "end_turn" };
    out += &sse(
        Some("message_delta"),
        &json!({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": null}, "usage": {"output_tokens": 20}}),
    );
    out += &sse(Some("message_stop"), &json!({"type": "message_stop"}));
    out.into_bytes()
}

/// An OpenAI Chat Completions stream with `[DONE]`; arguments in two fragments per call.
pub fn openai(parts: &[Part], usage_in: u32) -> Vec<u8> {
    let chunk = |delta: Value, finish: Value| {
        sse(
            None,
            &json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-test",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}], "usage": null}),
        )
    };
    let mut out = chunk(json!({"role": "assistant", "content": ""}), Value::Null);
    let mut call_index = 0;
    for part in parts {
        match part {
            Part::Text(t) => out += &chunk(json!({"content": t}), Value::Null),
            Part::Thinking { text, .. } => out += &chunk(json!({"reasoning_content": text}), Value::Null),
            Part::Tool { .. } | Part::RawTool { .. } => {
                let (id, name, raw) = tool_parts(part);
                let (a, b) = raw.split_at(raw.len() / 2);
                out += &chunk(
                    json!({"tool_calls": [{"index": call_index, "id": id, "type": "function", "function": {"name": name, "arguments": a}}]}),
                    Value::Null,
                );
                out += &chunk(
                    json!({"tool_calls": [{"index": call_index, "function": {"arguments": b}}]}),
                    Value::Null,
                );
                call_index += 1;
            }
        }
    }
    let finish = if call_index > 0 { "tool_calls" } else { "stop" };
    out += &chunk(json!({}), json!(finish));
    out += &sse(
        None,
        &json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-test",
        "choices": [], "usage": {"prompt_tokens": usage_in, "completion_tokens": 20, "total_tokens": usage_in + 20}}),
    );
    out += "data: [DONE]\n\n";
    out.into_bytes()
}

/// An Ollama `/api/chat` NDJSON stream; tool calls arrive whole.
pub fn ollama(parts: &[Part], usage_in: u32) -> Vec<u8> {
    let mut out = String::new();
    let mut line = |v: Value| {
        out += &v.to_string();
        out.push('\n');
    };
    for part in parts {
        match part {
            Part::Text(t) => line(json!({"model": "llama-test", "created_at": "2026-01-01T00:00:00Z",
                "message": {"role": "assistant", "content": t}, "done": false})),
            Part::Tool { id, name, input } => {
                line(json!({"model": "llama-test", "created_at": "2026-01-01T00:00:00Z",
                "message": {"role": "assistant", "content": "", "tool_calls": [{"id": id, "function": {"index": 0, "name": name, "arguments": input}}]},
                "done": false}))
            }
            // Ollama sends arguments as an object: there is no raw text to get wrong.
            Part::RawTool { .. } => panic!("Ollama has no raw tool arguments"),
            Part::Thinking { text, .. } => {
                line(json!({"model": "llama-test", "created_at": "2026-01-01T00:00:00Z",
                "message": {"role": "assistant", "content": "", "thinking": text}, "done": false}))
            }
        }
    }
    line(
        json!({"model": "llama-test", "created_at": "2026-01-01T00:00:00Z", "message": {"role": "assistant", "content": ""},
        "done": true, "done_reason": "stop", "prompt_eval_count": usage_in, "eval_count": 20}),
    );
    out.into_bytes()
}

//! History → the Chat Completions request body.
//!
//! Tool calls go back as the assistant's `tool_calls` with `arguments` as a string — the raw one
//! the model streamed when we have it — and each result is its own `role: "tool"` message. There
//! is no error flag in this format, so a failure is said in the result text.

use serde_json::{json, Map, Value};
use warden_protocol::{ContentBlock, Message, Role};

use crate::provider::common::result_text_with_error_mark;
use crate::provider::ChatRequest;

/// `max_completion_tokens` is what api.openai.com wants (reasoning models refuse `max_tokens`);
/// compatible servers mostly know only `max_tokens`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TokenLimitField {
    MaxTokens,
    MaxCompletionTokens,
}

pub(crate) fn body(request: &ChatRequest, limit_field: TokenLimitField) -> Value {
    let mut body = Map::new();
    body.insert("model".into(), json!(request.model));
    body.insert("messages".into(), Value::Array(messages(request.system.as_deref(), &request.messages)));
    if !request.tools.is_empty() {
        let tools: Vec<Value> = request
            .tools
            .iter()
            .map(|t| {
                json!({"type": "function", "function": {
                    "name": t.name, "description": t.description, "parameters": t.input_schema,
                }})
            })
            .collect();
        body.insert("tools".into(), Value::Array(tools));
    }
    if request.max_tokens > 0 {
        let field = match limit_field {
            TokenLimitField::MaxTokens => "max_tokens",
            TokenLimitField::MaxCompletionTokens => "max_completion_tokens",
        };
        body.insert(field.into(), json!(request.max_tokens));
    }
    body.insert("stream".into(), json!(true));
    body.insert("stream_options".into(), json!({"include_usage": true}));
    Value::Object(body)
}

pub(crate) fn messages(system: Option<&str>, history: &[Message]) -> Vec<Value> {
    let mut out = Vec::new();
    if let Some(system) = system.filter(|s| !s.trim().is_empty()) {
        out.push(json!({"role": "system", "content": system}));
    }
    for message in history {
        match message.role {
            Role::User => user_messages(message, &mut out),
            Role::Assistant => out.extend(assistant_message(message)),
        }
    }
    out
}

fn user_messages(message: &Message, out: &mut Vec<Value>) {
    let mut text = String::new();
    for block in &message.content {
        match block {
            ContentBlock::ToolResult(result) => out.push(json!({
                "role": "tool",
                "tool_call_id": result.tool_use_id,
                "content": result_text_with_error_mark(result),
            })),
            ContentBlock::Text { text: t } => text.push_str(t),
            _ => {}
        }
    }
    // Text of the same turn goes after the tool messages, which must follow the assistant's calls.
    if !text.is_empty() {
        out.push(json!({"role": "user", "content": text}));
    }
}

fn assistant_message(message: &Message) -> Option<Value> {
    let text = message.text();
    let calls: Vec<Value> = message
        .tool_calls()
        .map(|call| {
            let arguments = call.raw_arguments.clone().unwrap_or_else(|| call.input.to_string());
            json!({"id": call.id, "type": "function", "function": {"name": call.name, "arguments": arguments}})
        })
        .collect();
    if text.is_empty() && calls.is_empty() {
        return None;
    }
    let mut value =
        json!({"role": "assistant", "content": if text.is_empty() { Value::Null } else { json!(text) }});
    if !calls.is_empty() {
        value["tool_calls"] = Value::Array(calls);
    }
    Some(value)
}

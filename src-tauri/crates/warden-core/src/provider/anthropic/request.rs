//! History → the Messages API request body.
//!
//! The API is strict about the turn after tool use: the user message must *start* with one
//! `tool_result` block per `tool_use_id` (text only after them), and consecutive results belong in
//! one user message. Thinking blocks go back byte-exact with their signature, or not at all.

use serde_json::{json, Map, Value};
use warden_protocol::{ContentBlock, Message, Role};

use crate::provider::ChatRequest;

/// Anthropic requires `max_tokens`; used when the request leaves it at 0.
const DEFAULT_MAX_TOKENS: u32 = 4096;

pub(crate) fn body(request: &ChatRequest) -> Value {
    let mut body = Map::new();
    body.insert("model".into(), json!(request.model));
    let max_tokens = if request.max_tokens == 0 { DEFAULT_MAX_TOKENS } else { request.max_tokens };
    body.insert("max_tokens".into(), json!(max_tokens));
    body.insert("stream".into(), json!(true));
    if let Some(system) = request.system.as_deref().filter(|s| !s.trim().is_empty()) {
        body.insert("system".into(), json!(system));
    }
    if !request.tools.is_empty() {
        let tools: Vec<Value> = request
            .tools
            .iter()
            .map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.input_schema}))
            .collect();
        body.insert("tools".into(), Value::Array(tools));
    }
    if let Some(thinking) = request.thinking {
        body.insert("thinking".into(), json!({"type": "enabled", "budget_tokens": thinking.budget_tokens}));
    }
    body.insert("messages".into(), Value::Array(messages(&request.messages)));
    Value::Object(body)
}

/// One wire message being assembled: tool results are kept apart so they can go first.
struct Turn {
    role: Role,
    results: Vec<Value>,
    blocks: Vec<Value>,
}

pub(crate) fn messages(history: &[Message]) -> Vec<Value> {
    let mut turns: Vec<Turn> = Vec::new();
    for message in history {
        let mut turn = Turn { role: message.role, results: Vec::new(), blocks: Vec::new() };
        for block in &message.content {
            match block {
                ContentBlock::ToolResult(result) => {
                    let mut value = json!({
                        "type": "tool_result",
                        "tool_use_id": result.tool_use_id,
                        "content": result.content,
                    });
                    if result.is_error {
                        value["is_error"] = json!(true);
                    }
                    turn.results.push(value);
                }
                other => turn.blocks.extend(block_value(message.role, other)),
            }
        }
        if turn.results.is_empty() && turn.blocks.is_empty() {
            continue;
        }
        match turns.last_mut() {
            Some(last) if last.role == turn.role => {
                last.results.append(&mut turn.results);
                last.blocks.append(&mut turn.blocks);
            }
            _ => turns.push(turn),
        }
    }
    turns.into_iter().map(turn_value).collect()
}

fn turn_value(turn: Turn) -> Value {
    let role = match turn.role {
        Role::User => "user",
        Role::Assistant => "assistant",
    };
    // A user turn that is only text goes as a plain string, the form everyone writes by hand.
    if turn.role == Role::User && turn.results.is_empty() && turn.blocks.len() == 1 {
        if let Some(text) = turn.blocks[0].get("text").and_then(Value::as_str) {
            return json!({"role": role, "content": text});
        }
    }
    let mut content = turn.results;
    content.extend(turn.blocks);
    json!({"role": role, "content": content})
}

fn block_value(role: Role, block: &ContentBlock) -> Option<Value> {
    match block {
        ContentBlock::Text { text } if text.is_empty() => None,
        ContentBlock::Text { text } => Some(json!({"type": "text", "text": text})),
        // Only assistant turns carry reasoning, and only signed thinking is accepted back.
        ContentBlock::Thinking { thinking, signature: Some(signature) } if role == Role::Assistant => {
            Some(json!({"type": "thinking", "thinking": thinking, "signature": signature}))
        }
        ContentBlock::Thinking { .. } => None,
        ContentBlock::RedactedThinking { data } if role == Role::Assistant => {
            Some(json!({"type": "redacted_thinking", "data": data}))
        }
        ContentBlock::RedactedThinking { .. } => None,
        ContentBlock::ToolUse(call) => {
            // The API wants an object; an invalid input the loop already reported becomes `{}`.
            let input = if call.input.is_object() { call.input.clone() } else { json!({}) };
            Some(json!({"type": "tool_use", "id": call.id, "name": call.name, "input": input}))
        }
        ContentBlock::ToolResult(_) => None,
    }
}

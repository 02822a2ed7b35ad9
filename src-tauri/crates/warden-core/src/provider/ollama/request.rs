//! History → Ollama's `/api/chat` body. Tool call `arguments` are objects here, and results are
//! addressed by `tool_name` (with `tool_call_id` too, which current servers also read).

use serde_json::{json, Map, Value};
use warden_protocol::{ContentBlock, Message, Role};

use crate::provider::common::result_text_with_error_mark;
use crate::provider::ChatRequest;

pub(crate) fn body(request: &ChatRequest) -> Value {
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
    if request.thinking.is_some() {
        body.insert("think".into(), json!(true));
    }
    if request.max_tokens > 0 {
        body.insert("options".into(), json!({"num_predict": request.max_tokens}));
    }
    body.insert("stream".into(), json!(true));
    Value::Object(body)
}

pub(crate) fn messages(system: Option<&str>, history: &[Message]) -> Vec<Value> {
    let mut out = Vec::new();
    if let Some(system) = system.filter(|s| !s.trim().is_empty()) {
        out.push(json!({"role": "system", "content": system}));
    }
    for message in history {
        match message.role {
            Role::User => {
                let mut text = String::new();
                for block in &message.content {
                    match block {
                        ContentBlock::ToolResult(result) => out.push(json!({
                            "role": "tool",
                            "tool_name": result.tool_name,
                            "tool_call_id": result.tool_use_id,
                            "content": result_text_with_error_mark(result),
                        })),
                        ContentBlock::Text { text: t } => text.push_str(t),
                        _ => {}
                    }
                }
                if !text.is_empty() {
                    out.push(json!({"role": "user", "content": text}));
                }
            }
            Role::Assistant => {
                let calls: Vec<Value> = message
                    .tool_calls()
                    .enumerate()
                    .map(|(index, call)| {
                        let arguments = if call.input.is_object() { call.input.clone() } else { json!({}) };
                        json!({"id": call.id, "function": {"index": index, "name": call.name, "arguments": arguments}})
                    })
                    .collect();
                let text = message.text();
                if text.is_empty() && calls.is_empty() {
                    continue;
                }
                let mut value = json!({"role": "assistant", "content": text});
                if !calls.is_empty() {
                    value["tool_calls"] = Value::Array(calls);
                }
                out.push(value);
            }
        }
    }
    out
}

//! History → Ollama's `/api/chat` body. Tool call `arguments` are objects here, and results are
//! addressed by `tool_name` (with `tool_call_id` too, which current servers also read).
//!
//! The body borrows from the history and is serialized straight to bytes.

use std::borrow::Cow;

use serde::Serialize;
use serde_json::Value;
use warden_protocol::{ContentBlock, Message, Role};

use crate::provider::common::{
    function_tools, result_text_with_error_mark, user_images, user_text, FunctionTool, TOOL_IMAGES_NOTE,
};
use crate::provider::{ChatRequest, ToolChoice};

/// `{}`: the arguments sent for a tool call whose input was not an object.
static EMPTY_ARGUMENTS: std::sync::LazyLock<Value> =
    std::sync::LazyLock::new(|| Value::Object(serde_json::Map::new()));

#[derive(Serialize)]
pub(crate) struct Body<'a> {
    model: &'a str,
    messages: Vec<WireMessage<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tools: Vec<FunctionTool<'a>>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    think: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    options: Option<Options>,
    stream: bool,
}

#[derive(Serialize)]
struct Options {
    num_predict: u32,
}

#[derive(Serialize)]
#[serde(tag = "role", rename_all = "lowercase")]
enum WireMessage<'a> {
    System {
        content: &'a str,
    },
    User {
        content: Cow<'a, str>,
        /// Base64 images (Ollama's own field).
        #[serde(skip_serializing_if = "Vec::is_empty")]
        images: Vec<&'a str>,
    },
    Assistant {
        content: String,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        tool_calls: Vec<WireCall<'a>>,
    },
    Tool {
        tool_name: &'a str,
        tool_call_id: &'a str,
        content: Cow<'a, str>,
    },
}

#[derive(Serialize)]
struct WireCall<'a> {
    id: &'a str,
    function: WireFunction<'a>,
}

#[derive(Serialize)]
struct WireFunction<'a> {
    index: usize,
    name: &'a str,
    arguments: &'a Value,
}

pub(crate) fn body(request: &ChatRequest) -> Body<'_> {
    Body {
        model: &request.model,
        messages: messages(request.system.as_deref(), &request.messages),
        // Ollama has no tool_choice and does not need the definitions for a history with calls.
        tools: if request.tool_choice == ToolChoice::None {
            Vec::new()
        } else {
            function_tools(&request.tools)
        },
        think: request.thinking.is_some(),
        options: (request.max_tokens > 0).then_some(Options { num_predict: request.max_tokens }),
        stream: true,
    }
}

fn messages<'a>(system: Option<&'a str>, history: &'a [Message]) -> Vec<WireMessage<'a>> {
    let mut out = Vec::new();
    if let Some(system) = system.filter(|s| !s.trim().is_empty()) {
        out.push(WireMessage::System { content: system });
    }
    for message in history {
        match message.role {
            Role::User => {
                for block in &message.content {
                    if let ContentBlock::ToolResult(result) = block {
                        out.push(WireMessage::Tool {
                            tool_name: &result.tool_name,
                            tool_call_id: &result.tool_use_id,
                            content: result_text_with_error_mark(result),
                        });
                    }
                }
                let images: Vec<&str> = user_images(message).into_iter().map(|i| i.data.as_str()).collect();
                match user_text(message) {
                    Some(content) => out.push(WireMessage::User { content, images }),
                    None if !images.is_empty() => {
                        out.push(WireMessage::User { content: Cow::Borrowed(TOOL_IMAGES_NOTE), images })
                    }
                    None => {}
                }
            }
            Role::Assistant => {
                let tool_calls: Vec<WireCall<'_>> = message
                    .tool_calls()
                    .enumerate()
                    .map(|(index, call)| WireCall {
                        id: &call.id,
                        function: WireFunction {
                            index,
                            name: &call.name,
                            arguments: if call.input.is_object() { &call.input } else { &EMPTY_ARGUMENTS },
                        },
                    })
                    .collect();
                let content = message.text();
                if content.is_empty() && tool_calls.is_empty() {
                    continue;
                }
                out.push(WireMessage::Assistant { content, tool_calls });
            }
        }
    }
    out
}

//! History → the Chat Completions request body.
//!
//! Tool calls go back as the assistant's `tool_calls` with `arguments` as a string — the raw one
//! the model streamed when we have it — and each result is its own `role: "tool"` message. The
//! assistant's `content` beside them is `""`, never `null` (see `WireMessage::Assistant`). There
//! is no error flag in this format, so a failure is said in the result text.
//!
//! The body borrows from the history and is serialized straight to bytes (the whole history is
//! sent on every iteration of the loop).

use std::borrow::Cow;

use serde::Serialize;
use warden_protocol::{ContentBlock, Message, Role};

use crate::provider::common::{
    function_tools, result_text_with_error_mark, user_images, user_text, FunctionTool, TOOL_IMAGES_NOTE,
};
use crate::provider::{ChatRequest, ToolChoice};

/// `max_completion_tokens` is what api.openai.com wants (reasoning models refuse `max_tokens`);
/// compatible servers mostly know only `max_tokens`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TokenLimitField {
    MaxTokens,
    MaxCompletionTokens,
}

#[derive(Serialize)]
pub(crate) struct Body<'a> {
    model: &'a str,
    messages: Vec<WireMessage<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tools: Vec<FunctionTool<'a>>,
    /// `"auto"` with tools (OpenAI's default, said anyway: llama-cpp-python's
    /// `chatml-function-calling` ignores the tools of a request without it), `"none"` when they
    /// may not be called.
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_choice: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_tokens: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_completion_tokens: Option<u32>,
    stream: bool,
    stream_options: StreamOptions,
}

#[derive(Serialize)]
struct StreamOptions {
    include_usage: bool,
}

#[derive(Serialize)]
#[serde(tag = "role", rename_all = "lowercase")]
enum WireMessage<'a> {
    System {
        content: &'a str,
    },
    User {
        content: UserContent<'a>,
    },
    Assistant {
        /// Always a string, `""` beside tool calls: OpenAI takes `null` there, but llama-cpp-python
        /// answers `null` with HTTP 500 and its chat template breaks when the field is left out.
        content: Cow<'a, str>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        tool_calls: Vec<WireCall<'a>>,
    },
    Tool {
        tool_call_id: &'a str,
        content: Cow<'a, str>,
    },
}

/// A user message's content: its text, or text and images as parts.
#[derive(Serialize)]
#[serde(untagged)]
enum UserContent<'a> {
    Text(Cow<'a, str>),
    Parts(Vec<UserPart<'a>>),
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum UserPart<'a> {
    Text { text: Cow<'a, str> },
    ImageUrl { image_url: ImageUrl },
}

/// An image as a `data:` URL.
#[derive(Serialize)]
struct ImageUrl {
    url: String,
}

#[derive(Serialize)]
struct WireCall<'a> {
    id: &'a str,
    #[serde(rename = "type")]
    kind: &'static str,
    function: WireFunction<'a>,
}

#[derive(Serialize)]
struct WireFunction<'a> {
    name: &'a str,
    arguments: Cow<'a, str>,
}

pub(crate) fn body(request: &ChatRequest, limit_field: TokenLimitField) -> Body<'_> {
    let limit = (request.max_tokens > 0).then_some(request.max_tokens);
    let (max_tokens, max_completion_tokens) = match limit_field {
        TokenLimitField::MaxTokens => (limit, None),
        TokenLimitField::MaxCompletionTokens => (None, limit),
    };
    Body {
        model: &request.model,
        messages: messages(request.system.as_deref(), &request.messages),
        tools: function_tools(&request.tools),
        tool_choice: match request.tool_choice {
            _ if request.tools.is_empty() => None,
            ToolChoice::Auto => Some("auto"),
            ToolChoice::None => Some("none"),
        },
        max_tokens,
        max_completion_tokens,
        stream: true,
        stream_options: StreamOptions { include_usage: true },
    }
}

fn messages<'a>(system: Option<&'a str>, history: &'a [Message]) -> Vec<WireMessage<'a>> {
    let mut out = Vec::new();
    if let Some(system) = system.filter(|s| !s.trim().is_empty()) {
        out.push(WireMessage::System { content: system });
    }
    for message in history {
        match message.role {
            Role::User => user_messages(message, &mut out),
            Role::Assistant => out.extend(assistant_message(message)),
        }
    }
    out
}

fn user_messages<'a>(message: &'a Message, out: &mut Vec<WireMessage<'a>>) {
    for block in &message.content {
        if let ContentBlock::ToolResult(result) = block {
            out.push(WireMessage::Tool {
                tool_call_id: &result.tool_use_id,
                content: result_text_with_error_mark(result),
            });
        }
    }
    // Text of the same turn goes after the tool messages, which must follow the assistant's calls;
    // so do its images, which tool messages cannot carry.
    let text = user_text(message);
    let images = user_images(message);
    if images.is_empty() {
        if let Some(content) = text {
            out.push(WireMessage::User { content: UserContent::Text(content) });
        }
        return;
    }
    let text = text.unwrap_or(Cow::Borrowed(TOOL_IMAGES_NOTE));
    let parts = std::iter::once(UserPart::Text { text })
        .chain(images.into_iter().map(|image| UserPart::ImageUrl {
            image_url: ImageUrl { url: format!("data:{};base64,{}", image.media_type, image.data) },
        }))
        .collect();
    out.push(WireMessage::User { content: UserContent::Parts(parts) });
}

fn assistant_message(message: &Message) -> Option<WireMessage<'_>> {
    let text = message.text();
    let tool_calls: Vec<WireCall<'_>> = message
        .tool_calls()
        .map(|call| WireCall {
            id: &call.id,
            kind: "function",
            function: WireFunction {
                name: &call.name,
                arguments: match &call.raw_arguments {
                    Some(raw) => Cow::Borrowed(raw),
                    None => Cow::Owned(call.input.to_string()),
                },
            },
        })
        .collect();
    if text.is_empty() && tool_calls.is_empty() {
        return None;
    }
    Some(WireMessage::Assistant { content: Cow::Owned(text), tool_calls })
}

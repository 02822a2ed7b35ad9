//! History → the Messages API request body.
//!
//! The API is strict about the turn after tool use: the user message must *start* with one
//! `tool_result` block per `tool_use_id` (text only after them), and consecutive results belong in
//! one user message. Thinking blocks go back byte-exact with their signature, or not at all.
//!
//! The body borrows from the history and is serialized straight to bytes: the whole history is
//! sent on every iteration of the loop, so no intermediate JSON tree is built and dropped.

use serde::Serialize;
use serde_json::Value;
use warden_protocol::{ContentBlock, Message, Role};

use crate::provider::{ChatRequest, ToolChoice};

/// Anthropic requires `max_tokens`; used when the request leaves it at 0.
const DEFAULT_MAX_TOKENS: u32 = 4096;

/// `{}`: the input sent for a tool call whose input was not an object.
static EMPTY_INPUT: std::sync::LazyLock<Value> =
    std::sync::LazyLock::new(|| Value::Object(serde_json::Map::new()));

#[derive(Serialize)]
pub(crate) struct Body<'a> {
    model: &'a str,
    max_tokens: u32,
    stream: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    system: Option<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tools: Vec<Tool<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_choice: Option<ToolChoiceNone>,
    #[serde(skip_serializing_if = "Option::is_none")]
    thinking: Option<Thinking>,
    messages: Vec<Turn<'a>>,
}

/// `{"type": "none"}`: the tools are described but may not be called.
#[derive(Serialize)]
struct ToolChoiceNone {
    #[serde(rename = "type")]
    kind: &'static str,
}

#[derive(Serialize)]
struct Tool<'a> {
    name: &'a str,
    description: &'a str,
    input_schema: &'a Value,
}

#[derive(Serialize)]
struct Thinking {
    #[serde(rename = "type")]
    kind: &'static str,
    budget_tokens: u32,
}

#[derive(Serialize)]
struct Turn<'a> {
    role: &'static str,
    content: Content<'a>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum Content<'a> {
    /// A user turn that is only text goes as a plain string, the form everyone writes by hand.
    Text(&'a str),
    Blocks(Vec<Block<'a>>),
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Block<'a> {
    Text {
        text: &'a str,
    },
    Thinking {
        thinking: &'a str,
        signature: &'a str,
    },
    RedactedThinking {
        data: &'a str,
    },
    ToolUse {
        id: &'a str,
        name: &'a str,
        input: &'a Value,
    },
    ToolResult {
        tool_use_id: &'a str,
        content: ResultContent<'a>,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        is_error: bool,
    },
    Image {
        source: ImageSource<'a>,
    },
}

/// A tool result's content: its text, or its text and the images it returned.
#[derive(Serialize)]
#[serde(untagged)]
enum ResultContent<'a> {
    Text(&'a str),
    Parts(Vec<ResultPart<'a>>),
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ResultPart<'a> {
    Text { text: &'a str },
    Image { source: ImageSource<'a> },
}

#[derive(Serialize)]
struct ImageSource<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    media_type: &'a str,
    data: &'a str,
}

fn result_content(result: &warden_protocol::ToolResultBlock) -> ResultContent<'_> {
    if result.images.is_empty() {
        return ResultContent::Text(&result.content);
    }
    let text = std::iter::once(ResultPart::Text { text: &result.content });
    let images = result.images.iter().map(|image| ResultPart::Image {
        source: ImageSource { kind: "base64", media_type: &image.media_type, data: &image.data },
    });
    ResultContent::Parts(text.chain(images).collect())
}

pub(crate) fn body(request: &ChatRequest) -> Body<'_> {
    Body {
        model: &request.model,
        max_tokens: if request.max_tokens == 0 { DEFAULT_MAX_TOKENS } else { request.max_tokens },
        stream: true,
        system: request.system.as_deref().filter(|s| !s.trim().is_empty()),
        tools: request
            .tools
            .iter()
            .map(|t| Tool { name: &t.name, description: &t.description, input_schema: &t.input_schema })
            .collect(),
        tool_choice: (request.tool_choice == ToolChoice::None && !request.tools.is_empty())
            .then_some(ToolChoiceNone { kind: "none" }),
        thinking: request.thinking.map(|t| Thinking { kind: "enabled", budget_tokens: t.budget_tokens }),
        messages: messages(&request.messages),
    }
}

/// One wire message being assembled: tool results are kept apart so they can go first.
struct Assembling<'a> {
    role: Role,
    results: Vec<Block<'a>>,
    blocks: Vec<Block<'a>>,
}

fn messages(history: &[Message]) -> Vec<Turn<'_>> {
    let mut turns: Vec<Assembling<'_>> = Vec::new();
    for message in history {
        let mut turn = Assembling { role: message.role, results: Vec::new(), blocks: Vec::new() };
        for block in &message.content {
            match block {
                ContentBlock::ToolResult(result) => turn.results.push(Block::ToolResult {
                    tool_use_id: &result.tool_use_id,
                    content: result_content(result),
                    is_error: result.is_error,
                }),
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

fn turn_value(turn: Assembling<'_>) -> Turn<'_> {
    let role = match turn.role {
        Role::User => "user",
        Role::Assistant => "assistant",
    };
    if turn.role == Role::User && turn.results.is_empty() {
        if let [Block::Text { text }] = turn.blocks.as_slice() {
            return Turn { role, content: Content::Text(text) };
        }
    }
    let mut content = turn.results;
    content.extend(turn.blocks);
    Turn { role, content: Content::Blocks(content) }
}

fn block_value(role: Role, block: &ContentBlock) -> Option<Block<'_>> {
    match block {
        ContentBlock::Text { text } if text.is_empty() => None,
        ContentBlock::Text { text } => Some(Block::Text { text }),
        // Only assistant turns carry reasoning, and only signed thinking is accepted back.
        ContentBlock::Thinking { thinking, signature: Some(signature) } if role == Role::Assistant => {
            Some(Block::Thinking { thinking, signature })
        }
        ContentBlock::Thinking { .. } => None,
        ContentBlock::RedactedThinking { data } if role == Role::Assistant => {
            Some(Block::RedactedThinking { data })
        }
        ContentBlock::RedactedThinking { .. } => None,
        ContentBlock::ToolUse(call) => {
            // The API wants an object; an invalid input the loop already reported becomes `{}`.
            let input = if call.input.is_object() { &call.input } else { &EMPTY_INPUT };
            Some(Block::ToolUse { id: &call.id, name: &call.name, input })
        }
        ContentBlock::ToolResult(_) => None,
        ContentBlock::Image(image) if role == Role::User => Some(Block::Image {
            source: ImageSource { kind: "base64", media_type: &image.media_type, data: &image.data },
        }),
        ContentBlock::Image(_) => None,
        // The session puts a note in its place before a request is made (`agent::newer`).
        ContentBlock::Unknown(_) => None,
    }
}

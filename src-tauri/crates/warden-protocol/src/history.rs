//! Conversation history: what was said, including tool calls, tool results and thinking blocks.
//! Provider-neutral; each provider formats it into its own wire shape.

use serde::{Deserialize, Serialize};
use specta::Type;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    User,
    Assistant,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct Message {
    pub role: Role,
    pub content: Vec<ContentBlock>,
}

impl Message {
    pub fn user_text(text: impl Into<String>) -> Self {
        Self { role: Role::User, content: vec![ContentBlock::Text { text: text.into() }] }
    }

    /// The concatenated visible text of the message.
    pub fn text(&self) -> String {
        self.content
            .iter()
            .filter_map(|b| match b {
                ContentBlock::Text { text } => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }

    pub fn tool_calls(&self) -> impl Iterator<Item = &ToolUse> {
        self.content.iter().filter_map(|b| match b {
            ContentBlock::ToolUse(t) => Some(t),
            _ => None,
        })
    }
}

/// One block of a message, in the order it was produced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ContentBlock {
    Text {
        text: String,
    },
    /// Model reasoning. `signature` is opaque and must be sent back byte-exact.
    Thinking {
        thinking: String,
        signature: Option<String>,
    },
    /// Reasoning the provider returned encrypted; sent back as is.
    RedactedThinking {
        data: String,
    },
    ToolUse(ToolUse),
    ToolResult(ToolResultBlock),
    /// An image the user attached (models that do not take images are sent a note instead).
    Image(ToolImage),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ToolUse {
    pub id: String,
    pub name: String,
    /// Parsed input object (`{}` when the model sent none).
    pub input: serde_json::Value,
    /// The argument string exactly as the provider streamed it, for providers that echo it back
    /// (OpenAI `function.arguments`). `None` when it was not a string on the wire.
    pub raw_arguments: Option<String>,
    /// A call the model wrote as text (the text tool protocol) that could not be read: the block
    /// exactly as the model wrote it. It goes back to the model as written, beside the reason it
    /// could not be read, never as a tidied call the model did not make.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub written: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ToolResultBlock {
    pub tool_use_id: String,
    /// The name of the tool that ran (Ollama addresses results by name).
    pub tool_name: String,
    pub content: String,
    pub is_error: bool,
    /// Why a failed call failed (`USER_REJECTED`, `APPROVAL_TIMEOUT`…), kept in the saved history
    /// so a reopened conversation says it as the live one did. Never sent to a provider.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<crate::ToolErrorCode>,
    /// Images the tool returned (an MCP server's screenshot), for models that take images
    /// (Anthropic's); other providers get `content`, which describes them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<ToolImage>,
}

/// An image a tool returned or the user attached: base64 data of a PNG, JPEG, GIF or WebP.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ToolImage {
    pub media_type: String,
    pub data: String,
}

//! Conversation history: what was said, including tool calls, tool results and thinking blocks.
//! Provider-neutral; each provider formats it into its own wire shape.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::value::RawValue;
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
///
/// A block of a kind this build does not know (a newer Warden wrote it) is read as
/// [`ContentBlock::Unknown`] and written back exactly as it was, so one new kind of block never
/// makes a saved conversation unreadable, and saving it again loses nothing.
#[derive(Debug, Clone, PartialEq, Serialize, Type)]
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
    /// A block of a kind a newer Warden wrote: kept as it was, shown as "from a newer Warden", never
    /// sent to a model (a note stands in for it).
    #[serde(untagged)]
    Unknown(UnknownBlock),
}

/// The kinds of block this build reads: [`ContentBlock`] without [`ContentBlock::Unknown`]. Only
/// for reading; a block whose `type` is none of these becomes [`ContentBlock::Unknown`].
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum KnownBlock {
    Text { text: String },
    Thinking { thinking: String, signature: Option<String> },
    RedactedThinking { data: String },
    ToolUse(ToolUse),
    ToolResult(ToolResultBlock),
    Image(ToolImage),
}

impl KnownBlock {
    /// The `type` of each variant, as serde spells it.
    const TYPES: &'static [&'static str] =
        &["text", "thinking", "redacted_thinking", "tool_use", "tool_result", "image"];
}

impl From<KnownBlock> for ContentBlock {
    fn from(block: KnownBlock) -> Self {
        match block {
            KnownBlock::Text { text } => Self::Text { text },
            KnownBlock::Thinking { thinking, signature } => Self::Thinking { thinking, signature },
            KnownBlock::RedactedThinking { data } => Self::RedactedThinking { data },
            KnownBlock::ToolUse(call) => Self::ToolUse(call),
            KnownBlock::ToolResult(result) => Self::ToolResult(result),
            KnownBlock::Image(image) => Self::Image(image),
        }
    }
}

impl<'de> Deserialize<'de> for ContentBlock {
    /// A block of a known kind is read as that kind (and a malformed one is an error, as before);
    /// an object with a `type` this build does not know is kept whole as [`ContentBlock::Unknown`].
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error as _;
        let raw = Box::<RawValue>::deserialize(deserializer)?;
        match serde_json::from_str::<KnownBlock>(raw.get()) {
            Ok(block) => Ok(block.into()),
            Err(error) => match UnknownBlock::kind_of(&raw) {
                Some(kind) if !KnownBlock::TYPES.contains(&kind.as_str()) => {
                    Ok(Self::Unknown(UnknownBlock { raw }))
                }
                _ => Err(D::Error::custom(error)),
            },
        }
    }
}

/// A content block of a kind this build does not know, exactly as it was read (its JSON text).
/// Written back byte for byte.
#[derive(Debug, Clone, Type)]
#[specta(type = UnknownBlockShape)]
pub struct UnknownBlock {
    raw: Box<RawValue>,
}

impl Serialize for UnknownBlock {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.raw.serialize(serializer)
    }
}

/// What the window sees of an [`UnknownBlock`]: an object with at least a `type` (the block's own,
/// none of the known ones), and whatever fields its Warden gave it.
#[derive(Serialize, Type)]
#[allow(dead_code)] // only describes the JSON for the generated TypeScript
struct UnknownBlockShape {
    #[serde(rename = "type")]
    kind: String,
}

impl UnknownBlock {
    /// The block's `type`, as its Warden named it.
    pub fn kind(&self) -> String {
        Self::kind_of(&self.raw).unwrap_or_default()
    }

    /// The block's JSON text, as it was read.
    pub fn raw(&self) -> &str {
        self.raw.get()
    }

    /// The `type` of a JSON object, when it is an object with a string `type`.
    fn kind_of(raw: &RawValue) -> Option<String> {
        #[derive(Deserialize)]
        struct Tagged {
            #[serde(rename = "type")]
            kind: String,
        }
        serde_json::from_str::<Tagged>(raw.get()).ok().map(|t| t.kind)
    }
}

impl PartialEq for UnknownBlock {
    fn eq(&self, other: &Self) -> bool {
        self.raw.get() == other.raw.get()
    }
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
    pub code: Option<ResultCode>,
    /// Images the tool returned (an MCP server's screenshot), for models that take images
    /// (Anthropic's); other providers get `content`, which describes them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<ToolImage>,
    /// What the window showed beside the text (`ToolReport::for_history`), so a reopened
    /// conversation shows the same block. Never sent to a provider.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<Box<crate::ToolReport>>,
}

/// Why a saved tool call failed: a code this build knows, or one a newer Warden wrote (kept as it
/// was and shown as "from a newer Warden", so it never makes the message unreadable).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(untagged)]
pub enum ResultCode {
    Known(crate::ToolErrorCode),
    Newer(String),
}

impl ResultCode {
    /// The code as this build knows it; `None` for a newer Warden's.
    pub fn known(&self) -> Option<crate::ToolErrorCode> {
        match self {
            Self::Known(code) => Some(*code),
            Self::Newer(_) => None,
        }
    }
}

impl From<crate::ToolErrorCode> for ResultCode {
    fn from(code: crate::ToolErrorCode) -> Self {
        Self::Known(code)
    }
}

/// An image a tool returned or the user attached: base64 data of a PNG, JPEG, GIF or WebP.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ToolImage {
    pub media_type: String,
    pub data: String,
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::ToolErrorCode;

    fn every_known_block() -> Vec<ContentBlock> {
        vec![
            ContentBlock::Text { text: "hi".into() },
            ContentBlock::Thinking { thinking: "hmm".into(), signature: Some("sig".into()) },
            ContentBlock::RedactedThinking { data: "xyz".into() },
            ContentBlock::ToolUse(ToolUse {
                id: "t1".into(),
                name: "bash".into(),
                input: serde_json::json!({"command": "ls"}),
                raw_arguments: None,
                written: None,
            }),
            ContentBlock::ToolResult(ToolResultBlock {
                tool_use_id: "t1".into(),
                report: None,
                tool_name: "bash".into(),
                content: "ok".into(),
                is_error: true,
                code: Some(ToolErrorCode::UserRejected.into()),
                images: Vec::new(),
            }),
            ContentBlock::Image(ToolImage { media_type: "image/png".into(), data: "AAAA".into() }),
        ]
    }

    #[test]
    fn every_known_kind_reads_back_as_itself_never_as_unknown() {
        let blocks = every_known_block();
        let json = serde_json::to_string(&blocks).unwrap();
        let back: Vec<ContentBlock> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, blocks);
        // KnownBlock::TYPES names exactly the kinds ContentBlock writes.
        let kinds: Vec<String> = blocks
            .iter()
            .map(|b| serde_json::to_value(b).unwrap()["type"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(kinds, KnownBlock::TYPES);
    }

    #[test]
    fn a_block_of_another_kind_is_kept_exactly_and_written_back_byte_for_byte() {
        let raw = r#"{"type":"citation",  "source": {"z": 1, "a": [1.50, "caf\u00e9"]}}"#;
        let block: ContentBlock = serde_json::from_str(raw).unwrap();
        let ContentBlock::Unknown(unknown) = &block else { panic!("{block:?}") };
        assert_eq!((unknown.kind().as_str(), unknown.raw()), ("citation", raw));
        assert_eq!(serde_json::to_string(&block).unwrap(), raw);
        // Inside a message, and through serde_json::Value (the window's IPC) too.
        let message = format!(r#"{{"role":"user","content":[{raw}]}}"#);
        let read: Message = serde_json::from_str(&message).unwrap();
        assert_eq!(serde_json::to_string(&read).unwrap(), message);
        let via_value: Message = serde_json::from_value(serde_json::from_str(&message).unwrap()).unwrap();
        assert!(matches!(&via_value.content[0], ContentBlock::Unknown(u) if u.kind() == "citation"));
    }

    #[test]
    fn a_malformed_block_of_a_known_kind_or_without_a_kind_is_an_error_not_unknown() {
        for bad in [
            r#"{"type":"text"}"#,
            r#"{"type":"tool_use","id":1}"#,
            r#"{"text":"no kind"}"#,
            r#""text""#,
            "[]",
        ] {
            let read = serde_json::from_str::<ContentBlock>(bad);
            assert!(read.is_err(), "{bad}: {read:?}");
        }
    }

    #[test]
    fn a_code_of_a_newer_warden_is_kept_and_a_known_one_read_as_known() {
        let known: ResultCode = serde_json::from_str(r#""USER_REJECTED""#).unwrap();
        assert_eq!(known, ResultCode::Known(ToolErrorCode::UserRejected));
        let newer: ResultCode = serde_json::from_str(r#""QUOTA_SPENT""#).unwrap();
        assert_eq!(
            (newer.known(), serde_json::to_string(&newer).unwrap()),
            (None, r#""QUOTA_SPENT""#.into())
        );
        assert!(serde_json::from_str::<ResultCode>("42").is_err(), "a code is a string");
    }
}

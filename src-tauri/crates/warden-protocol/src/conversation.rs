//! The saved conversations as the faces list them: one line each, newest first, a page at a time.

use serde::{Deserialize, Serialize};
use specta::Type;

/// One saved conversation, without its messages (`chat_history` gives those).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ConversationSummary {
    pub id: String,
    /// The title the user gave it, else the first line of its first message.
    pub title: String,
    /// The project folder it was held in, when one was recorded.
    pub project_root: Option<String>,
    /// When it last changed: milliseconds since the Unix epoch.
    pub updated_at_ms: u64,
    pub message_count: u32,
}

/// One page of the saved conversations, newest first.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ConversationPage {
    pub conversations: Vec<ConversationSummary>,
    /// Where the next page starts, or `None` after the last.
    pub next_offset: Option<u32>,
}

/// When a saved message was written and, for an answer, which model wrote it: one per message of
/// `chat_history`, in the same order (`chat_message_stamps`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct MessageStamp {
    /// Milliseconds since the Unix epoch.
    pub at_ms: u64,
    /// The model that wrote an answer; `None` for the user's messages and for answers saved by
    /// builds that did not record it.
    pub model: Option<String>,
    /// What an answer cost, as the provider counted it (`None`: not counted, or not recorded by
    /// the build that saved it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<crate::Usage>,
    /// Without usage: the context in use after the answer, as the engine estimated it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_context_tokens: Option<u32>,
}

/// What the answers saved in one stretch of time (a day, as the window reckons its local day)
/// counted, by the model that wrote them (`usage_days`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct DayUsage {
    /// Where it starts, and where it ends (not included): milliseconds since the Unix epoch.
    pub start_ms: u64,
    pub end_ms: u64,
    /// One per model, by model id; empty when no answer of the stretch counted any.
    pub models: Vec<ModelUsage>,
}

/// The tokens the answers of one model counted, as the provider reported them.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ModelUsage {
    /// `None` for answers saved by a build that did not record the model.
    pub model: Option<String>,
    /// Sums, far below 2^53 (the window reads them as numbers).
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// How many answers these are.
    pub answers: u32,
}

/// A conversation a search found, with where (a message's words around the first match; `None`
/// when its title matched).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ConversationHit {
    pub conversation: ConversationSummary,
    pub snippet: Option<String>,
}

/// Where a saved conversation was last compacted: the model is sent a summary instead of its first
/// `summarized_messages` messages (the window draws a divider there).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct CompactionInfo {
    pub summarized_messages: u32,
    pub tokens_before: u32,
    pub tokens_after: u32,
}

/// A saved conversation that cannot be read whole, as far as it can be read: the window shows it
/// read-only (`chat_history_read_only`), and nothing is ever written to it until it reads whole.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ReadOnlyHistory {
    /// Why it cannot be read whole, in words for the user; `None` when it can now (it is read
    /// again to be continued).
    pub reason: Option<String>,
    /// Its messages in order, each that could not be read standing in its place.
    pub rows: Vec<SavedRow>,
}

/// One saved message of a [`ReadOnlyHistory`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum SavedRow {
    /// A message that was read, with when it was written and by which model.
    #[serde(rename_all = "camelCase")]
    Read { message: crate::Message, stamp: MessageStamp },
    /// A message that could not be read (damaged, or in a form this build does not know), and why.
    #[serde(rename_all = "camelCase")]
    Unreadable { reason: String },
}

//! A saved conversation as it crosses the link: its line in the list and every message as far as
//! it reads, written so that a block this build does not know survives the trip.

use serde::{Deserialize, Serialize};

use crate::{ConversationSummary, Message, MessageStamp, SavedRow};

/// A saved conversation read on the remote machine: its line in the list, every message read (one
/// that could not be read marked in its place), and why the read stopped early, if it did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RemoteConversation {
    pub summary: ConversationSummary,
    /// As one JSON text, of rows without tags: a message may hold a block of a kind this build
    /// does not know, kept as its raw JSON, which cannot be read back from inside a tagged value.
    #[serde(with = "json_text")]
    pub rows: Vec<RemoteRow>,
    #[serde(default)]
    pub stopped: Option<String>,
}

/// One message of a [`RemoteConversation`]: the message, or why it could not be read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RemoteRow {
    #[serde(default)]
    pub message: Option<Message>,
    #[serde(default)]
    pub unreadable: Option<String>,
    #[serde(default)]
    pub stamp: MessageStamp,
}

impl From<RemoteRow> for SavedRow {
    fn from(row: RemoteRow) -> Self {
        match (row.message, row.unreadable) {
            (Some(message), None) => Self::Read { message, stamp: row.stamp },
            (_, Some(reason)) => Self::Unreadable { reason },
            (None, None) => {
                Self::Unreadable { reason: "the remote engine sent a row without its message".into() }
            }
        }
    }
}

impl From<SavedRow> for RemoteRow {
    fn from(row: SavedRow) -> Self {
        match row {
            SavedRow::Read { message, stamp } => Self { message: Some(message), unreadable: None, stamp },
            SavedRow::Unreadable { reason } => {
                Self { message: None, unreadable: Some(reason), stamp: MessageStamp::default() }
            }
        }
    }
}

/// A value written as a JSON string of its own JSON, and read back from one.
mod json_text {
    use serde::de::{DeserializeOwned, Error as _};
    use serde::ser::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<T: Serialize, S: Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
        serde_json::to_string(value).map_err(S::Error::custom)?.serialize(serializer)
    }

    pub fn deserialize<'de, T: DeserializeOwned, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<T, D::Error> {
        let text = String::deserialize(deserializer)?;
        serde_json::from_str(&text).map_err(D::Error::custom)
    }
}

//! The conversation files an older Warden wrote, one `conversations/<id>.json` per conversation,
//! read once to import them into the store.
//!
//! # Format
//!
//! An object: `{"version": 1, "title": …, "projectRoot": …, "messages": [...]}`, the title and the
//! project optional. The first builds wrote a bare array of messages.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use warden_protocol::Message;

/// A conversation file as stored.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryFile {
    #[serde(default = "current_version")]
    pub version: u32,
    /// What the user named it; `None`: named after its first message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The project folder the conversation was held in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project_root: Option<PathBuf>,
    #[serde(default)]
    pub messages: Vec<Message>,
    /// What a newer build wrote and this one does not know: kept as it is.
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

fn current_version() -> u32 {
    1
}

/// Why a conversation file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("no such conversation file")]
    Missing,
    #[error("could not read {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path} is not a conversation file: {source}")]
    Invalid { path: PathBuf, source: serde_json::Error },
}

/// The file at `path`, either format. Changes nothing on disk.
pub fn read(path: &Path) -> Result<HistoryFile, ReadError> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(ReadError::Missing),
        Err(source) => return Err(ReadError::Io { path: path.to_path_buf(), source }),
    };
    parse(&bytes).map_err(|source| ReadError::Invalid { path: path.to_path_buf(), source })
}

fn parse(bytes: &[u8]) -> Result<HistoryFile, serde_json::Error> {
    let legacy = bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[');
    if legacy {
        let messages = serde_json::from_slice(bytes)?;
        return Ok(HistoryFile { version: 1, messages, ..HistoryFile::default() });
    }
    serde_json::from_slice(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_formats_read_and_a_broken_file_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let bare = dir.path().join("bare.json");
        let history = vec![Message::user_text("old format")];
        std::fs::write(&bare, serde_json::to_vec(&history).unwrap()).unwrap();
        let file = read(&bare).unwrap();
        assert_eq!((file.messages, file.title), (history.clone(), None));
        let object = dir.path().join("object.json");
        std::fs::write(&object, r#"{"version":2,"title":"Mine","pinned":true,"messages":[]}"#).unwrap();
        let file = read(&object).unwrap();
        assert_eq!((file.title.as_deref(), file.version), (Some("Mine"), 2));
        std::fs::write(&object, "{broken").unwrap();
        assert!(matches!(read(&object), Err(ReadError::Invalid { .. })));
        assert!(matches!(read(&dir.path().join("none.json")), Err(ReadError::Missing)));
    }
}

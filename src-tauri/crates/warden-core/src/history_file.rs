//! A conversation's history on disk, so a conversation survives the app's restart. Written whole
//! and atomically after every turn; a file that cannot be read is kept aside, never overwritten.
//!
//! # Format
//!
//! An object: `{"version": 1, "title": …, "projectRoot": …, "messages": [...]}`, the title and the
//! project optional. Files written before there was a title are a bare array of messages; they
//! still load, and take the object form at their next save. Fields this build does not know are
//! kept when the file is rewritten.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use warden_protocol::{ContentBlock, Message, Role};

use crate::config::{move_aside, write_atomic, ConfigError};

/// The format written by this build.
pub const HISTORY_VERSION: u32 = 1;

/// Serialises every read-modify-write of a conversation file in this process: a turn's save and a
/// rename never lose each other's change.
static HISTORY_LOCK: Mutex<()> = Mutex::new(());

fn history_lock() -> MutexGuard<'static, ()> {
    HISTORY_LOCK.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

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
    HISTORY_VERSION
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

impl ReadError {
    /// For a file that had to be there.
    fn into_config(self, path: &Path) -> ConfigError {
        let (path, source) = match self {
            Self::Missing => (path.to_path_buf(), std::io::Error::from(std::io::ErrorKind::NotFound)),
            Self::Io { path, source } => (path, source),
            Self::Invalid { path, source } => {
                (path, std::io::Error::new(std::io::ErrorKind::InvalidData, source))
            }
        };
        ConfigError::Read { path, source }
    }
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
        return Ok(HistoryFile { version: HISTORY_VERSION, messages, ..HistoryFile::default() });
    }
    serde_json::from_slice(bytes)
}

/// The stored history, or an empty one when there is none yet. An unreadable file is moved
/// aside (`.invalid`) so the next save cannot destroy what it held.
pub fn load(path: &Path) -> Result<Vec<Message>, ConfigError> {
    let _lock = history_lock();
    match read(path) {
        Ok(file) => Ok(file.messages),
        Err(ReadError::Missing) => Ok(Vec::new()),
        Err(ReadError::Invalid { path, source }) => {
            tracing::warn!(error = %source, path = %path.display(), "conversation file unreadable; starting empty");
            move_aside(&path).map_err(|source| ConfigError::Write { path, source })?;
            Ok(Vec::new())
        }
        Err(error) => Err(error.into_config(path)),
    }
}

/// Saves the messages, keeping the title and whatever else the file there holds. The project is
/// recorded when given. An unreadable file there is moved aside first, never overwritten.
pub fn save(path: &Path, history: &[Message], project_root: Option<&Path>) -> Result<(), ConfigError> {
    let _lock = history_lock();
    let mut file = existing(path)?;
    file.messages = history.to_vec();
    if let Some(root) = project_root {
        file.project_root = Some(root.to_path_buf());
    }
    write(path, &mut file)
}

/// Sets (`Some`) or clears (`None`) a saved conversation's title; `false` when there is no such
/// file. Its modification time, the "last changed" of the conversation list, stays what it was:
/// a rename is no new activity.
pub fn set_title(path: &Path, title: Option<String>) -> Result<bool, ConfigError> {
    let _lock = history_lock();
    let mut file = match read(path) {
        Ok(file) => file,
        Err(ReadError::Missing) => return Ok(false),
        Err(error) => return Err(error.into_config(path)),
    };
    let modified = std::fs::metadata(path).and_then(|m| m.modified()).ok();
    file.title = title;
    write(path, &mut file)?;
    if let Some(modified) = modified {
        keep_modified(path, modified);
    }
    Ok(true)
}

/// Drops the message the user wrote `n`-th (0-based; tool results do not count) and everything
/// after it, keeping the rest of the file. `Ok(None)` when the file has no such message (or no
/// file is there); else the text of the dropped message, to offer again.
pub fn rewind(path: &Path, n: usize) -> Result<Option<String>, ConfigError> {
    let _lock = history_lock();
    let mut file = match read(path) {
        Ok(file) => file,
        Err(ReadError::Missing) => return Ok(None),
        Err(error) => return Err(error.into_config(path)),
    };
    let Some(at) = nth_user_message(&file.messages, n) else { return Ok(None) };
    let text = user_text(&file.messages[at]);
    file.messages.truncate(at);
    write(path, &mut file)?;
    Ok(Some(text))
}

/// Where the `n`-th message the user wrote is (a user message that is not only tool results).
pub fn nth_user_message(messages: &[Message], n: usize) -> Option<usize> {
    messages
        .iter()
        .enumerate()
        .filter(|(_, m)| {
            m.role == Role::User && m.content.iter().any(|b| !matches!(b, ContentBlock::ToolResult(_)))
        })
        .nth(n)
        .map(|(i, _)| i)
}

fn user_text(message: &Message) -> String {
    message
        .content
        .iter()
        .filter_map(|b| if let ContentBlock::Text { text } = b { Some(text.as_str()) } else { None })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Removes a conversation file; `false` when there was none.
pub fn remove(path: &Path) -> std::io::Result<bool> {
    let _lock = history_lock();
    match std::fs::remove_file(path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

/// The file there to update: empty when there is none, and an unreadable one is moved aside.
fn existing(path: &Path) -> Result<HistoryFile, ConfigError> {
    match read(path) {
        Ok(file) => Ok(file),
        Err(ReadError::Missing) => Ok(HistoryFile::default()),
        Err(ReadError::Invalid { path, source }) => {
            let aside =
                move_aside(&path).map_err(|source| ConfigError::Write { path: path.clone(), source })?;
            tracing::warn!(error = %source, aside = %aside.display(), "conversation file unreadable; kept aside");
            Ok(HistoryFile::default())
        }
        Err(error) => Err(error.into_config(path)),
    }
}

fn write(path: &Path, file: &mut HistoryFile) -> Result<(), ConfigError> {
    file.version = HISTORY_VERSION.max(file.version);
    let json = serde_json::to_vec(file)?;
    write_atomic(path, &json).map_err(|source| ConfigError::Write { path: path.to_path_buf(), source })
}

fn keep_modified(path: &Path, modified: SystemTime) {
    let set = std::fs::File::options().write(true).open(path).and_then(|f| f.set_modified(modified));
    if let Err(error) = set {
        tracing::debug!(%error, path = %path.display(), "could not keep the conversation's modification time");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_a_missing_file_is_an_empty_history() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("conversations/c1.json");
        assert!(load(&path).unwrap().is_empty());
        let history = vec![Message::user_text("hi"), Message::user_text("again")];
        save(&path, &history, None).unwrap();
        assert_eq!(load(&path).unwrap(), history);
    }

    #[test]
    fn an_unreadable_file_is_kept_aside() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c1.json");
        std::fs::write(&path, "[{broken").unwrap();
        assert!(load(&path).unwrap().is_empty());
        assert_eq!(std::fs::read_to_string(dir.path().join("c1.json.invalid")).unwrap(), "[{broken");
    }

    #[test]
    fn an_unreadable_file_is_kept_aside_by_a_save_too() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c1.json");
        std::fs::write(&path, "{broken").unwrap();
        save(&path, &[Message::user_text("hi")], None).unwrap();
        assert_eq!(std::fs::read_to_string(dir.path().join("c1.json.invalid")).unwrap(), "{broken");
        assert_eq!(load(&path).unwrap(), vec![Message::user_text("hi")]);
    }

    #[test]
    fn a_bare_array_of_messages_still_loads() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c1.json");
        let history = vec![Message::user_text("old format")];
        std::fs::write(&path, serde_json::to_vec(&history).unwrap()).unwrap();
        let file = read(&path).unwrap();
        assert_eq!((file.messages, file.title), (history, None));
    }

    #[test]
    fn a_save_keeps_the_title_and_what_a_newer_build_wrote() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c1.json");
        std::fs::write(&path, r#"{"version":2,"title":"Mine","pinned":true,"messages":[]}"#).unwrap();
        save(&path, &[Message::user_text("hi")], Some(Path::new("/p"))).unwrap();
        let file = read(&path).unwrap();
        assert_eq!(file.title.as_deref(), Some("Mine"));
        assert_eq!(file.project_root, Some(PathBuf::from("/p")));
        assert_eq!(file.version, 2);
        assert_eq!(file.other.get("pinned"), Some(&Value::Bool(true)));
    }

    #[test]
    fn a_title_change_keeps_the_messages_and_the_modification_time() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c1.json");
        save(&path, &[Message::user_text("hi")], None).unwrap();
        let old = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000);
        keep_modified(&path, old);
        assert!(set_title(&path, Some("Named".into())).unwrap());
        assert_eq!(std::fs::metadata(&path).unwrap().modified().unwrap(), old);
        let file = read(&path).unwrap();
        assert_eq!((file.title.as_deref(), file.messages.len()), (Some("Named"), 1));
        assert!(!set_title(&dir.path().join("none.json"), None).unwrap());
    }
}

//! The saved conversations: listed from the files under Warden's home (so every face sees the same
//! ones, whatever a window remembers), renamed and deleted.

use std::path::PathBuf;
use std::time::SystemTime;

use warden_protocol::{ContentBlock, ConversationPage, ConversationSummary, Message, Role};

use super::Engine;
use crate::config::ConfigError;
use crate::history_file::{self, HistoryFile};

/// The most conversations one page holds.
pub const MAX_PAGE: u32 = 500;
/// How long a title made from a first message may be, in characters.
const TITLE_CHARS: usize = 60;
/// How long a title the user gives may be, in characters.
const MAX_TITLE_CHARS: usize = 200;
/// The title of a conversation with nothing to name it after.
const UNTITLED: &str = "New conversation";

#[derive(Debug, thiserror::Error)]
pub enum ConversationError {
    #[error("`{0}` is not a conversation id (letters, digits, `-` and `_` only)")]
    BadId(String),
    #[error("there is no saved conversation `{0}`")]
    NotFound(String),
    #[error("could not delete the conversation: {0}")]
    Delete(std::io::Error),
    #[error(transparent)]
    Config(#[from] ConfigError),
}

/// A saved conversation file and when it last changed.
struct Found {
    id: String,
    path: PathBuf,
    modified: SystemTime,
}

impl Engine {
    /// The saved conversations, newest first, `limit` (1 to [`MAX_PAGE`]) from `offset`. A
    /// file that cannot be read is left out with a warning; it never fails the list.
    pub fn list_conversations(&self, offset: u32, limit: u32) -> ConversationPage {
        let mut found = self.conversation_files();
        found.sort_by(|a, b| b.modified.cmp(&a.modified).then_with(|| a.id.cmp(&b.id)));
        let start = usize::try_from(offset).unwrap_or(usize::MAX).min(found.len());
        let limit = usize::try_from(limit.clamp(1, MAX_PAGE)).unwrap_or(1);
        let end = start.saturating_add(limit).min(found.len());
        let conversations = found[start..end].iter().filter_map(summary).collect();
        let next_offset = (end < found.len()).then(|| u32::try_from(end).unwrap_or(u32::MAX));
        ConversationPage { conversations, next_offset }
    }

    /// Names a saved conversation; an empty title goes back to naming it after its first message.
    pub fn rename_conversation(&self, id: &str, title: &str) -> Result<(), ConversationError> {
        let path = self.conversation_file(id)?;
        let title = clean_title(title);
        if history_file::set_title(&path, title)? {
            Ok(())
        } else {
            Err(ConversationError::NotFound(id.to_owned()))
        }
    }

    /// Deletes a saved conversation. Deleting one that was never saved is no error.
    pub fn delete_conversation(&self, id: &str) -> Result<(), ConversationError> {
        let path = self.conversation_file(id)?;
        history_file::remove(&path).map_err(ConversationError::Delete)?;
        Ok(())
    }

    /// Drops the `n`-th message the user wrote in a saved conversation (0-based) and everything
    /// after it: the conversation goes on from before it. The project's files are not touched
    /// (restoring them is a separate choice). The dropped message's text comes back, to offer again.
    pub fn rewind_conversation(&self, id: &str, n: usize) -> Result<String, ConversationError> {
        let path = self.conversation_file(id)?;
        history_file::rewind(&path, n)?
            .ok_or_else(|| ConversationError::NotFound(format!("{id} (message {n})")))
    }

    fn conversation_file(&self, id: &str) -> Result<PathBuf, ConversationError> {
        self.home.conversation_path(id).ok_or_else(|| ConversationError::BadId(id.to_owned()))
    }

    /// Every `<id>.json` in the conversations folder whose name is a conversation id (not the
    /// files kept aside, not temporary files).
    fn conversation_files(&self) -> Vec<Found> {
        let dir = self.home.conversations_dir();
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Vec::new(),
            Err(error) => {
                tracing::warn!(%error, dir = %dir.display(), "could not list the saved conversations");
                return Vec::new();
            }
        };
        entries
            .filter_map(|entry| {
                let path = entry.ok()?.path();
                let id = path.file_name()?.to_str()?.strip_suffix(".json")?.to_owned();
                (self.home.conversation_path(&id).as_deref() == Some(path.as_path())).then_some((id, path))
            })
            .filter_map(|(id, path)| match std::fs::metadata(&path).and_then(|m| m.modified()) {
                Ok(modified) if path.is_file() => Some(Found { id, path, modified }),
                Ok(_) => None,
                Err(error) => {
                    tracing::warn!(%error, path = %path.display(), "skipping a conversation file");
                    None
                }
            })
            .collect()
    }
}

/// The line a conversation gets in the list, or `None` (logged) when its file cannot be read.
fn summary(found: &Found) -> Option<ConversationSummary> {
    let file: HistoryFile = match history_file::read(&found.path) {
        Ok(file) => file,
        Err(error) => {
            tracing::warn!(%error, path = %found.path.display(), "skipping an unreadable conversation file");
            return None;
        }
    };
    let title =
        file.title.clone().filter(|t| !t.trim().is_empty()).unwrap_or_else(|| title_from(&file.messages));
    Some(ConversationSummary {
        id: found.id.clone(),
        title,
        project_root: file.project_root.as_deref().map(|p| p.to_string_lossy().into_owned()),
        updated_at_ms: millis_since_epoch(found.modified),
        message_count: u32::try_from(file.messages.len()).unwrap_or(u32::MAX),
    })
}

/// The first line of the first thing the user said, cut to [`TITLE_CHARS`].
fn title_from(messages: &[Message]) -> String {
    let first = messages.iter().filter(|m| m.role == Role::User).find_map(|m| {
        m.content.iter().find_map(|block| match block {
            ContentBlock::Text { text } => text.lines().map(str::trim).find(|line| !line.is_empty()),
            _ => None,
        })
    });
    match first {
        Some(line) => cut(line, TITLE_CHARS),
        None => UNTITLED.to_owned(),
    }
}

/// A title as given by the user: one line, trimmed, at most [`MAX_TITLE_CHARS`]; `None` when empty.
fn clean_title(title: &str) -> Option<String> {
    let one_line: String = title.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let trimmed = one_line.trim();
    (!trimmed.is_empty()).then(|| cut(trimmed, MAX_TITLE_CHARS))
}

fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let kept: String = text.chars().take(max - 1).collect();
    format!("{}…", kept.trim_end())
}

fn millis_since_epoch(time: SystemTime) -> u64 {
    time.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

//! The saved conversations, as every face sees them: listed, searched, renamed, deleted (and
//! brought back), rewound. They live in the conversation store (see [`crate::conversations`]), opened
//! when first needed; the files an older Warden kept are imported then.

use std::sync::Arc;

use warden_protocol::{
    CompactionInfo, ContentBlock, ConversationHit, ConversationPage, ConversationSummary, Message,
    ReadOnlyHistory, Role, SavedRow,
};

use super::Engine;
use crate::agent::compaction::Compacted;
use crate::conversations::{self as saved, ConversationStore, StoreError};

pub use crate::conversations::read::MAX_PAGE;

#[derive(Debug, thiserror::Error)]
pub enum ConversationError {
    #[error("`{0}` is not a conversation id (letters, digits, `-` and `_` only)")]
    BadId(String),
    #[error("there is no saved conversation `{0}`")]
    NotFound(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A saved conversation that cannot be read whole (a message a newer Warden wrote in a form this
/// build does not know, a damaged row, the store busy or unopenable): it is not continued and
/// nothing is written to it; what can be read of it is shown read-only
/// ([`Engine::read_only_history`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "conversation {id} cannot be read whole: {reason}. It is left as it is, and nothing is written \
to it"
)]
pub struct Unreadable {
    pub id: String,
    pub reason: String,
}

/// A saved conversation read whole: what a session continues from.
#[derive(Debug, Clone, Default)]
pub struct SavedConversation {
    pub history: Vec<Message>,
    /// The summary its model is sent in place of its older part, if compacted.
    pub compacted: Option<Compacted>,
}

/// The store, opened once per engine (a failed open is tried again next time).
#[derive(Default)]
pub(super) struct OpenStore(std::sync::Mutex<Option<Arc<ConversationStore>>>);

impl Engine {
    /// The conversation saved under `id`, read whole; empty for one never saved (and for an id
    /// that cannot name one). Refused when any of it cannot be read, or the store cannot be
    /// opened: a session goes on only from the whole conversation, so it never saves a message
    /// over ones it could not read.
    pub fn saved_conversation(&self, id: &str) -> Result<SavedConversation, Unreadable> {
        if !saved::is_conversation_id(id) {
            return Ok(SavedConversation::default());
        }
        let unreadable =
            |error: &dyn std::fmt::Display| Unreadable { id: id.to_owned(), reason: error.to_string() };
        let store = self.conversation_store().map_err(|e| unreadable(&e))?;
        let history = store.messages(id).map_err(|e| unreadable(&e))?;
        let compacted = store.latest_compaction(id).map_err(|e| unreadable(&e))?.map(Into::into);
        Ok(SavedConversation { history, compacted })
    }

    /// What can be read of a saved conversation, to show it read-only: every message read, one
    /// that could not be read marked in its place, and why it cannot be read whole (`None` when
    /// it now can).
    pub fn read_only_history(&self, id: &str) -> Result<ReadOnlyHistory, ConversationError> {
        let id = checked(id)?;
        let back = match self.conversation_store().map_err(|e| e.to_string()) {
            Ok(store) => store.read_back(id).map_err(|e| e.to_string()),
            Err(error) => Err(error),
        };
        let (back, reason) = match back {
            Ok(back) => {
                let reason = back.problem().map(|problem| problem.to_string());
                (back, reason)
            }
            Err(reason) => (saved::ReadBack::default(), Some(reason)),
        };
        let rows = back
            .rows
            .into_iter()
            .map(|row| match row.message {
                Ok(message) => SavedRow::Read { message, stamp: row.stamp },
                Err(reason) => SavedRow::Unreadable { reason },
            })
            .collect();
        Ok(ReadOnlyHistory { reason, rows })
    }

    /// The conversation store, opened (and the older conversation files imported) on first use.
    pub fn conversation_store(&self) -> Result<Arc<ConversationStore>, ConversationError> {
        let mut open = self.store.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(store) = open.as_ref() {
            return Ok(store.clone());
        }
        let store = Arc::new(ConversationStore::open_home(&self.home)?);
        *open = Some(store.clone());
        Ok(store)
    }

    /// The saved conversations, newest first, `limit` (1 to [`MAX_PAGE`]) from `offset`.
    pub fn list_conversations(&self, offset: u32, limit: u32) -> Result<ConversationPage, ConversationError> {
        Ok(self.conversation_store()?.list(offset, limit)?)
    }

    /// [`Engine::list_conversations`], of those held in `project` only when it is given.
    pub fn list_conversations_in(
        &self,
        project: Option<&std::path::Path>,
        offset: u32,
        limit: u32,
    ) -> Result<ConversationPage, ConversationError> {
        Ok(self.conversation_store()?.list_in(project, offset, limit)?)
    }

    /// The saved conversations holding every word of `query` (titles first), at most `limit`.
    pub fn search_conversations(
        &self,
        query: &str,
        limit: u32,
    ) -> Result<Vec<ConversationHit>, ConversationError> {
        Ok(self.conversation_store()?.search(query, limit)?)
    }

    /// One saved conversation's line in the list.
    pub fn conversation_summary(&self, id: &str) -> Result<ConversationSummary, ConversationError> {
        let id = checked(id)?;
        self.conversation_store()?.summary(id)?.ok_or_else(|| ConversationError::NotFound(id.to_owned()))
    }

    /// The most recently changed conversation held in `project` (any when `None`).
    pub fn latest_conversation(
        &self,
        project: Option<&std::path::Path>,
    ) -> Result<Option<String>, ConversationError> {
        Ok(self.conversation_store()?.latest(project)?)
    }

    /// Where a saved conversation's older part was last summarized, if it was.
    pub fn conversation_compaction(&self, id: &str) -> Result<Option<CompactionInfo>, ConversationError> {
        let id = checked(id)?;
        // Only a summary draws a divider; cut tool results do not.
        let found = self.conversation_store()?.latest_compaction(id)?.filter(|c| c.upto_seq > 0);
        Ok(found.map(|c| CompactionInfo {
            summarized_messages: u32::try_from(c.upto_seq).unwrap_or(u32::MAX),
            tokens_before: c.tokens_before,
            tokens_after: c.tokens_after,
        }))
    }

    /// Names a saved conversation; an empty title goes back to naming it after its first message.
    pub fn rename_conversation(&self, id: &str, title: &str) -> Result<(), ConversationError> {
        let id = checked(id)?;
        let title = saved::text::clean_title(title);
        if self.conversation_store()?.set_title(id, title.as_deref())? {
            Ok(())
        } else {
            Err(ConversationError::NotFound(id.to_owned()))
        }
    }

    /// Deletes a saved conversation; [`Engine::restore_conversation`] brings it back for a while
    /// (see [`saved::UNDO_DELETE`]). Deleting one that was never saved is no error.
    pub fn delete_conversation(&self, id: &str) -> Result<(), ConversationError> {
        let id = checked(id)?;
        self.conversation_store()?.delete(id)?;
        Ok(())
    }

    /// Deletes a saved conversation for good, at once; `NotFound` when there is none.
    pub fn remove_conversation(&self, id: &str) -> Result<(), ConversationError> {
        let id = checked(id)?;
        if self.conversation_store()?.remove(id)? {
            Ok(())
        } else {
            Err(ConversationError::NotFound(id.to_owned()))
        }
    }

    /// Brings back a conversation deleted moments ago.
    pub fn restore_conversation(&self, id: &str) -> Result<(), ConversationError> {
        let id = checked(id)?;
        if self.conversation_store()?.restore(id)? {
            Ok(())
        } else {
            Err(ConversationError::NotFound(id.to_owned()))
        }
    }

    /// Drops the `n`-th message the user wrote in a saved conversation (0-based) and everything
    /// after it: the conversation goes on from before it. The project's files are not touched
    /// (restoring them is a separate choice). The dropped message's text comes back, to offer again.
    pub fn rewind_conversation(&self, id: &str, n: usize) -> Result<String, ConversationError> {
        let id = checked(id)?;
        let store = self.conversation_store()?;
        let messages = store.messages(id)?;
        let not_found = || ConversationError::NotFound(format!("{id} (message {n})"));
        let at = nth_user_message(&messages, n).ok_or_else(not_found)?;
        store.truncate(id, at)?;
        Ok(user_text(&messages[at]))
    }
}

fn checked(id: &str) -> Result<&str, ConversationError> {
    if saved::is_conversation_id(id) {
        Ok(id)
    } else {
        Err(ConversationError::BadId(id.to_owned()))
    }
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

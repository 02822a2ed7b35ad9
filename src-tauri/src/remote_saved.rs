//! A linked remote project's saved conversations and box, as the window's list, transcript and
//! Settings → Sandbox use them: read, searched, renamed and cleared there, where they are kept.

use std::sync::atomic::Ordering;

use warden_protocol::{
    ConversationHit, MessageStamp, ReadOnlyHistory, RemoteConversation, RemoteRequest, RemoteResult, SavedRow,
};

use super::{wrong_answer, RemoteHandle};
use crate::error::CommandResult;

/// Why `conversation` cannot be read whole there (`None`: it can).
pub(super) fn unreadable(conversation: &RemoteConversation) -> Option<String> {
    conversation.stopped.clone().or_else(|| conversation.rows.iter().find_map(|row| row.unreadable.clone()))
}

impl RemoteHandle {
    /// The conversation as saved there, every row as far as it reads (`None`: a new one, nothing
    /// saved there until its first message).
    pub(super) async fn read_there(&self) -> CommandResult<Option<RemoteConversation>> {
        if !self.saved.load(Ordering::SeqCst) {
            return Ok(None);
        }
        let id = self.attached.conversation_id().to_owned();
        ask_for!(self, RemoteRequest::ConversationRead { id }, RemoteResult::Conversation).map(Some)
    }

    /// When each message saved there was written and which model wrote each answer, in the order
    /// of its history.
    pub async fn saved_stamps(&self) -> CommandResult<Vec<MessageStamp>> {
        if !self.saved.load(Ordering::SeqCst) {
            return Ok(Vec::new());
        }
        let id = self.attached.conversation_id().to_owned();
        ask_for!(self, RemoteRequest::ConversationStamps { id }, RemoteResult::Stamps)
    }

    /// What can be read there of a conversation that cannot be read whole, to show it read-only.
    pub async fn read_only(&self) -> CommandResult<ReadOnlyHistory> {
        let Some(conversation) = self.read_there().await? else {
            return Ok(ReadOnlyHistory { reason: None, rows: Vec::new() });
        };
        let reason = unreadable(&conversation).map(|why| format!("on {}: {why}", self.target.host));
        Ok(ReadOnlyHistory { reason, rows: conversation.rows.into_iter().map(SavedRow::from).collect() })
    }

    /// `host:/path`, as the window shows the project.
    pub fn target(&self) -> String {
        self.target.to_string()
    }

    /// The conversations held in the remote project's folder there that hold every word of
    /// `query`, at most `limit`.
    pub async fn search(&self, query: String, limit: u32) -> CommandResult<Vec<ConversationHit>> {
        let request = RemoteRequest::ConversationSearch { query, limit, project: Some(self.project()) };
        ask_for!(self, request, RemoteResult::Hits)
    }

    /// Names conversation `id` there; an empty title names it after its first message again.
    pub async fn rename(&self, id: String, title: String) -> CommandResult<()> {
        self.ask_done(RemoteRequest::ConversationRename { id, title }).await
    }

    /// Removes the remote project's cache layer there (what its boxes wrote to the caches).
    pub async fn clear_cache_layer(&self) -> CommandResult<()> {
        self.ask_done(RemoteRequest::ClearCacheLayer { project: self.project() }).await
    }
}

//! A linked remote project's saved conversations and box, as the window's list and Settings →
//! Sandbox use them: searched, renamed and cleared there, where they are kept.

use warden_protocol::{ConversationHit, RemoteRequest, RemoteResult};

use super::{wrong_answer, RemoteHandle};
use crate::error::CommandResult;

impl RemoteHandle {
    /// `host:/path`, as the window shows the project.
    pub fn target(&self) -> String {
        self.target.to_string()
    }

    /// The conversations held in the remote project's folder there that hold every word of
    /// `query`, at most `limit`.
    pub async fn search(&self, query: String, limit: u32) -> CommandResult<Vec<ConversationHit>> {
        match self
            .ask(RemoteRequest::ConversationSearch { query, limit, project: Some(self.project()) })
            .await?
        {
            RemoteResult::Hits(hits) => Ok(hits),
            other => Err(wrong_answer(&other)),
        }
    }

    /// Names conversation `id` there; an empty title names it after its first message again.
    pub async fn rename(&self, id: String, title: String) -> CommandResult<()> {
        match self.ask(RemoteRequest::ConversationRename { id, title }).await? {
            RemoteResult::Done => Ok(()),
            other => Err(wrong_answer(&other)),
        }
    }

    /// Removes the remote project's cache layer there (what its boxes wrote to the caches).
    pub async fn clear_cache_layer(&self) -> CommandResult<()> {
        match self.ask(RemoteRequest::ClearCacheLayer { project: self.project() }).await? {
            RemoteResult::Done => Ok(()),
            other => Err(wrong_answer(&other)),
        }
    }
}

//! What a face does to its session's history between turns: "Compact now" and "Rewind
//! conversation to here", as the window does them to a conversation open here.

use std::sync::Arc;

use warden_protocol::{RemoteError, RemoteResult};

use super::live::Live;
use super::refusal::{failed, usage};
use crate::agent::{CompactNowError, Session};
use crate::engine::ConversationError;

/// The session `live` holds, when no turn runs in it.
pub(super) fn idle_session(live: &Live, doing: &str) -> Result<Session, RemoteError> {
    let session = live.held_session()?;
    if live.is_running() || session.is_busy() {
        return Err(usage(&format!("this conversation is still answering: stop it before {doing} it")));
    }
    Ok(session)
}

/// Summarizes the older part of the session's history (its `chat:compacted` event goes with
/// the session's others). Long: the caller runs it beside the link, which goes on reading (a
/// cancel stops it).
pub(super) async fn compact(live: Arc<Live>) -> Result<RemoteResult, RemoteError> {
    let session = idle_session(&live, "compacting")?;
    match session.compact_now().await {
        Ok(_) => Ok(RemoteResult::Done),
        Err(CompactNowError::Busy) => Err(usage(&CompactNowError::Busy.to_string())),
        Err(error) => Err(failed(error)),
    }
}

/// Drops the `user_message`-th message the user wrote and everything after it from the saved
/// conversation, and the session goes on from what is left (with the compaction that still
/// holds). The project's files are not touched.
pub(super) async fn rewind(live: &Live, user_message: u32) -> Result<RemoteResult, RemoteError> {
    let session = idle_session(live, "rewinding")?;
    let engine = live.held_engine()?;
    let n = usize::try_from(user_message).unwrap_or(usize::MAX);
    let work = move || {
        let id = session.conversation_id().to_owned();
        let text = engine.rewind_conversation(&id, n).map_err(|error| match error {
            ConversationError::NotFound(_) => usage(&format!(
                "conversation {id} has no message {} of yours saved here to rewind to",
                n.saturating_add(1)
            )),
            ConversationError::BadId(_) => usage(&error.to_string()),
            ConversationError::Store(_) => failed(error),
        })?;
        let saved = engine.saved_conversation(&id).map_err(failed)?;
        let _ = session.with_history(saved.history).with_compaction(saved.compacted);
        Ok(RemoteResult::Rewound { text })
    };
    tokio::task::spawn_blocking(work)
        .await
        .unwrap_or_else(|error| Err(failed(format!("the rewind failed: {error}"))))
}

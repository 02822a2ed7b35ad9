//! The saved conversations of the remote machine, over the link (`warden sessions --remote`):
//! listed, searched, read, renamed and deleted there, as `warden sessions` and the window's list
//! do here.

use warden_protocol::{
    ConversationHit, RemoteConversation, RemoteError, RemoteRequest, RemoteResult, SavedRow,
};

use super::refusal::{failed, usage};
use crate::conversations::MAX_SEARCH_HITS as MAX_HITS;
use crate::engine::{ConversationError, Engine};

/// The answer to one of the conversation requests; any other request is a usage error.
pub(super) fn answer(engine: &Engine, request: RemoteRequest) -> Result<RemoteResult, RemoteError> {
    match request {
        RemoteRequest::ConversationList { offset, limit, project } => engine
            .list_conversations_in(project.as_deref().map(held_as).as_deref(), offset, limit)
            .map(RemoteResult::Conversations)
            .map_err(refused),
        RemoteRequest::ConversationSearch { query, limit, project } => {
            search(engine, &query, limit, project.as_deref()).map(RemoteResult::Hits)
        }
        RemoteRequest::ConversationRename { id, title } => {
            engine.rename_conversation(&id, &title).map(|()| RemoteResult::Done).map_err(refused)
        }
        RemoteRequest::ConversationRead { id } => read(engine, &id).map(RemoteResult::Conversation),
        RemoteRequest::ConversationStamps { id } => Ok(RemoteResult::Stamps(engine.stored_stamps(&id))),
        RemoteRequest::ConversationCompaction { id } => {
            engine.conversation_compaction(&id).map(RemoteResult::Compaction).map_err(refused)
        }
        RemoteRequest::ConversationRemove { id } => {
            engine.remove_conversation(&id).map(|()| RemoteResult::Done).map_err(refused)
        }
        _ => Err(usage("not a request about saved conversations")),
    }
}

/// The conversations holding every word of `query`, at most `limit`; only those held in the folder
/// `project` when it is given (searched among the store's most hits, then cut to `limit`).
fn search(
    engine: &Engine,
    query: &str,
    limit: u32,
    project: Option<&str>,
) -> Result<Vec<ConversationHit>, RemoteError> {
    let Some(project) = project else {
        return engine.search_conversations(query, limit).map_err(refused);
    };
    let root = held_as(project);
    let mut hits = engine.search_conversations(query, MAX_HITS).map_err(refused)?;
    hits.retain(|hit| hit.conversation.project_root.as_deref().map(std::path::Path::new) == Some(&root));
    hits.truncate(usize::try_from(limit.clamp(1, MAX_HITS)).unwrap_or(usize::MAX));
    Ok(hits)
}

/// Conversation `id` as far as it can be read.
fn read(engine: &Engine, id: &str) -> Result<RemoteConversation, RemoteError> {
    let summary = engine.conversation_summary(id).map_err(refused)?;
    let back = engine.conversation_store().map_err(refused)?.read_back(id).map_err(failed)?;
    let rows = back
        .rows
        .into_iter()
        .map(|row| match row.message {
            Ok(message) => SavedRow::Read { message, stamp: row.stamp }.into(),
            Err(reason) => SavedRow::Unreadable { reason }.into(),
        })
        .collect();
    Ok(RemoteConversation { summary, rows, stopped: back.stopped })
}

/// A bad or unknown id is the caller's mistake; a store that fails is the engine's.
fn refused(error: ConversationError) -> RemoteError {
    match error {
        ConversationError::BadId(_) | ConversationError::NotFound(_) => usage(&error.to_string()),
        ConversationError::Store(_) => failed(error),
    }
}

/// A project folder as its conversations are saved with it: its real path, when it can be read.
fn held_as(project: &str) -> std::path::PathBuf {
    std::fs::canonicalize(project).unwrap_or_else(|_| project.into())
}

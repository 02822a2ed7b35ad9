//! The checkpoint taken before a call that can change files, and what the call changed.

use std::sync::Arc;

use warden_protocol::CallChanges;

use crate::agent::events::EventEmitter;
use crate::agent::first_look;
use crate::checkpoint::{CheckpointStore, Origin, Taken};

/// The checkpoint before one call, and what it takes to say what the call changed.
pub(super) struct Checkpointed {
    store: Arc<CheckpointStore>,
    origin: Origin,
    /// The checkpoint, or why there is none (the call runs all the same).
    pub(super) before: Result<Taken, String>,
}

impl Checkpointed {
    /// The checkpoint before the call `origin` names; while it waits for a long look at the
    /// project's files (the first), the faces are told how far it has come.
    pub(super) async fn before(store: Arc<CheckpointStore>, origin: Origin, events: &EventEmitter) -> Self {
        let (s, o) = (store.clone(), origin.clone());
        let taking = tokio::task::spawn_blocking(move || s.checkpoint(&o));
        let before = first_look::reported(&store, events, origin.tool_id.as_deref(), taking)
            .await
            .map_err(|e| e.to_string())
            .and_then(|taken| taken.map_err(|e| e.to_string()));
        if let Err(error) = &before {
            tracing::warn!(%error, "no checkpoint for this change");
        }
        Self { store, origin, before }
    }

    pub(super) async fn after(self) -> CallChanges {
        let before = match self.before {
            Ok(before) => before,
            Err(error) => {
                return CallChanges {
                    checkpoint_id: None,
                    files: Vec::new(),
                    error: Some(format!("No checkpoint for this change: {error}")),
                }
            }
        };
        let id = before.id.clone();
        let (store, origin) = (self.store, self.origin);
        let files = tokio::task::spawn_blocking(move || store.after(&before, &origin))
            .await
            .map_err(|e| e.to_string())
            .and_then(|files| files.map_err(|e| e.to_string()));
        match files {
            Ok(files) => CallChanges { checkpoint_id: Some(id), files, error: None },
            Err(error) => CallChanges {
                checkpoint_id: Some(id),
                files: Vec::new(),
                error: Some(format!("Could not tell what this call changed: {error}")),
            },
        }
    }
}

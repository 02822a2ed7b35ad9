//! The remote project's checkpoints, over the link: listed, diffed, and restored there as the
//! window does here — what a restore would do is asked first, and the link's session's background
//! commands are stopped before the files are put back when the user agreed.

use std::path::Path;

use warden_protocol::{RemoteError, RemoteRequest, RemoteResult, RestorePlan, RunningInProject, RunningKind};

use super::refusal::{failed, usage};
use crate::agent::Session;
use crate::checkpoint::{CheckpointError, CheckpointStore};
use crate::engine::Engine;

/// The answer to one of the checkpoint requests, for the project `session` (the link's, if one is
/// open) may work in; any other request is a usage error.
pub(super) fn answer(
    engine: &Engine,
    session: Option<&Session>,
    request: RemoteRequest,
) -> Result<RemoteResult, RemoteError> {
    match request {
        RemoteRequest::CheckpointList { project, conversation } => {
            let store = store(engine, &project)?;
            store.list(conversation.as_deref()).map(RemoteResult::Checkpoints).map_err(failed)
        }
        RemoteRequest::CheckpointPatch { project, from, to, path } => {
            let store = store(engine, &project)?;
            store.patch(&from, to.as_deref(), path.as_deref()).map(RemoteResult::Patch).map_err(refused)
        }
        RemoteRequest::CheckpointRestorePlan { project, id, paths } => {
            let files = store(engine, &project)?.preview(&id, &paths).map_err(refused)?;
            let running = session
                .map(Session::background_commands)
                .unwrap_or_default()
                .into_iter()
                .map(|(_, command)| RunningInProject {
                    kind: RunningKind::Command,
                    name: command,
                    conversation_id: None,
                })
                .collect();
            Ok(RemoteResult::RestorePlan(RestorePlan { files, running }))
        }
        RemoteRequest::CheckpointRestore { project, id, paths, force, stop_running } => {
            let store = store(engine, &project)?;
            if let Some(session) = session.filter(|_| stop_running) {
                session.stop_background_commands();
            }
            store.restore(&id, &paths, force).map(RemoteResult::Restored).map_err(|error| RemoteError {
                usage: is_usage(&error),
                message: format!("not restored: {error}"),
            })
        }
        _ => Err(usage("not a request about checkpoints")),
    }
}

fn store(engine: &Engine, project: &str) -> Result<std::sync::Arc<CheckpointStore>, RemoteError> {
    engine.project_checkpoints(Path::new(project)).map_err(|e| usage(&e.to_string()))
}

/// A checkpoint the caller named wrongly is its mistake; anything else is the engine's.
fn refused(error: CheckpointError) -> RemoteError {
    RemoteError { usage: is_usage(&error), message: error.to_string() }
}

fn is_usage(error: &CheckpointError) -> bool {
    matches!(error, CheckpointError::UnknownCheckpoint(_) | CheckpointError::AmbiguousCheckpoint(_))
}

//! A restore from the window: what it would do, shown for the user's yes — the files it changes,
//! creates and deletes, and what runs in the project (background commands of its conversations,
//! its MCP servers) — and the restore itself, which stops those first when the user agreed. The
//! restore is safe without that step (it writes through the project's handles, see the checkpoint
//! store); stopping them only keeps them from working on files being put back under them.

use std::sync::Arc;

use warden_core::checkpoint::CheckpointStore;
use warden_core::engine::Engine;
use warden_protocol::{RestorePlan, RestoreReport, RunningInProject, RunningKind};

use crate::error::{CommandError, CommandResult};
use crate::state::AppState;

impl AppState {
    /// What restoring `paths` (all when empty) of checkpoint `id` would do now.
    pub async fn restore_plan(&self, id: String, paths: Vec<String>) -> CommandResult<RestorePlan> {
        let project = self.engine.current_project()?;
        let files = on_store(self.engine.clone(), move |store| store.preview(&id, &paths)).await?;
        let mut running = Vec::new();
        for (conversation, session) in self.sessions_in(&project).await {
            running.extend(session.background_commands().into_iter().map(|(_, command)| RunningInProject {
                kind: RunningKind::Command,
                name: command,
                conversation_id: Some(conversation.clone()),
            }));
        }
        running.extend(
            self.engine.project_mcp_running(&project).await.into_iter().map(|name| RunningInProject {
                kind: RunningKind::McpServer,
                name,
                conversation_id: None,
            }),
        );
        Ok(RestorePlan { files, running })
    }

    /// Restore, stopping what runs in the project first when `stop_running` (the user agreed).
    pub async fn restore(
        &self,
        id: String,
        paths: Vec<String>,
        force: bool,
        stop_running: bool,
    ) -> CommandResult<RestoreReport> {
        if stop_running {
            let project = self.engine.current_project()?;
            for (_, session) in self.sessions_in(&project).await {
                session.stop_background_commands();
            }
            self.engine.stop_project_mcp(&project).await;
        }
        // A turn that has just ended may hold the project a moment longer: the store waits for that.
        on_store(self.engine.clone(), move |store| store.restore(&id, &paths, force)).await
    }
}

/// Runs `work` on the current project's store, off the async threads.
pub async fn on_store<T: Send + 'static>(
    engine: Arc<Engine>,
    work: impl FnOnce(&CheckpointStore) -> Result<T, warden_core::checkpoint::CheckpointError> + Send + 'static,
) -> CommandResult<T> {
    tauri::async_runtime::spawn_blocking(move || {
        let store = engine.open_checkpoints()?;
        Ok(work(&store)?)
    })
    .await
    .map_err(|error| CommandError::internal(format!("Checkpoints failed: {error}")))?
}

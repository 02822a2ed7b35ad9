//! The tool path without a model, for `warden tool`: the same [`ToolRunner`] a session's calls
//! go through, built from the same spec and settings.

use std::future::Future;
use std::sync::Arc;

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use warden_protocol::{Event, OutputStream, ToolApproval, ToolConfirm, ToolResult};

use super::sessions::approval_timeout;
use super::{Engine, SessionSpec, SetupError};
use crate::agent::{CallPolicy, RequestedCall, ToolRunner};
use crate::tool::{ToolRegistry, ToolsConfig};

/// The result of `warden tool`.
#[derive(Debug, Clone)]
pub struct OneShot {
    pub result: ToolResult,
}

/// Every tool the window can list, with what a project without its own permissions allows there
/// ([`crate::tools::window_default_scope`]).
pub fn tool_catalog() -> Vec<warden_protocol::ToolInfo> {
    ToolRegistry::with_core_tools(ToolsConfig::default()).catalog(&crate::tools::window_default_scope())
}

impl Engine {
    /// Run one tool through the loop's own path ([`ToolRunner`]): validation, policy, approval,
    /// the sandbox, streamed output and the result. `on_output` receives streamed output (bash
    /// stdout/stderr) as it comes; `ask` answers a confirmation (its `confirm_id` is filled in here).
    pub async fn run_tool<O, F, Fut>(
        &self,
        spec: SessionSpec,
        name: &str,
        input: serde_json::Value,
        mut on_output: O,
        mut ask: F,
    ) -> Result<OneShot, SetupError>
    where
        O: FnMut(OutputStream, String),
        F: FnMut(ToolConfirm) -> Fut,
        Fut: Future<Output = ToolApproval>,
    {
        let (runner, mut events) = self.tool_runner(&spec).await?;
        if !runner.knows(name) {
            return Err(SetupError::UnknownTool(name.to_owned()));
        }
        let call = RequestedCall {
            id: format!("cli-{}", uuid::Uuid::new_v4()),
            name: name.to_owned(),
            input: Ok(input),
        };
        let cancel = CancellationToken::new();
        // Like a turn: a restore in this project waits until the call has ended.
        let _turn = runner.checkpoints().and_then(|store| store.turn_guard().ok());
        let run = runner.call("", call, &cancel);
        tokio::pin!(run);
        loop {
            tokio::select! {
                biased;
                Some(event) = events.recv() => match event {
                    Event::ToolDelta(delta) => on_output(delta.stream.unwrap_or(OutputStream::Stdout), delta.chunk),
                    Event::ToolConfirm(confirm) => {
                        let confirm_id = confirm.confirm_id.clone();
                        let answer = ask(confirm).await;
                        runner.approve(ToolApproval { confirm_id, ..answer });
                    }
                    _ => {}
                },
                outcome = &mut run => {
                    while let Ok(event) = events.try_recv() {
                        if let Event::ToolDelta(delta) = event {
                            on_output(delta.stream.unwrap_or(OutputStream::Stdout), delta.chunk);
                        }
                    }
                    return Ok(OneShot { result: outcome.result });
                }
            }
        }
    }

    /// The tool path of one session as the spec says, without a model: what `warden tool` runs.
    pub async fn tool_runner(
        &self,
        spec: &SessionSpec,
    ) -> Result<(ToolRunner, mpsc::UnboundedReceiver<Event>), SetupError> {
        let settings = self.settings();
        let project = self.project_outside_home(&spec.project)?;
        // The same policy a session of this project gets, from the same one reading of the settings.
        let policy = self.project_policy(spec, &project, &settings);
        // One call: the tools as they are now (no later changes to take up).
        let (registry, env, scope, _) =
            self.tools(spec, &project, policy, &settings, &Default::default()).await?;
        let policy = CallPolicy {
            trust: self.trust_allowed(spec.trust),
            scope,
            approval_timeout: approval_timeout(spec, &settings),
        };
        Ok(ToolRunner::standalone(spec.conversation_id.clone(), Arc::new(registry), env, policy))
    }
}

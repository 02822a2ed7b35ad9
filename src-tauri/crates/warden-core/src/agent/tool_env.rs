//! What a session's tool calls share: the sandbox and the background processes, plus running one
//! call while relaying its streamed output in order.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;
use warden_protocol::{OutputStream, ToolCall};

use crate::sandbox::Workspace;
use crate::tool::{BackgroundProcesses, OutputSink, ToolContext, ToolOutput, ToolRegistry};

/// The sandbox and process table of one session. Background processes die with it.
#[derive(Debug, Clone)]
pub struct ToolEnvironment {
    workspace: Arc<Workspace>,
    processes: Arc<BackgroundProcesses>,
}

impl ToolEnvironment {
    pub fn new(workspace: Workspace) -> Self {
        Self { workspace: Arc::new(workspace), processes: Arc::new(BackgroundProcesses::new()) }
    }

    pub fn workspace(&self) -> &Arc<Workspace> {
        &self.workspace
    }

    /// A context for one call, without an output listener.
    pub fn context(&self, registry: &ToolRegistry, cancel: CancellationToken) -> ToolContext {
        registry.context(self.workspace.clone()).with_cancel(cancel).with_processes(self.processes.clone())
    }
}

/// Run `call`, handing each piece of streamed output to `on_output` as it comes and strictly before
/// the result is returned (so a face never sees output after the result).
pub async fn execute_streaming(
    registry: &ToolRegistry,
    call: &ToolCall,
    ctx: ToolContext,
    mut on_output: impl FnMut(OutputStream, String),
) -> ToolOutput {
    let (sink, mut rx) = OutputSink::channel(registry.config().stream_cap_bytes);
    let run = registry.execute(call, ctx.with_output(sink));
    tokio::pin!(run);
    loop {
        tokio::select! {
            biased;
            Some((stream, chunk)) = rx.recv() => on_output(stream, chunk),
            output = &mut run => {
                while let Ok((stream, chunk)) = rx.try_recv() {
                    on_output(stream, chunk);
                }
                return output;
            }
        }
    }
}

//! The tool infrastructure: what every tool is built on, not the tools themselves (those are in
//! `crate::tools`). The object-safe [`Tool`] trait the registry holds and the [`TypedTool`] trait the
//! tools implement (with [`Typed`], the adapter between them, and `input.rs`, the definition derived
//! from the input type); what a call needs of the policy, the registry and the box ([`Needs`],
//! declared by each tool for its input); whether a tool can change files ([`changes_files`]); the
//! [`ToolRegistry`], which validates input, applies the timeout, catches panics and caps what the
//! model sees; what a call runs with ([`ToolContext`], [`ToolsConfig`]) and returns
//! ([`ToolOutput`]); the session's [`BackgroundProcesses`]; and the helpers the tools share: shell
//! processes, the sandboxed directory walk, file reads and writes.

mod background;
mod cap;
mod changes;
mod context;
pub(crate) mod fs_util;
mod input;
mod needs;
mod output;
pub(crate) mod process;
mod registry;
mod typed;
mod validate;
pub(crate) mod walk;

use async_trait::async_trait;
use warden_protocol::{ApprovalPreview, ToolDefinition};

pub use background::BackgroundProcesses;
pub(crate) use background::{CommandStatus, OutputWindow};
pub use cap::{cap_for_model, DEFAULT_MODEL_OUTPUT_CAP};
pub use changes::changes_files;
pub use context::{OutputSink, ToolContext, ToolsConfig};
pub use needs::{FileAccess, Needs, Timeout};
pub use output::ToolOutput;
pub use registry::{RegistryError, ToolRegistry, MCP_TOOL_TIMEOUT};
pub use typed::{Typed, TypedTool};

/// Something the model can call.
#[async_trait]
pub trait Tool: Send + Sync {
    fn definition(&self) -> &ToolDefinition;
    /// What it does, in a few plain words for people; the name unless the tool says.
    fn label(&self) -> &str {
        &self.definition().name
    }
    async fn execute(&self, input: serde_json::Value, ctx: ToolContext) -> ToolOutput;
    /// What a call with this input needs of the policy, the registry and the box (nothing
    /// special unless the tool says; see [`Needs`]).
    fn needs(&self, _input: &serde_json::Value) -> Needs {
        Needs::default()
    }
    /// The MCP server that provides it, and its name there (none for Warden's own tools).
    fn mcp_origin(&self) -> Option<warden_protocol::McpOrigin> {
        None
    }
    /// What the approval dialog shows (a dry-run diff for file changes, the command + cwd for bash).
    async fn preview(&self, _input: &serde_json::Value, _ctx: &ToolContext) -> Option<ApprovalPreview> {
        None
    }
}

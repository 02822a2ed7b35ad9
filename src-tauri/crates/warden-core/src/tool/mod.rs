//! Tools: what the model can do in a project. One file per tool; the [`ToolRegistry`] validates input,
//! applies the timeout, catches panics and caps what the model sees.

mod apply_patch;
mod background;
mod bash;
mod cap;
mod context;
mod file_edit;
mod file_info;
mod file_read;
mod file_write;
mod fs_util;
mod input;
mod list_dir;
mod output;
mod process;
mod registry;
mod search_files;
mod search_in_files;
mod system_info;
mod typed;
mod validate;
mod walk;
mod web_search;

use async_trait::async_trait;
use warden_protocol::{ApprovalPreview, ToolDefinition};

pub(crate) use apply_patch::apply_to_text as apply_patch_to_text;
pub use apply_patch::ApplyPatchTool;
pub use background::{BackgroundProcesses, CancelCommandTool, CommandOutputTool};
pub use bash::BashTool;
pub use cap::{cap_for_model, DEFAULT_MODEL_OUTPUT_CAP};
pub use context::{OutputSink, ToolContext, ToolsConfig};
pub use file_edit::FileEditTool;
pub use file_info::FileInfoTool;
pub use file_read::FileReadTool;
pub use file_write::FileWriteTool;
pub use list_dir::ListDirTool;
pub use output::ToolOutput;
pub use registry::{RegistryError, ToolRegistry};
pub use search_files::SearchFilesTool;
pub use search_in_files::{SearchInFilesInput, SearchInFilesTool, SearchOutputMode};
pub use system_info::SystemInfoTool;
pub use typed::{Typed, TypedTool};
pub use web_search::WebSearchTool;

/// Something the model can call.
#[async_trait]
pub trait Tool: Send + Sync {
    fn definition(&self) -> &ToolDefinition;
    async fn execute(&self, input: serde_json::Value, ctx: ToolContext) -> ToolOutput;
    /// What the approval dialog shows (a dry-run diff for file changes, the command + cwd for bash).
    async fn preview(&self, _input: &serde_json::Value, _ctx: &ToolContext) -> Option<ApprovalPreview> {
        None
    }
}

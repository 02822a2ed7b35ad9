//! The core tools: what the model can do in a project, one file per tool (`apply_patch` and
//! `web_search` are directories). Each is a [`TypedTool`](crate::tool::TypedTool): its input type
//! documents it and yields its schema, and it receives that input parsed. How a call is validated,
//! timed out, made panic-proof and capped is the business of the infrastructure in `crate::tool`.

mod apply_patch;
mod bash;
mod cancel_command;
mod command_output;
mod file_edit;
mod file_info;
mod file_read;
mod file_write;
pub(crate) mod git_init;
mod list_dir;
mod search_files;
mod search_in_files;
mod system_info;
mod web_search;

use std::sync::Arc;

use crate::tool::{Tool, Typed};

pub(crate) use apply_patch::apply_to_text as apply_patch_to_text;
pub use apply_patch::ApplyPatchTool;
pub use bash::BashTool;
pub use cancel_command::CancelCommandTool;
pub use command_output::CommandOutputTool;
pub use file_edit::FileEditTool;
pub use file_info::FileInfoTool;
pub use file_read::FileReadTool;
pub use file_write::FileWriteTool;
pub use list_dir::ListDirTool;
pub use search_files::SearchFilesTool;
pub use search_in_files::{SearchInFilesInput, SearchInFilesTool, SearchOutputMode};
pub use system_info::SystemInfoTool;
pub use web_search::WebSearchTool;

/// Every core tool, in the order of the table in docs/ARCHITECTURE.md §5.
pub(crate) fn core() -> Vec<Arc<dyn Tool>> {
    vec![
        Arc::new(Typed::new(FileReadTool)),
        Arc::new(Typed::new(FileWriteTool)),
        Arc::new(Typed::new(FileEditTool)),
        Arc::new(Typed::new(ApplyPatchTool)),
        Arc::new(Typed::new(ListDirTool)),
        Arc::new(Typed::new(FileInfoTool)),
        Arc::new(Typed::new(SearchFilesTool)),
        Arc::new(Typed::new(SearchInFilesTool)),
        Arc::new(Typed::new(BashTool)),
        Arc::new(Typed::new(CommandOutputTool)),
        Arc::new(Typed::new(CancelCommandTool)),
        Arc::new(Typed::new(WebSearchTool::new())),
        Arc::new(Typed::new(SystemInfoTool)),
    ]
}

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
mod propose_plan;
mod search_files;
mod search_in_files;
mod skill;
mod system_info;
mod todo_write;
mod web_search;

use std::sync::Arc;

use warden_protocol::ToolCategory;

use crate::tool::{Tool, ToolRegistry, ToolsConfig, Typed};

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
pub use propose_plan::{ProposePlanInput, ProposePlanTool, MAX_STEPS as PLAN_MAX_STEPS, PROPOSE_PLAN};
pub use search_files::SearchFilesTool;
pub use search_in_files::{SearchInFilesInput, SearchInFilesTool, SearchOutputMode};
pub use skill::{SkillTool, SKILL};
pub use system_info::SystemInfoTool;
pub use todo_write::{TodoWriteTool, TODO_WRITE};
pub use web_search::WebSearchTool;

/// A registry of the core tools (here, beside them: the registry itself knows no tool).
impl ToolRegistry {
    /// Every tool of docs/ARCHITECTURE.md §5, in the order of its table.
    pub fn with_core_tools(config: ToolsConfig) -> Self {
        let mut registry = Self::new(config);
        for tool in core() {
            if let Err(error) = registry.register(tool) {
                tracing::error!(%error, "core tool not registered");
            }
        }
        registry
    }
}

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
        Arc::new(Typed::new(TodoWriteTool)),
        Arc::new(Typed::new(ProposePlanTool)),
    ]
}

/// What a project without permissions of its own lets the window's sessions use: every built-in
/// tool, with the trust level deciding which calls ask first (Guided asks before a write, a
/// command or a network request). `warden exec` and `warden tool` keep the read-only set unless
/// `--allow` says otherwise ([`crate::engine::SessionSpec::new`]). Tools from elsewhere (MCP) are not built in.
pub fn window_default_scope() -> crate::scope::Scope {
    crate::scope::Scope::only(tool_names())
}

/// What a window session may use while no project folder is chosen: the tools that touch no file
/// and run no command (web search, facts about the machine).
pub fn no_project_scope() -> crate::scope::Scope {
    let registry = ToolRegistry::with_core_tools(ToolsConfig::default());
    let everything = crate::scope::Scope::only(registry.names());
    crate::scope::Scope::only(
        registry
            .definitions(&everything)
            .into_iter()
            .filter(|tool| matches!(tool.category, ToolCategory::Web | ToolCategory::System))
            .map(|tool| tool.name),
    )
}

/// What a plan-mode turn offers: the tools that read the project, the skills' reader, `bash` (in a
/// box where the project and every cache are read-only and there is no network), and the tool that
/// ends the turn with the plan.
pub const PLAN_TOOLS: [&str; 8] =
    ["file_read", "list_dir", "file_info", "search_files", "search_in_files", SKILL, "bash", PROPOSE_PLAN];

/// Every core tool's name, for validating `--allow`.
pub fn tool_names() -> Vec<String> {
    ToolRegistry::with_core_tools(ToolsConfig::default()).names()
}

/// The scope `--allow` names: `all`, or core tools by name, each checked (an unknown one is said,
/// with the known ones).
pub fn allowed_scope<S: AsRef<str>>(names: &[S]) -> Result<crate::scope::Scope, String> {
    if let [all] = names {
        if all.as_ref() == "all" {
            return Ok(crate::scope::Scope::all());
        }
    }
    let known = tool_names();
    if let Some(unknown) = names.iter().find(|name| !known.iter().any(|k| k == name.as_ref())) {
        return Err(format!("unknown tool `{}` (known: {})", unknown.as_ref(), known.join(", ")));
    }
    Ok(crate::scope::Scope::only(names.iter().map(AsRef::as_ref)))
}

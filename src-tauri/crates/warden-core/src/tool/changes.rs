//! Whether a tool's calls can change the project's files: the one test shared by the runner (a
//! checkpoint before each such call) and the session set-up (a checkpoint store for a session
//! that has such a tool).

use warden_protocol::{DangerLevel, ToolCategory, ToolDefinition};

/// Writes and edits; commands, except the safe ones that only look at or stop a background
/// command; and every MCP server's tool. A server's tool is checkpointed like a command: a stdio
/// server runs in the project's box, which may write the project, and what a tool does is only
/// the server's word (its annotations are not trusted). A remote server's call costs a checkpoint
/// that finds nothing changed.
pub fn changes_files(tool: &ToolDefinition) -> bool {
    match tool.category {
        ToolCategory::FileChange | ToolCategory::Mcp => true,
        ToolCategory::Exec => tool.danger != DangerLevel::Safe,
        _ => false,
    }
}

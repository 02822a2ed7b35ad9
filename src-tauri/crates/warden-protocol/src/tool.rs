//! Tools as the model and the UI see them: definitions, calls, danger, trust, error codes.

use serde::{Deserialize, Serialize};
use specta::Type;

/// How much the user lets the agent do without asking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, Type)]
#[serde(rename_all = "lowercase")]
pub enum TrustLevel {
    /// Every tool call asks for approval.
    Supervised,
    /// Dangerous tool calls ask; safe ones run.
    #[default]
    Guided,
    /// Nothing asks (the blocklist and the scope still apply).
    Autonomous,
}

/// Whether a tool can change the user's machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Type)]
#[serde(rename_all = "lowercase")]
pub enum DangerLevel {
    Safe,
    Dangerous,
}

/// What kind of thing a tool does; the window picks the block's icon and renderer by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub enum ToolCategory {
    /// Reads files or folders of the project.
    FileRead,
    /// Creates or changes files.
    FileChange,
    /// Runs a command, or reads or stops one that runs.
    Exec,
    /// Searches the project.
    Search,
    /// Searches the web.
    Web,
    /// Tells about the machine.
    System,
    /// A tool of an MCP server.
    Mcp,
}

/// A tool as offered to the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ToolDefinition {
    pub name: String,
    /// What the model reads to decide when and how to call the tool.
    pub description: String,
    /// JSON Schema of the input object.
    pub input_schema: serde_json::Value,
    pub category: ToolCategory,
    pub danger: DangerLevel,
    /// Whether calls of this tool may run concurrently with other parallel-capable calls.
    pub parallel: bool,
    /// The tool changes nothing but the conversation (the task list): every project's scope has
    /// it and the policy never asks about it, in any trust level. Warden's own tools declare it;
    /// an MCP server's tool never has it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub conversation_only: bool,
}

/// Where an MCP tool comes from: its server, and its own name there (`mcp__notes__echo` is `echo`
/// of `notes`). The engine says it: a server's name may itself hold `__`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct McpOrigin {
    pub server: String,
    pub tool: String,
}

/// A tool as the window lists it: in the permissions list (its plain-language label, whether a
/// new project allows it) and for a tool block's kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ToolInfo {
    pub name: String,
    /// What it does, in a few plain words ("Run commands").
    pub label: String,
    pub category: ToolCategory,
    pub danger: DangerLevel,
    /// Whether a project without its own permissions allows it (the read-only set).
    pub in_default_scope: bool,
    /// An MCP server's tool: which server, and the tool's name there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcp: Option<McpOrigin>,
}

/// A complete tool call requested by the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ToolCall {
    /// The provider's id for the call (`toolu_…`, `call_…`), unique within a conversation.
    pub id: String,
    pub name: String,
    /// The parsed input object.
    pub input: serde_json::Value,
}

/// Why a tool call did not produce a normal result. Carried as `code` on `chat:tool-result`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Type)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ToolErrorCode {
    ValidationError,
    FileNotFound,
    PermissionDenied,
    SandboxViolation,
    ToolTimeout,
    SizeLimitExceeded,
    UserRejected,
    ApprovalTimeout,
    Cancelled,
    BlockedCommand,
    /// The tool ran and failed in an expected way (non-zero exit, no match, …).
    ExecutionError,
    /// The model asked for a tool that does not exist or is not in scope.
    UnknownTool,
}

impl ToolErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ValidationError => "VALIDATION_ERROR",
            Self::FileNotFound => "FILE_NOT_FOUND",
            Self::PermissionDenied => "PERMISSION_DENIED",
            Self::SandboxViolation => "SANDBOX_VIOLATION",
            Self::ToolTimeout => "TOOL_TIMEOUT",
            Self::SizeLimitExceeded => "SIZE_LIMIT_EXCEEDED",
            Self::UserRejected => "USER_REJECTED",
            Self::ApprovalTimeout => "APPROVAL_TIMEOUT",
            Self::Cancelled => "CANCELLED",
            Self::BlockedCommand => "BLOCKED_COMMAND",
            Self::ExecutionError => "EXECUTION_ERROR",
            Self::UnknownTool => "UNKNOWN_TOOL",
        }
    }
}

impl std::fmt::Display for ToolErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What "Allow for this session" remembered in one conversation: later calls it covers run
/// without asking until the conversation is closed or the grant is revoked.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Type)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum SessionGrant {
    /// Every call of this tool.
    #[serde(rename_all = "camelCase")]
    Tool { name: String },
    /// `bash` commands with this program + subcommand prefix (never a compound command).
    #[serde(rename_all = "camelCase")]
    BashPrefix { prefix: String },
}

//! Checkpoints of a project as the window and `warden checkpoint` show them: what was recorded
//! before each change, what changed, and what a restore did.

use serde::{Deserialize, Serialize};
use specta::Type;

/// One checkpoint: the project as it was before a tool call (or at the end of a turn, or before a
/// restore). `filesChanged` counts the files that differ between it and the next snapshot: for a
/// checkpoint before a tool call, the files that call changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct CheckpointInfo {
    pub id: String,
    /// RFC 3339.
    pub created_at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conversation_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    pub kind: CheckpointKind,
    pub files_changed: u32,
    /// Files left out because they are larger than the size cap (their contents are not kept).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
    /// Files (and folders, ending in `/`) the snapshot could not read, each with why: they are
    /// not in it, and a restore leaves them as they are.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<LeftOutFile>,
}

/// A file a snapshot could not take.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct LeftOutFile {
    /// Relative to the project root, `/`-separated; a folder ends in `/`.
    pub path: String,
    pub reason: String,
}

/// What a checkpoint precedes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "snake_case")]
pub enum CheckpointKind {
    /// A tool call that can change files.
    Tool,
    /// The end of a turn.
    TurnEnd,
    /// A restore (restoring this checkpoint undoes it).
    Restore,
    /// Asked for by the user.
    Manual,
}

/// How one file differs between two states of the project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct FileChange {
    /// Relative to the project root, `/`-separated.
    pub path: String,
    pub status: ChangeStatus,
    /// Lines added and removed; `None` for a binary file.
    pub added: Option<u32>,
    pub removed: Option<u32>,
    pub binary: bool,
    /// Git-style modes (`100644`, `100755`, `120000` for a symlink) before and after; `None`
    /// where the file did not exist.
    pub old_mode: Option<String>,
    pub new_mode: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "snake_case")]
pub enum ChangeStatus {
    Created,
    Modified,
    Deleted,
}

/// What a tool call changed in the project, carried in its result's metadata (`changes`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct CallChanges {
    /// The checkpoint taken before the call (restore it to undo the call); `None` when none
    /// could be taken, and `error` says why.
    pub checkpoint_id: Option<String>,
    pub files: Vec<FileChange>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// What a restore did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct RestoreReport {
    /// The checkpoint restored.
    pub restored: String,
    /// The checkpoint taken just before the restore: restoring it undoes this restore.
    pub undo_checkpoint_id: String,
    /// The files the restore changed.
    pub files: Vec<FileChange>,
    /// Something the user should know about this restore (its undo point is older than the
    /// restore, when the project could not be looked at first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
}

/// What a restore from the window would do, shown for the user's yes before it runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct RestorePlan {
    /// The files it would change, create and delete, as they would differ from now.
    pub files: Vec<FileChange>,
    /// What runs in the project and is stopped before the files are put back.
    pub running: Vec<RunningInProject>,
}

/// Something running in the project that a restore stops first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct RunningInProject {
    pub kind: RunningKind,
    /// The command line, or the MCP server's name.
    pub name: String,
    /// The conversation a background command belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conversation_id: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "snake_case")]
pub enum RunningKind {
    /// A background command of a conversation.
    Command,
    /// A stdio MCP server started for the project.
    McpServer,
}

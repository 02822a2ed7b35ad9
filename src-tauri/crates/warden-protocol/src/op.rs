//! Ops: what a face asks of the engine (Tauri commands in the window, stdin lines in `warden exec`).

use serde::{Deserialize, Serialize};
use specta::Type;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Op {
    /// `chat_send`
    Send(ChatSend),
    /// `chat_cancel`
    Cancel(ChatCancel),
    /// `chat_tool_approve`
    Approve(ToolApproval),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ChatSend {
    pub conversation_id: String,
    pub content: String,
    /// Images attached to the message (checked and scaled down by the engine before sending).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<crate::ToolImage>,
    /// Plan mode: the model may only read, and ends by proposing a plan (`chat:plan`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub plan: bool,
    /// The steps of the plan the user approved (as they edited it): they become the task list
    /// before the model starts on them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub approved_plan: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ChatCancel {
    pub conversation_id: String,
}

/// The user's answer to a `chat:tool-confirm`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ToolApproval {
    /// The `confirmId` of the `chat:tool-confirm` this answers.
    pub confirm_id: String,
    pub approved: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remember: Option<Remember>,
    /// With `remember: "always"`: the rule to save (the confirmation's `suggestedRule` as the user
    /// edited it, and where to keep it); left out, the suggestion is saved for the project.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub always: Option<crate::AlwaysRule>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, Type)]
#[serde(rename_all = "lowercase")]
pub enum Remember {
    /// This call only.
    #[default]
    Once,
    /// The same tool (for `bash`: the same program and subcommand) for the rest of the session.
    Session,
    /// For a network confirmation: this host and port from now on, saved as an allow rule of the
    /// project (Settings → Sandbox lists it). A tool call takes it as `session`.
    Project,
    /// For a tool call: an allow rule saved from now on (the confirmation's `suggestedRule`, or
    /// the answer's `always`), which also covers the rest of the session. A network confirmation
    /// takes it as `project`.
    Always,
}

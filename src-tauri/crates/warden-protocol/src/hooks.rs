//! Hooks: commands that run at points of a turn, configured in the JSON shape Claude Code
//! reads (`{"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "…"}]}]}`),
//! and what the faces are told of each run (`chat:hook`). See docs/HOOKS.md.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use specta::Type;

/// Hooks by event name (`PreToolUse`, `PostToolUse`, `UserPromptSubmit`, `Stop`, `SessionStart`,
/// `SessionEnd`, `Notification`).
pub type HooksConfig = BTreeMap<String, Vec<HookMatcher>>;

/// The hooks of one event whose tool matches `matcher`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct HookMatcher {
    /// A tool name or a regular expression over tool names (`Bash`, `Edit|Write`, `mcp__gh__.*`);
    /// empty or `*`: every tool. Only tool events use it.
    #[serde(default)]
    pub matcher: String,
    pub hooks: Vec<HookCommand>,
}

/// One hook: a shell command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct HookCommand {
    /// `command` (the only kind).
    #[serde(rename = "type", default = "command_kind")]
    pub kind: String,
    pub command: String,
    /// Seconds it may run (60 when not said; at most 600).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<u32>,
    /// The user's own hook runs outside the box, with the user's full access (a `Notification`
    /// hook that needs the desktop). Ignored for a repository's hooks, which always run in it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub outside_box: bool,
}

fn command_kind() -> String {
    "command".to_owned()
}

/// What the user decided about a project's own hooks (its `.claude/settings.json`): the digest of
/// the hooks they approved. A file whose hooks differ is asked about again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ProjectHooksChoice {
    pub approved_digest: String,
}

/// `hooks_project_offer`: a project's own hooks as the user is asked about them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ProjectHooksOffer {
    /// The file they come from.
    pub file: String,
    pub hooks: HooksConfig,
    /// Every command, exactly, with its event and matcher, as the approval shows them.
    pub commands: Vec<String>,
    pub digest: String,
    /// `approved`, `changed` (approved before, differ now), `new`.
    pub state: String,
    /// What in the file could not be read (the hooks it names are not run).
    pub problems: Vec<String>,
}

/// `chat:hook`: a hook ran.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct HookRun {
    pub conversation_id: String,
    /// The message it ran for, when it ran within one.
    pub message_id: Option<String>,
    /// The tool call it ran for (tool events).
    pub tool_id: Option<String>,
    pub hook_event: String,
    pub command: String,
    /// `user` (Warden's settings) or `project` (the project's approved file).
    pub origin: String,
    /// Whether it ran in the box (a user's hook marked "runs outside the box" does not).
    pub contained: bool,
    pub exit_code: Option<i32>,
    pub timed_out: bool,
    pub duration_ms: u64,
    /// What it decided, in words (`allowed the call`, `blocked: …`, `added context`, `no effect`,
    /// `failed: …`).
    pub outcome: String,
    /// The start of what it printed (stdout, then stderr), for the collapsed block.
    pub output: String,
}

//! What a finished tool call reports beside its text, in typed parts: what the window renders
//! under a tool block (how a command ended and in which box, a file change's diff, search hits,
//! what the call changed, where its network went, what Warden did after it). Each part is present
//! when the call has it. The report is kept in the saved history, so a reopened conversation shows
//! the same block as the live one; it is never sent to a model.

use serde::{Deserialize, Serialize};
use specta::Type;

use crate::CallChanges;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ToolReport {
    /// How long the call ran, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    /// How a command ended (a command that timed out or was cancelled has none: its code says it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<CommandEnd>,
    /// Whether the call ran inside Warden's box, and with what (commands, local MCP servers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<BoxUse>,
    /// A file change's unified diff (none past 64 KB: the checkpoint holds the files themselves).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<FileDiff>,
    /// What a search found, as the block lists it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hits: Option<SearchHits>,
    /// What the call changed in the project, and the checkpoint taken before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changes: Option<CallChanges>,
    /// The hosts the session's proxy reached or refused while the call ran.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub network: Vec<HostReached>,
    /// The ports of the box's network this machine reaches now (a dev server in the box).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forwarded_ports: Vec<ForwardedPort>,
    /// What a boxed process left in the project's git metadata that Warden moved aside, in words.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub git_swept: Vec<String>,
    /// Of those, what the block offers to put back.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub git_aside: Vec<KeptAside>,
    /// Paths of the home a failed command named that the box leaves out (not those it hides on
    /// purpose): the block offers to let the project's commands read them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub readable_offers: Vec<String>,
    /// What Warden's box refused a failed command, as its output shows it: the block says so in
    /// words and how to allow it (a path the box hides is in `readable_offers`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub box_refused: Vec<BoxRefusal>,
    /// The task list as a `todo_write` call left it (the whole list: each call replaces it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub todo: Option<Vec<crate::TodoItem>>,
    /// The rule an "Always allow…" answer asked to keep: kept, or why not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<RuleNote>,
    /// The hooks that ran for this call (PreToolUse, PostToolUse), as `chat:hook` told them: kept
    /// with the call so a reopened conversation shows them under its block.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hooks: Vec<crate::HookRun>,
}

impl ToolReport {
    pub fn is_empty(&self) -> bool {
        self == &Self::default()
    }
}

/// How a command's process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct CommandEnd {
    /// Its exit code; `None` when a signal ended it.
    pub exit_code: Option<i32>,
    /// The signal that ended it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signal: Option<i32>,
}

/// Where a call ran: inside Warden's box (`summary` says what the box allowed, "no network ·
/// writes: project") or with the user's full access.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct BoxUse {
    pub contained: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
}

/// A refusal of Warden's box that a failed command's output shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub enum BoxRefusal {
    /// A write outside the project and its writable folders (a read-only file system).
    WriteOutside,
    /// A connection, from a box that has no network.
    NoNetwork,
    /// A connection made directly (or a name resolved) by a program that ignores the proxy, the
    /// only way out of a box with the network.
    PastTheProxy,
}

/// A file change as a unified diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct FileDiff {
    /// The file, as the project names it.
    pub path: String,
    pub diff: String,
}

/// The hits of a search, in the order the tool gave them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct SearchHits {
    pub items: Vec<SearchHit>,
    /// More matched than are listed.
    pub capped: bool,
}

/// One hit: a file (and a line of it) or a page of the web.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct SearchHit {
    /// A path of the project, or a URL.
    pub location: String,
    /// 1-based.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// The matching line, a count of matches, or a page's snippet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// A page's title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

impl SearchHit {
    /// A hit that is only a place (a path, a URL); the rest filled in by the caller.
    pub fn at(location: impl Into<String>) -> Self {
        Self { location: location.into(), line: None, text: None, title: None }
    }
}

/// A host the session's proxy reached, or refused and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct HostReached {
    pub host: String,
    pub port: u16,
    pub allowed: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

/// A port a boxed server listens on, and where this machine reaches it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ForwardedPort {
    /// The port in the box.
    pub port: u16,
    /// The port on this machine's `127.0.0.1` (the same one unless it was taken).
    pub host_port: u16,
}

/// A file Warden moved out of the project's git metadata after a call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct KeptAside {
    /// Where it was.
    pub from: String,
    /// Its name in the project's storage.
    pub aside: String,
    /// What it would have done ("have run as a git hook").
    pub danger: String,
}

/// What became of the rule an "Always allow…" answer asked to keep.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct RuleNote {
    pub kept: bool,
    /// The rule kept ("allow bash: cargo test *"), or why it was not.
    pub words: String,
}

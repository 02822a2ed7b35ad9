//! Events: everything the engine tells a face, in order. Serialized as
//! `{"event": "chat:…", "payload": {…}}` — the JSON line of `warden exec --json`, and the Tauri
//! event name + payload in the window.

use serde::{Deserialize, Serialize};

pub use crate::TodoList;
use specta::Type;

use crate::{DangerLevel, HookRun, McpOrigin, ToolCategory, ToolErrorCode, ToolReport};

/// Every event, spelled once: its variant, payload type, the window's event type and its protocol
/// name. `$callback!` gets the list; [`Event`] is made from it here, and the desktop shell makes its
/// typed Tauri events from it (`src-tauri/src/events.rs`).
#[macro_export]
macro_rules! with_events {
    ($callback:ident) => {
        $callback! {
            /// `chat:stream-start`: an assistant message begins.
            StreamStart(StreamStart) as StreamStartEvent = "chat:stream-start";
            /// `chat:text-delta`: visible text (coalesced per frame in the window).
            TextDelta(TextDelta) as TextDeltaEvent = "chat:text-delta";
            /// `chat:thinking-delta`: reasoning text (coalesced per frame in the window).
            ThinkingDelta(ThinkingDelta) as ThinkingDeltaEvent = "chat:thinking-delta";
            /// `chat:tool-start`: a tool call is complete and about to run.
            ToolStart(ToolStart) as ToolStartEvent = "chat:tool-start";
            /// `chat:tool-delta`: streamed tool output (coalesced per frame in the window).
            ToolDelta(ToolDelta) as ToolDeltaEvent = "chat:tool-delta";
            /// `chat:tool-result`: the tool finished, failed, was denied or cancelled.
            ToolResult(ToolResult) as ToolResultEvent = "chat:tool-result";
            /// `chat:tool-confirm`: the user must approve the call.
            ToolConfirm(ToolConfirm) as ToolConfirmEvent = "chat:tool-confirm";
            /// `chat:stream-end`: the message or turn is over.
            StreamEnd(StreamEnd) as StreamEndEvent = "chat:stream-end";
            /// `chat:error`: a provider or system failure.
            Error(ChatError) as ChatErrorEvent = "chat:error";
            /// `chat:notice`: how the message is produced, for the user (e.g. tools described in
            /// the prompt).
            Notice(Notice) as NoticeEvent = "chat:notice";
            /// `chat:compacted`: the older part of the conversation was summarized in what the
            /// model is sent (the history itself is whole).
            Compacted(Compacted) as CompactedEvent = "chat:compacted";
            /// `chat:saving`: the conversation stopped being saved (and why), or is saved again.
            Saving(Saving) as SavingEvent = "chat:saving";
            /// `chat:todo`: the task list the model keeps (`todo_write`), whole, as it now is.
            Todo(TodoList) as TodoEvent = "chat:todo";
            /// `chat:snapshot`: how far Warden's first look at the project's files has come (the
            /// look every checkpoint starts from), sent while it takes long.
            Snapshot(SnapshotProgress) as SnapshotEvent = "chat:snapshot";
            /// `chat:hook`: a hook ran (its command, what it decided, the start of its output).
            Hook(HookRun) as HookEvent = "chat:hook";
            /// `chat:plan`: in plan mode, the model proposed its plan, for the user to edit and
            /// approve.
            Plan(PlanProposed) as PlanEvent = "chat:plan";
        }
    };
}

macro_rules! event_enum {
    ($($(#[$doc:meta])* $variant:ident($payload:ident) as $face:ident = $name:literal;)*) => {
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
        #[serde(tag = "event", content = "payload")]
        // A confirmation is the largest event; each event is made once and moved into a channel,
        // so boxing it would buy nothing.
        #[allow(clippy::large_enum_variant)]
        pub enum Event {
            $($(#[$doc])* #[serde(rename = $name)] $variant($payload),)*
        }

        impl Event {
            /// Every protocol name, in the order of [`with_events`].
            pub const NAMES: &'static [&'static str] = &[$($name),*];

            /// The protocol name of the event (`chat:text-delta`, …).
            pub fn name(&self) -> &'static str {
                match self {
                    $(Self::$variant(_) => $name,)*
                }
            }
        }
    };
}

with_events!(event_enum);

impl Event {
    pub fn conversation_id(&self) -> &str {
        match self {
            Self::StreamStart(e) => &e.conversation_id,
            Self::TextDelta(e) => &e.conversation_id,
            Self::ThinkingDelta(e) => &e.conversation_id,
            Self::ToolStart(e) => &e.conversation_id,
            Self::ToolDelta(e) => &e.conversation_id,
            Self::ToolResult(e) => &e.conversation_id,
            Self::ToolConfirm(e) => &e.conversation_id,
            Self::StreamEnd(e) => &e.conversation_id,
            Self::Error(e) => &e.conversation_id,
            Self::Notice(e) => &e.conversation_id,
            Self::Compacted(e) => &e.conversation_id,
            Self::Saving(e) => &e.conversation_id,
            Self::Todo(e) => &e.conversation_id,
            Self::Snapshot(e) => &e.conversation_id,
            Self::Hook(e) => &e.conversation_id,
            Self::Plan(e) => &e.conversation_id,
        }
    }
}

/// An assistant message begins (once per loop iteration).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct StreamStart {
    pub conversation_id: String,
    pub message_id: String,
    pub provider: String,
    pub model: String,
    /// The context window the engine budgets this conversation with, in tokens: the user's
    /// setting, what the server said (or showed when a request overflowed it), or the engine's
    /// table of known models. `None`: nobody has said, so nothing is budgeted against it yet.
    pub context_window: Option<u32>,
}

/// Something the user should know about how the message is produced, in words for them (e.g. that
/// the model has no native tool calling, so the tools are described in the prompt). Informational:
/// nothing failed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct Notice {
    pub conversation_id: String,
    pub message_id: String,
    pub text: String,
}

/// The model is now sent a summary instead of the conversation's first `summarized_messages`
/// messages; the user still sees them all.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct Compacted {
    pub conversation_id: String,
    pub summarized_messages: u32,
    /// Context in use before (the provider's count when known) and after (estimated), in tokens.
    pub tokens_before: u32,
    pub tokens_after: u32,
    /// Asked for by the user ("Compact now") rather than by the context filling up.
    pub manual: bool,
}

/// Whether the conversation is being saved. Sent when a save fails (`saved: false`, with why): the
/// messages from then on are kept in memory and saved as soon as the store takes them again, which
/// a `saved: true` reports (every message is saved again). Sent only when this changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct Saving {
    pub conversation_id: String,
    pub saved: bool,
    /// Why it is not being saved, in words for the user; `None` when it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Warden's look at every file of the project, which checkpoints start from: sent about twice a
/// second while one takes longer than half a second, then once with `done`. A call that changes
/// files waits for it (its checkpoint needs it): `waiting_tool_id` names that call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct SnapshotProgress {
    pub conversation_id: String,
    /// Files looked at so far.
    pub files: u32,
    pub done: bool,
    /// Stopped by the user: checkpoints are off for this project until it is opened again.
    #[serde(default)]
    pub stopped: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waiting_tool_id: Option<String>,
}

/// Visible text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct TextDelta {
    pub conversation_id: String,
    pub message_id: String,
    pub delta: String,
}

/// Reasoning text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ThinkingDelta {
    pub conversation_id: String,
    pub message_id: String,
    pub delta: String,
}

/// A tool call is complete and about to be decided on and run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ToolStart {
    pub conversation_id: String,
    pub message_id: String,
    pub tool_id: String,
    pub tool_name: String,
    /// What kind of tool it is; `None` for a name no tool has.
    #[serde(default)]
    pub category: Option<ToolCategory>,
    /// An MCP server's tool: which server, and the tool's name there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcp: Option<McpOrigin>,
    pub input: serde_json::Value,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "lowercase")]
pub enum OutputStream {
    Stdout,
    Stderr,
}

/// Streamed tool output (bash stdout/stderr, search progress).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ToolDelta {
    pub conversation_id: String,
    pub message_id: String,
    pub tool_id: String,
    pub chunk: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream: Option<OutputStream>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "lowercase")]
pub enum ToolStatus {
    Success,
    Error,
}

/// The tool finished, failed, was denied or was cancelled (`code` says which).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ToolResult {
    pub conversation_id: String,
    pub message_id: String,
    pub tool_id: String,
    pub status: ToolStatus,
    /// Why the call did not produce a normal result; `None` on success.
    #[serde(default)]
    pub code: Option<ToolErrorCode>,
    /// What the model receives (capped).
    pub result: String,
    /// What the window renders beside the text, typed (how a command ended, its box, a diff,
    /// search hits, what the call changed…); empty parts are left out.
    #[serde(default, skip_serializing_if = "ToolReport::is_empty")]
    pub report: ToolReport,
    /// Images the tool returned (an MCP server's screenshot), shown under the block as they come.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<crate::ToolImage>,
    /// Everything else the tool reports (sizes, hashes, a background command's handle…): an open
    /// bag for logs and scripts, never read by the window.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<serde_json::Value>,
}

/// What the approval dialog shows besides the raw input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ApprovalPreview {
    /// A file change: unified diff of the old and new content.
    #[serde(rename_all = "camelCase")]
    Diff { path: String, diff: String },
    /// A command: exactly what will run and where.
    #[serde(rename_all = "camelCase")]
    Command { command: String, cwd: String },
}

/// Where a call that asks stands among the calls of its message that ask: they are asked one at a
/// time, in order ("2 of 3").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ApprovalQueue {
    /// 1-based.
    pub position: u32,
    pub total: u32,
}

/// The user must approve a tool call before it runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ToolConfirm {
    pub conversation_id: String,
    /// This question's own id, minted by the engine and unique in it: the answer names it. Not the
    /// tool call's id, which the model's server chooses (some number calls per conversation, so two
    /// conversations can both wait on a `call_0`), and which one call may need several answers for.
    pub confirm_id: String,
    pub message_id: String,
    pub tool_id: String,
    pub tool_name: String,
    /// An MCP server's tool: which server, and the tool's name there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcp: Option<McpOrigin>,
    pub input: serde_json::Value,
    pub danger_level: DangerLevel,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview: Option<ApprovalPreview>,
    pub timeout_secs: u32,
    /// Why this call asks although the trust level would let it run (e.g. a command whose effect
    /// Warden cannot tell before it runs), in words for the user.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Its place among the message's calls that ask, when there is more than one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue: Option<ApprovalQueue>,
    /// What is asked: whether a tool call may run (the default, left out), or whether the
    /// session's sandbox may reach a host no rule names (`network`, with [`ToolConfirm::network`];
    /// `tool_id` and `tool_name` then name the call that was running, when one was).
    #[serde(default, skip_serializing_if = "ConfirmKind::is_tool")]
    pub kind: ConfirmKind,
    /// For `kind: "network"`: where the sandbox wants to go.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network: Option<NetworkRequest>,
    /// Which step of the policy made this call ask.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asked_because: Option<crate::AskStep>,
    /// The rule that step names, as people read it (`ask bash: git push * (project)`, or the
    /// allow rule that was not used because commands are not in the box here).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// What "Always allow…" would save, narrowed from this call; none when nothing may be
    /// remembered for it (an escalation, a command Warden cannot judge, a missing checkpoint).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suggested_rule: Option<crate::SuggestedRule>,
}

/// What a confirmation asks about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, Type)]
#[serde(rename_all = "lowercase")]
pub enum ConfirmKind {
    /// A tool call, before it runs.
    #[default]
    Tool,
    /// A host the session's sandbox wants to reach while a command runs: answered with
    /// `remember` `once` (until the call ends), `project` (an allow rule saved for the project) or
    /// a denial (for the rest of the session).
    Network,
}

impl ConfirmKind {
    pub fn is_tool(&self) -> bool {
        *self == Self::Tool
    }
}

/// A host and port the sandbox wants to reach.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct NetworkRequest {
    pub host: String,
    pub port: u16,
    /// Where the host leads when that is not the public internet ("this machine", "a private
    /// network"), in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reach: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The model finished its answer.
    EndTurn,
    /// The message ended with tool calls (the loop continues).
    ToolUse,
    /// The provider's output token limit was hit.
    MaxTokens,
    StopSequence,
    /// The model declined to answer.
    Refusal,
    /// The user cancelled.
    Cancelled,
    /// The turn failed (see the preceding `chat:error`).
    Error,
    /// The context budget was spent; the last answer was requested without tools.
    Budget,
    /// The loop hit its iteration limit.
    MaxTurns,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    pub input_tokens: u32,
    pub output_tokens: u32,
}

/// The assistant message (or the turn, for the last one) is over.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct StreamEnd {
    pub conversation_id: String,
    pub message_id: String,
    pub stop_reason: StopReason,
    /// The tokens the provider counted; `None` when it reported none (many local servers).
    pub usage: Option<Usage>,
    /// When the provider reported no usage: the context in use after this message, estimated
    /// from the size of what was sent and written (JSON length / 4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_context_tokens: Option<u32>,
    /// True when the message was cut short (cancelled or failed mid-way).
    pub partial: bool,
}

/// What kind of failure a `chat:error` reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Type)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ErrorCode {
    /// The key was refused (401/403): fix it in settings.
    AuthFailed,
    /// Too many requests; retried with backoff, reported when retries ran out.
    RateLimited,
    /// The provider is overloaded (529, `overloaded_error`).
    Overloaded,
    /// The account has no quota or credit left; never retried.
    QuotaExceeded,
    /// The provider refused the request as malformed (400/404/422).
    BadRequest,
    /// The provider failed (5xx, `server_error`).
    ServerError,
    /// The provider could not be reached or the connection broke.
    Network,
    /// The stream went silent for too long.
    IdleTimeout,
    /// The provider's answer could not be understood or ended early.
    InvalidResponse,
    /// No key is configured for the provider.
    MissingCredentials,
    /// A tool tried to leave the project: the turn is stopped.
    SandboxViolation,
    /// The context budget is spent.
    ContextBudget,
    /// Something inside Warden failed.
    Internal,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ChatError {
    pub conversation_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    pub code: ErrorCode,
    /// One sentence a person understands and what to do about it. Never a countdown: while the
    /// engine retries, `retry_after_secs` says when, and the face shows it.
    pub message: String,
    /// What the engine underneath said (`tcp connect error: … (os error 111)`), for whoever
    /// wants to dig; shown apart from the message, on request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    pub retryable: bool,
    /// When retrying makes sense, after how many seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after_secs: Option<u32>,
    /// True when the engine is retrying by itself and the turn goes on ("retrying in N s");
    /// false when the failure ended the turn.
    #[serde(default)]
    pub retrying: bool,
}

/// `chat:plan`: the plan a plan-mode turn ended with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct PlanProposed {
    pub conversation_id: String,
    pub message_id: String,
    /// The plan in markdown, as the model wrote it.
    pub plan: String,
    /// Its steps, one line each, for the task list once approved.
    pub steps: Vec<String>,
}

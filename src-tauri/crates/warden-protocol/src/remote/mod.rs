//! The remote link: how a face on this machine drives an engine on another one (`warden serve
//! --stdio`, reached through `ssh` or any command that gives a pipe).
//!
//! JSON lines both ways. The face starts with [`ClientFrame::Hello`]; the engine answers
//! [`ServerFrame::Welcome`] or [`ServerFrame::Refused`] (a different version: the two sides must
//! be the same build of the protocol) and nothing else happens before. Then the face sends
//! requests, each with its own id, and the engine answers each once ([`ServerFrame::Response`]),
//! while the events of the session flow beside them, numbered from 1 ([`ServerFrame::Event`]);
//! the end of each turn is numbered with them ([`ServerFrame::TurnEnded`]).
//!
//! The session outlives the link: when the link drops, the turn goes on (a confirmation waits for
//! its answer, and times out as usual), and a new link [`RemoteRequest::Attach`]es to it and gets
//! every numbered frame after the last one it saw, once and in order.
//!
//! What the window does with a project through Tauri commands, and whether the link carries it
//! yet:
//!
//! | window command | over the link |
//! |---|---|
//! | `chat_send`, `chat_cancel`, `chat_tool_approve` | [`RemoteRequest::Send`], [`RemoteRequest::Cancel`], [`RemoteRequest::Approve`] |
//! | opening a conversation (`chat_open`) | [`RemoteRequest::Open`] |
//! | `checkpoint_list`, `checkpoint_patch`, `checkpoint_restore_plan`, `checkpoint_restore` | [`RemoteRequest::CheckpointList`], [`RemoteRequest::CheckpointPatch`], [`RemoteRequest::CheckpointRestorePlan`], [`RemoteRequest::CheckpointRestore`] |
//! | `checkpoint_stop_scan` (the first look's Stop) | [`RemoteRequest::CheckpointStopScan`] (the look the session's engine takes there) |
//! | `checkpoint_changes` | none: the window does not use it (a turn's changes come with its events, a diff with `checkpoint_patch`) |
//! | `chat_list`, `chat_delete`, `chat_restore` | none by design: a remote conversation is listed from what the window opened (`remote_known`), forgotten here (`remote_forget`) and never deleted from here |
//! | `conversations_list` | [`RemoteRequest::ConversationList`] (of one project there: `remote_conversations`) |
//! | `conversations_search`, `conversation_history`, deleting one | [`RemoteRequest::ConversationSearch`], [`RemoteRequest::ConversationRead`], [`RemoteRequest::ConversationRemove`] (`warden sessions --remote`) |
//! | `chat_search` (the list's search box, beside this machine's) | [`RemoteRequest::ConversationSearch`] of each linked project's folder (`remote_search`) |
//! | `chat_rename` of a remote conversation | [`RemoteRequest::ConversationRename`] (its title there; the list here keeps it too) |
//! | `sandbox_clear_cache_layer` of a remote project | [`RemoteRequest::ClearCacheLayer`] (`remote_clear_cache_layer`) |
//! | `sandbox_status` | [`RemoteRequest::Machine`] (the machine), [`RemoteRequest::SandboxStatus`] (its box, `remote_sandbox_status`) |
//! | `instructions_in_use` | [`RemoteRequest::InstructionsInUse`] (`remote_instructions_in_use`; the files are not opened from here) |
//! | `mcp_status` | [`RemoteRequest::McpStatus`] (the session's servers there, `remote_mcp_status`) |
//! | `mcp_read_resource` (the composer's "Attach a resource") | [`RemoteRequest::McpReadResource`] (`remote_mcp_read_resource`) |
//! | `chat_grants`, `chat_grant_revoke` | [`RemoteRequest::Grants`], [`RemoteRequest::GrantRevoke`] |
//! | `chat_compact`, `chat_rewind` | [`RemoteRequest::Compact`], [`RemoteRequest::Rewind`] |
//! | `hooks_project_offer`, `mcp_project_offer` (and their answers, kept by the face) | [`RemoteRequest::ProjectOffers`] (`remote_project_offers`, `remote_hooks_choose`, `remote_mcp_choose`) |
//! | a settings change, taken up before the next message | [`RemoteRequest::Resettle`] |
//! | `conventions_list` (the composer's `/`) | [`RemoteRequest::Conventions`] (`remote_conventions`) |
//! | `sandbox_allow_read`, `git_aside_restore` (a failed command's block) | [`RemoteRequest::OfferRead`] (checked there, kept by the face), [`RemoteRequest::GitAsideRestore`] |
//! | `box_home_notice`, `box_home_notice_dismiss` | [`RemoteRequest::BoxNotice`], [`RemoteRequest::BoxNoticeDismiss`] (`remote_box_notice`, `remote_box_notice_dismiss`) |
//! | `chat_history`, `chat_history_read_only`, `chat_message_stamps`, `chat_compaction` | [`RemoteRequest::ConversationRead`] (the history, or as far as it reads), [`RemoteRequest::ConversationStamps`], [`RemoteRequest::ConversationCompaction`] |
//! | `mcp_elicit_answer` (an MCP server's form, sampling request or host, asked in the window) | [`ServerFrame::Ask`], answered with [`RemoteRequest::AskAnswer`] |
//! | `mcp_sign_in` | none: the sign-in is made here and carried with [`RemoteOpen`] (without its refresh token) |
//! | settings screens, keys, rules, `skill_switch` | none: they are this machine's, sent with [`RemoteOpen`] and [`RemoteRequest::Resettle`] |
//!
//! Secrets cross the link only inside [`RemoteKey`], whose `Debug` shows no value.

use serde::{Deserialize, Serialize};

use crate::{
    BoxHomeNotice, ChatCancel, ChatSend, CheckpointInfo, CompactionInfo, ConventionsInUse, ConversationHit,
    ConversationPage, Event, InstructionsInUse, McpElicit, McpElicitAnswer, McpResourceText, McpServerStatus,
    PermissionRule, ProjectHooksOffer, ProjectMcpOffer, RestorePlan, RestoreReport, RuleScope, SandboxStatus,
    SessionGrant, Settings, ToolApproval,
};

mod opening;
mod saved;

pub use opening::{RemoteKey, RemoteMcpSecret, RemoteMcpSignIn, RemoteOpen, RemoteSession};
pub use saved::{RemoteConversation, RemoteRow};

/// The link's own version: both sides must speak the same one. Bumped with any change to the
/// frames below or to the types they carry that an older side would misread.
pub const REMOTE_PROTOCOL: u32 = 5;

/// What the face sends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[allow(clippy::large_enum_variant)] // A request is the common frame; boxing it buys nothing.
pub enum ClientFrame {
    /// The first line: who is asking.
    Hello(Hello),
    /// Every line after it.
    Request {
        id: u64,
        #[serde(flatten)]
        request: RemoteRequest,
    },
}

/// The first line each way: the build and the protocol each side speaks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Hello {
    /// Warden's version (`0.1.0`).
    pub version: String,
    pub protocol: u32,
}

/// What the engine sends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[allow(clippy::large_enum_variant)] // An event is the common frame; boxing it buys nothing.
pub enum ServerFrame {
    /// The handshake succeeded: this engine, and the machine it runs on.
    Welcome { engine: Hello, machine: RemoteMachine },
    /// The handshake failed (in words), and the engine exits.
    Refused { engine: Hello, reason: String },
    /// The answer to request `id`.
    Response {
        id: u64,
        #[serde(flatten)]
        outcome: RemoteOutcome,
    },
    /// An event of the open session, numbered from 1 without gaps.
    Event { seq: u64, event: Event },
    /// An MCP server of the session asks the user (a form, the use of the model, a host no rule
    /// names), numbered with the events; answered with [`RemoteRequest::AskAnswer`]. Only a
    /// session opened for a window ([`RemoteSession::window`]) asks: servers of other sessions
    /// are not offered forms, as in a `warden exec` here.
    Ask { seq: u64, ask: McpElicit },
    /// The turn a [`RemoteRequest::Send`] started is over (numbered with the events).
    TurnEnded { seq: u64, end: RemoteTurnEnd },
}

/// How a request ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RemoteOutcome {
    Ok(RemoteResult),
    Error(RemoteError),
}

/// A request that failed, in words for the user.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RemoteError {
    pub message: String,
    /// The caller asked for something impossible (a project that is not there, an unknown
    /// checkpoint), as opposed to the engine failing.
    #[serde(default)]
    pub usage: bool,
}

/// The machine the engine runs on, as the window shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RemoteMachine {
    pub host: String,
    pub user: String,
    pub uid: u32,
    /// `std::env::consts::{OS, ARCH}`: `linux`, `x86_64`.
    pub os: String,
    pub arch: String,
    /// Whether commands run in the bubblewrap box there, and if not why.
    pub contained: bool,
    pub containment: String,
}

/// What the face asks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "method", content = "params", rename_all = "snake_case")]
#[allow(clippy::large_enum_variant)] // One open per link; boxing it buys nothing.
pub enum RemoteRequest {
    /// Start (or continue) the link's session. One per link.
    Open(RemoteOpen),
    /// Send a message in the open session; answered when the turn starts, which ends with a
    /// [`ServerFrame::TurnEnded`].
    Send(ChatSend),
    /// Take up a session this engine still holds (the link that opened it dropped): every frame
    /// numbered after `after_seq` is sent again, then the ones that follow.
    Attach {
        conversation_id: String,
        after_seq: u64,
    },
    /// Answer a `chat:tool-confirm` of the open session.
    Approve(ToolApproval),
    Cancel(ChatCancel),
    /// End the session: its `SessionEnd` hooks run, then its commands are stopped.
    End,
    /// The machine's facts again (the box may have changed).
    Machine,
    CheckpointList {
        project: String,
        conversation: Option<String>,
    },
    CheckpointRestore {
        project: String,
        id: String,
        #[serde(default)]
        paths: Vec<String>,
        #[serde(default)]
        force: bool,
        /// Stop the background commands of the link's session first (the user agreed).
        #[serde(default)]
        stop_running: bool,
    },
    /// The unified diff between two checkpoints (or one and now), of one file when `path` is given.
    CheckpointPatch {
        project: String,
        from: String,
        #[serde(default)]
        to: Option<String>,
        #[serde(default)]
        path: Option<String>,
    },
    /// Stop the look at the project the link's session is taking for its checkpoints (the first
    /// one can be long in a large folder that is not a git repository): no checkpoint is taken
    /// there until the project is opened again, and each call that changes files asks first.
    CheckpointStopScan,
    /// What restoring `paths` (all when empty) of checkpoint `id` would do now.
    CheckpointRestorePlan {
        project: String,
        id: String,
        #[serde(default)]
        paths: Vec<String>,
    },
    ConversationList {
        offset: u32,
        limit: u32,
        /// Only those held in this project folder there.
        #[serde(default)]
        project: Option<String>,
    },
    /// One saved conversation, as far as it can be read (`warden sessions show`).
    ConversationRead {
        id: String,
    },
    /// The saved conversations holding every word of `query`: of every project there, or only
    /// of the folder `project` (the window's search, per linked project).
    ConversationSearch {
        query: String,
        limit: u32,
        #[serde(default)]
        project: Option<String>,
    },
    /// Name a saved conversation; an empty title names it after its first message again.
    ConversationRename {
        id: String,
        title: String,
    },
    /// When each message of a saved conversation was written and by which model, in the order of
    /// its history (the window asks beside the history: the messages are not sent twice).
    ConversationStamps {
        id: String,
    },
    /// Where a saved conversation was last compacted (`None`: never), for the window's divider.
    ConversationCompaction {
        id: String,
    },
    /// Delete a saved conversation for good.
    ConversationRemove {
        id: String,
    },
    /// The rules "always" kept in the link's session so far (the face keeps them in its own
    /// settings: the remote engine's are the face's, held in memory for the session).
    KeptRules,
    /// The box commands of `project` get there (Settings → Sandbox), with the face's settings.
    SandboxStatus {
        project: String,
        settings: Settings,
    },
    /// The instruction files of `project` there and whether the face's global instructions are
    /// used, as a conversation started there now gets them (the top bar's "Using AGENTS.md").
    InstructionsInUse {
        project: String,
        settings: Settings,
    },
    /// The MCP servers of the link's session for `project`, each started there when it is not
    /// running, and where it stands (Settings → MCP servers).
    McpStatus {
        project: String,
    },
    /// The project's own files that wait for the user's answer (its hooks, its `.mcp.json`), read
    /// there with the face's `settings` for it: what they hold, their digests, and whether the
    /// user approved them.
    ProjectOffers {
        project: String,
        settings: Settings,
    },
    /// Once, for a project Warden worked in on that machine before the box began to show only
    /// the toolchains of the home: what of that home its commands no longer see (`None`: nothing
    /// to say), with the face's `settings` for it.
    BoxNotice {
        project: String,
        settings: Settings,
    },
    /// The skills and custom commands a conversation in `project` there gets (the composer's `/`
    /// completion), with the face's `settings` (the skills switched off).
    Conventions {
        project: String,
        settings: Settings,
    },
    /// Whether the commands of `project` there may be let read `path` (offered on a failed
    /// command's block): refused in words for one the box there hides on purpose. The face keeps
    /// the answer in its settings, under `host:/path`.
    OfferRead {
        project: String,
        settings: Settings,
        path: String,
    },
    /// Put back, in `project` there, what a sweep moved out of its git metadata after a command:
    /// `from` where it was, `aside` its name in the project's storage there.
    GitAsideRestore {
        project: String,
        from: String,
        aside: String,
    },
    /// Remove the cache layer of `project` there (what its boxes wrote to the package caches):
    /// Settings → Sandbox's Clear.
    ClearCacheLayer {
        project: String,
    },
    /// The user has read the box notice of `project` there: it is not shown again.
    BoxNoticeDismiss {
        project: String,
    },
    /// The face's settings changed since the link's session opened (a trust level, a rule, an
    /// approval of the project's hooks or `.mcp.json`): between turns, the session is made again
    /// there with `settings` and `session`'s choices, and goes on from its history, as a
    /// conversation open here is before its next message.
    Resettle {
        settings: Settings,
        session: RemoteSession,
    },
    /// Read the resource `uri` of the link's session's MCP server `server` (started there when it
    /// is not running), to go with the user's next message.
    McpReadResource {
        server: String,
        uri: String,
    },
    /// The user's answer to a [`ServerFrame::Ask`] of the link's session.
    AskAnswer {
        request_id: String,
        answer: McpElicitAnswer,
    },
    /// What "Allow for this session" remembered in the link's session.
    Grants,
    /// Forget one of them: the calls it covered ask again.
    GrantRevoke {
        grant: SessionGrant,
    },
    /// "Compact now" in the link's session: its older part is summarized in what the model is
    /// sent (`chat:compacted` comes as an event). Refused while a turn runs; a cancel stops it.
    Compact,
    /// "Rewind conversation to here" in the link's session: drop the `user_message`-th message the
    /// user wrote (0-based) and everything after it, in the saved conversation and in the session
    /// that goes on from it. The project's files are not touched. Refused while a turn runs.
    Rewind {
        user_message: u32,
    },
}

/// A remote project the window opened, remembered on this machine so that it is listed after a
/// restart and its conversation can be taken up again there (docs/REMOTE.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct KnownRemote {
    /// The conversation it works on there.
    pub conversation_id: String,
    /// `host:/path`, as the user typed it.
    pub target: String,
    /// The custom transport it was opened with (`None`: ssh).
    #[serde(default)]
    pub transport: Option<String>,
    pub host: String,
    pub user: String,
    pub containment: String,
    /// Its session uses that machine's own API keys, not this one's.
    #[serde(default)]
    pub remote_env_keys: bool,
    /// The title the user gave its conversation in the window (also saved there); `None`: the
    /// list shows the target.
    #[serde(default)]
    pub title: Option<String>,
    /// When it was last opened: milliseconds since the Unix epoch.
    pub opened_at_ms: u64,
}

/// A remote project's own files that wait for the user's answer, read there.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct RemoteProjectOffers {
    /// Its hooks (`.claude/settings.json`), when it names any.
    pub hooks: Option<ProjectHooksOffer>,
    /// Its MCP servers (`.mcp.json`), when it has the file.
    pub mcp: Option<ProjectMcpOffer>,
}

/// A rule an "always" answer kept in a remote session: of every project (`User`), or of the
/// session's project (`Project`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeptRule {
    pub scope: RuleScope,
    pub rule: PermissionRule,
}

/// What a request gave.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum RemoteResult {
    Done,
    /// [`RemoteRequest::Open`]: the conversation the session works on.
    Opened {
        conversation_id: String,
    },
    /// [`RemoteRequest::Attach`]: the session is this link's again.
    Attached {
        conversation_id: String,
    },
    Machine(RemoteMachine),
    Checkpoints(Vec<CheckpointInfo>),
    Restored(RestoreReport),
    Patch(String),
    RestorePlan(RestorePlan),
    Conversations(ConversationPage),
    Conversation(RemoteConversation),
    Hits(Vec<ConversationHit>),
    KeptRules(Vec<KeptRule>),
    Sandbox(Box<SandboxStatus>),
    McpServers(Vec<McpServerStatus>),
    Instructions(InstructionsInUse),
    ProjectOffers(Box<RemoteProjectOffers>),
    /// [`RemoteRequest::McpReadResource`].
    Resource(McpResourceText),
    Grants(Vec<SessionGrant>),
    /// [`RemoteRequest::GrantRevoke`]: whether there was such a grant.
    Revoked(bool),
    Conventions(ConventionsInUse),
    /// [`RemoteRequest::BoxNotice`].
    BoxNotice(Option<BoxHomeNotice>),
    /// [`RemoteRequest::ConversationCompaction`].
    Compaction(Option<CompactionInfo>),
    /// [`RemoteRequest::ConversationStamps`].
    Stamps(Vec<crate::MessageStamp>),
    /// [`RemoteRequest::Rewind`]: the text of the message dropped, to offer again.
    Rewound {
        text: String,
    },
}

/// How a turn ended (the engine's `TurnEnd`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RemoteTurnEnd {
    Completed,
    Cancelled,
    Failed,
    BudgetSpent,
    MaxTurns,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ConversationSummary, KeyName, SavedRow};

    #[test]
    fn a_key_never_shows_in_debug_output() {
        let key = RemoteKey { name: KeyName::Anthropic, value: "sk-ant-secret-value".into() };
        let open = format!("{key:?}");
        assert!(!open.contains("sk-ant-secret-value") && open.contains("hidden"), "{open}");
    }

    #[test]
    fn frames_read_back_as_written() {
        let frames = [
            ClientFrame::Hello(Hello { version: "0.1.0".into(), protocol: REMOTE_PROTOCOL }),
            ClientFrame::Request { id: 7, request: RemoteRequest::End },
            ClientFrame::Request {
                id: 8,
                request: RemoteRequest::CheckpointList { project: "/p".into(), conversation: None },
            },
        ];
        for frame in frames {
            let line = serde_json::to_string(&frame).unwrap();
            assert_eq!(serde_json::from_str::<ClientFrame>(&line).unwrap(), frame, "{line}");
        }
        let line = serde_json::to_string(&ServerFrame::Response {
            id: 3,
            outcome: RemoteOutcome::Ok(RemoteResult::Done),
        })
        .unwrap();
        assert_eq!(line, r#"{"type":"response","id":3,"ok":{"kind":"done"}}"#);
        let line =
            serde_json::to_string(&ServerFrame::TurnEnded { seq: 9, end: RemoteTurnEnd::Completed }).unwrap();
        assert_eq!(line, r#"{"type":"turn_ended","seq":9,"end":"completed"}"#);
    }

    #[test]
    fn saved_conversations_read_back_as_written_inside_a_response() {
        let summary = ConversationSummary {
            id: "c1".into(),
            title: "Ferns".into(),
            project_root: Some("/p".into()),
            updated_at_ms: 5,
            message_count: 2,
        };
        let message = crate::Message {
            role: crate::Role::User,
            content: vec![crate::ContentBlock::Text { text: "where do ferns grow?".into() }],
        };
        let results = [
            RemoteResult::Hits(vec![ConversationHit {
                conversation: summary.clone(),
                snippet: Some("ferns".into()),
            }]),
            RemoteResult::Conversation(RemoteConversation {
                summary,
                rows: vec![
                    SavedRow::Read { message, stamp: crate::MessageStamp::default() }.into(),
                    SavedRow::Unreadable { reason: "damaged".into() }.into(),
                ],
                stopped: Some("the disk".into()),
            }),
        ];
        for result in results {
            let frame = ServerFrame::Response { id: 1, outcome: RemoteOutcome::Ok(result) };
            let line = serde_json::to_string(&frame).unwrap();
            let back = serde_json::from_str::<ServerFrame>(&line);
            assert_eq!(back.as_ref().ok(), Some(&frame), "{line}: {back:?}");
        }
    }
}

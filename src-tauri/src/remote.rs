//! A project on another machine, in the window: the session runs in the engine there (reached over
//! ssh or a given command, `warden_core::remote`), and is held here as any conversation is — its
//! events go through the same bridge, and its messages, answers and cancels through the same
//! commands — while the link's state is told to the window (`remote:link`) for its banner.

use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use specta::Type;
use tokio::sync::mpsc;
use warden_core::agent::compaction::Compacted;
use warden_core::engine::Engine;
use warden_core::remote::askpass::Askpass;
use warden_core::remote::{
    approvals, split_frames, Attached, LinkError, LinkStatus, RemoteTarget, Transport,
};
use warden_protocol::{
    BoxHomeNotice, CompactionInfo, ConventionsInUse, ConversationSummary, Event, InstructionsInUse,
    McpResourceText, McpServerStatus, Message, Op, RemoteProjectOffers, RemoteRequest, RemoteResult,
    RemoteSession, RemoteTurnEnd, RestorePlan, RestoreReport, SandboxStatus, SessionGrant,
};

use crate::error::{CommandError, CommandErrorCode, CommandResult};
use crate::state::SessionHandle;

/// The most conversations of a remote project listed in the window (a page of the store's).
pub const SAVED_THERE: u32 = 200;

/// `remote:link`: how the link to a remote project's engine stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type, tauri_specta::Event)]
#[serde(rename_all = "camelCase")]
#[tauri_specta(event_name = "remote:link")]
pub struct RemoteLinkEvent {
    pub conversation_id: String,
    /// `up`, `reconnecting` or `lost`.
    pub state: String,
    /// Why it dropped, or was given up.
    pub detail: Option<String>,
    pub attempt: Option<u32>,
}

/// A remote project opened: its conversation, and the machine it runs on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct RemoteOpened {
    pub conversation_id: String,
    /// `host:/path`, as the user typed it.
    pub target: String,
    pub host: String,
    pub user: String,
    /// The box commands run in there ("bubblewrap", or "none (why)").
    pub containment: String,
    /// The session there uses that machine's own API keys, not this one's.
    pub remote_env_keys: bool,
}

/// What the user asked to open: `target` (`host:/path`), through `transport` (else ssh), a new
/// conversation or `resume` one saved there, with this machine's keys or (`remote_env_keys`)
/// that machine's own.
#[derive(Debug, Clone, Copy)]
pub struct OpenAsked<'a> {
    pub target: &'a str,
    pub transport: Option<&'a str>,
    pub resume: Option<&'a str>,
    pub remote_env_keys: bool,
}

impl OpenAsked<'_> {
    /// The session to open there, with this window's `settings`.
    fn session(&self, project: &str, settings: &warden_protocol::Settings) -> RemoteSession {
        RemoteSession {
            project: project.to_owned(),
            conversation_id: self.resume.map_or_else(|| uuid::Uuid::new_v4().to_string(), str::to_owned),
            resume: self.resume.is_some(),
            continue_last: false,
            provider: settings.active_provider,
            model: None,
            base_url: None,
            native_tools: None,
            trust: settings.trust_level,
            allow: None,
            approval_timeout_secs: None,
            max_turns: 200,
            searxng_url: None,
            network: None,
            save: true,
            window: true,
            remote_env_keys: self.remote_env_keys,
        }
    }

    /// The custom transport, when one was given.
    pub fn transport(&self) -> Option<&str> {
        self.transport.map(str::trim).filter(|t| !t.is_empty())
    }
}

/// The value of the answer of kind `$kind` to `$request`, asked of the engine there (an answer of
/// another kind is the engine's fault).
macro_rules! ask_for {
    ($handle:expr, $request:expr, $kind:path) => {
        match $handle.ask($request).await? {
            $kind(value) => Ok(value),
            other => Err(wrong_answer(&other)),
        }
    };
}

/// The remote session as the commands use it.
pub struct RemoteHandle {
    attached: Arc<Attached>,
    target: RemoteTarget,
    busy: Arc<AtomicBool>,
    /// Whether the conversation there holds anything yet (taken up, or a message sent).
    saved: AtomicBool,
    /// The session asked for there: made again with its choices when the settings change.
    opened: RemoteSession,
    /// ssh's questions, asked in the window, on every link the session makes.
    _asks: Option<Askpass>,
}

impl RemoteHandle {
    fn request(&self, request: RemoteRequest) -> Pin<Box<dyn Future<Output = CommandResult<()>> + Send>> {
        let attached = self.attached.clone();
        Box::pin(async move { attached.request(request).await.map(drop).map_err(link_error) })
    }
}

impl RemoteHandle {
    async fn ask(&self, request: RemoteRequest) -> CommandResult<RemoteResult> {
        self.attached.request(request).await.map_err(link_error)
    }

    /// `request`, asked there, for which the engine answers only that it is done.
    async fn ask_done(&self, request: RemoteRequest) -> CommandResult<()> {
        match self.ask(request).await? {
            RemoteResult::Done => Ok(()),
            other => Err(wrong_answer(&other)),
        }
    }

    /// The project's path on the remote machine.
    fn project(&self) -> String {
        self.target.path.clone()
    }

    /// The diff between two of the remote project's checkpoints (or one and now).
    pub async fn checkpoint_patch(
        &self,
        from: String,
        to: Option<String>,
        path: Option<String>,
    ) -> CommandResult<String> {
        ask_for!(
            self,
            RemoteRequest::CheckpointPatch { project: self.project(), from, to, path },
            RemoteResult::Patch
        )
    }

    /// What restoring `paths` of the remote project's checkpoint `id` would do there.
    pub async fn restore_plan(&self, id: String, paths: Vec<String>) -> CommandResult<RestorePlan> {
        ask_for!(
            self,
            RemoteRequest::CheckpointRestorePlan { project: self.project(), id, paths },
            RemoteResult::RestorePlan
        )
    }

    /// The box commands of the remote project get there, with this window's settings for it.
    pub async fn sandbox_status(&self, engine: &Engine) -> CommandResult<SandboxStatus> {
        let settings = warden_core::remote::settings_for(engine, &self.target);
        let request = RemoteRequest::SandboxStatus { project: self.project(), settings };
        ask_for!(self, request, RemoteResult::Sandbox).map(|status| *status)
    }

    /// The conversations saved in the remote project there, most recently changed first (at most
    /// [`SAVED_THERE`]).
    pub async fn conversations(&self) -> CommandResult<Vec<ConversationSummary>> {
        let request =
            RemoteRequest::ConversationList { offset: 0, limit: SAVED_THERE, project: Some(self.project()) };
        ask_for!(self, request, RemoteResult::Conversations).map(|page| page.conversations)
    }

    /// The instructions a conversation started in the remote project gets there.
    pub async fn instructions_in_use(&self, engine: &Engine) -> CommandResult<InstructionsInUse> {
        let settings = warden_core::remote::settings_for(engine, &self.target);
        ask_for!(
            self,
            RemoteRequest::InstructionsInUse { project: self.project(), settings },
            RemoteResult::Instructions
        )
    }

    /// The MCP servers of the remote session, as its engine runs them there.
    pub async fn mcp_status(&self) -> CommandResult<Vec<McpServerStatus>> {
        ask_for!(self, RemoteRequest::McpStatus { project: self.project() }, RemoteResult::McpServers)
    }

    /// The conversation as saved there now (the session saves each message there); refused
    /// (`CONVERSATION_UNREADABLE`) when it cannot be read whole there, as one here is.
    pub async fn saved_history(&self) -> CommandResult<Vec<Message>> {
        let Some(conversation) = self.read_there().await? else { return Ok(Vec::new()) };
        if let Some(why) = saved::unreadable(&conversation) {
            return Err(CommandError::new(
                CommandErrorCode::ConversationUnreadable,
                format!("This conversation cannot be read whole on {}: {why}", self.target.host),
            ));
        }
        Ok(conversation.rows.into_iter().filter_map(|row| row.message).collect())
    }

    /// The session there takes up this window's settings as they are now (between turns), with
    /// the trust level and provider they choose, and goes on from its history.
    pub async fn resettle(&self, engine: &Engine) -> CommandResult<()> {
        let now = engine.settings();
        let mut session = self.opened.clone();
        (session.trust, session.provider) = (now.trust_level, now.active_provider);
        let settings = warden_core::remote::settings_there(now, &self.target);
        self.ask_done(RemoteRequest::Resettle { settings, session }).await
    }

    /// The project's own hooks and `.mcp.json` there, as they wait for an answer.
    pub async fn project_offers(&self, engine: &Engine) -> CommandResult<RemoteProjectOffers> {
        let settings = warden_core::remote::settings_for(engine, &self.target);
        let request = RemoteRequest::ProjectOffers { project: self.project(), settings };
        ask_for!(self, request, RemoteResult::ProjectOffers).map(|offers| *offers)
    }

    /// Approve (or stop running) the project's hooks there whose digest the user was shown: checked
    /// against the file as it is there now, kept in this window's settings under `host:/path`.
    pub async fn choose_hooks(&self, engine: &Engine, digest: &str, approve: bool) -> CommandResult<()> {
        let offers = self.project_offers(engine).await?;
        let mut settings = engine.settings();
        approvals::choose_hooks(&mut settings, &self.target, offers.hooks.as_ref(), digest, approve)
            .map_err(CommandError::invalid_input)?;
        Ok(engine.save_settings(settings)?)
    }

    /// Use (or decline) the project's `.mcp.json` there whose digest the user was shown, as
    /// [`Self::choose_hooks`] keeps hooks.
    pub async fn choose_mcp(&self, engine: &Engine, digest: &str, approved: bool) -> CommandResult<()> {
        let offers = self.project_offers(engine).await?;
        let mut settings = engine.settings();
        approvals::choose_mcp(&mut settings, &self.target, offers.mcp.as_ref(), digest, approved)
            .map_err(CommandError::invalid_input)?;
        Ok(engine.save_settings(settings)?)
    }

    /// The resource `uri` of the session's MCP server `server` there.
    pub async fn read_resource(&self, server: String, uri: String) -> CommandResult<McpResourceText> {
        ask_for!(self, RemoteRequest::McpReadResource { server, uri }, RemoteResult::Resource)
    }

    /// Let the project's commands there read `path` (a failed command's block offered it): checked
    /// there against that box, kept here under `host:/path`; the session there takes it up before
    /// the next message.
    pub async fn allow_read(&self, engine: &Engine, path: &str) -> CommandResult<()> {
        let settings = warden_core::remote::settings_for(engine, &self.target);
        let request = RemoteRequest::OfferRead { project: self.project(), settings, path: path.to_owned() };
        self.ask_done(request).await?;
        engine.allow_read_there(&self.target.to_string(), path).map_err(CommandError::invalid_input)
    }

    /// Put back, in the project there, what a sweep moved out of its git metadata.
    pub async fn restore_git_aside(&self, from: &str, aside: &str) -> CommandResult<()> {
        let request = RemoteRequest::GitAsideRestore {
            project: self.project(),
            from: from.to_owned(),
            aside: aside.to_owned(),
        };
        self.ask_done(request).await
    }

    /// The skills and custom commands a conversation in the project there gets.
    pub async fn conventions(&self, engine: &Engine) -> CommandResult<ConventionsInUse> {
        let settings = warden_core::remote::settings_for(engine, &self.target);
        ask_for!(
            self,
            RemoteRequest::Conventions { project: self.project(), settings },
            RemoteResult::Conventions
        )
    }

    /// The box's notice of the project there, once (`None`: nothing to say).
    pub async fn box_notice(&self, engine: &Engine) -> CommandResult<Option<BoxHomeNotice>> {
        let settings = warden_core::remote::settings_for(engine, &self.target);
        ask_for!(
            self,
            RemoteRequest::BoxNotice { project: self.project(), settings },
            RemoteResult::BoxNotice
        )
    }

    /// The box's notice of the project there was read: it is not shown again.
    pub async fn dismiss_box_notice(&self) -> CommandResult<()> {
        self.ask_done(RemoteRequest::BoxNoticeDismiss { project: self.project() }).await
    }

    /// Where the conversation was last compacted there (`None`: never).
    pub async fn compaction(&self) -> CommandResult<Option<CompactionInfo>> {
        let id = self.attached.conversation_id().to_owned();
        ask_for!(self, RemoteRequest::ConversationCompaction { id }, RemoteResult::Compaction)
    }

    /// "Rewind conversation to here", done there: the `n`-th message the user wrote and all after
    /// it are dropped from the saved conversation and the session. Returns the dropped text.
    pub async fn rewind(&self, n: usize) -> CommandResult<String> {
        let user_message = u32::try_from(n)
            .map_err(|_| CommandError::invalid_input("There is no such message in this conversation."))?;
        match self.ask(RemoteRequest::Rewind { user_message }).await? {
            RemoteResult::Rewound { text } => Ok(text),
            other => Err(wrong_answer(&other)),
        }
    }

    /// Stop the look at the remote project its session is taking there for checkpoints.
    pub async fn stop_scan(&self) -> CommandResult<()> {
        self.ask_done(RemoteRequest::CheckpointStopScan).await
    }

    /// Restore the remote project there.
    pub async fn restore(
        &self,
        id: String,
        paths: Vec<String>,
        force: bool,
        stop_running: bool,
    ) -> CommandResult<RestoreReport> {
        let request =
            RemoteRequest::CheckpointRestore { project: self.project(), id, paths, force, stop_running };
        ask_for!(self, request, RemoteResult::Restored)
    }
}

fn wrong_answer(_: &RemoteResult) -> CommandError {
    CommandError::internal("The remote engine answered another request than the one it was asked.")
}

fn link_error(error: LinkError) -> CommandError {
    match error {
        LinkError::Remote { message, usage: true } => CommandError::invalid_input(message),
        other => CommandError::internal(other.to_string()),
    }
}

impl SessionHandle for RemoteHandle {
    fn submit(&self, op: Op) -> Pin<Box<dyn Future<Output = CommandResult<()>> + Send>> {
        match op {
            Op::Send(send) => {
                if self.busy.swap(true, Ordering::SeqCst) {
                    return Box::pin(async {
                        Err(CommandError::invalid_input("A turn is already running."))
                    });
                }
                self.saved.store(true, Ordering::SeqCst);
                let busy = self.busy.clone();
                let sent = self.request(RemoteRequest::Send(send));
                Box::pin(async move {
                    let sent = sent.await;
                    if sent.is_err() {
                        busy.store(false, Ordering::SeqCst);
                    }
                    sent
                })
            }
            Op::Cancel(cancel) => self.request(RemoteRequest::Cancel(cancel)),
            Op::Approve(approval) => self.request(RemoteRequest::Approve(approval)),
        }
    }

    /// Nothing held here: the conversation is saved there, and read there when the window shows
    /// it (`AppState::history`).
    fn history(&self) -> Vec<Message> {
        Vec::new()
    }

    fn is_busy(&self) -> bool {
        self.busy.load(Ordering::SeqCst)
    }

    /// Held there: asked there.
    fn grants(&self) -> Pin<Box<dyn Future<Output = CommandResult<Vec<SessionGrant>>> + Send>> {
        let attached = self.attached.clone();
        Box::pin(async move {
            match attached.request(RemoteRequest::Grants).await.map_err(link_error)? {
                RemoteResult::Grants(grants) => Ok(grants),
                other => Err(wrong_answer(&other)),
            }
        })
    }

    fn revoke_grant(&self, grant: SessionGrant) -> Pin<Box<dyn Future<Output = CommandResult<bool>> + Send>> {
        let attached = self.attached.clone();
        Box::pin(async move {
            match attached.request(RemoteRequest::GrantRevoke { grant }).await.map_err(link_error)? {
                RemoteResult::Revoked(revoked) => Ok(revoked),
                other => Err(wrong_answer(&other)),
            }
        })
    }

    fn compaction(&self) -> Option<Compacted> {
        None
    }

    fn compact_now(&self) -> Pin<Box<dyn Future<Output = CommandResult<()>> + Send>> {
        self.request(RemoteRequest::Compact)
    }

    fn project_root(&self) -> PathBuf {
        PathBuf::from(self.target.to_string())
    }

    fn background_commands(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    fn stop_background_commands(&self) {}

    fn end(&self, _reason: &'static str) -> Pin<Box<dyn Future<Output = ()> + Send>> {
        let attached = self.attached.clone();
        Box::pin(async move {
            let _ = attached.request(RemoteRequest::End).await;
        })
    }
}

/// Connect to `target` (through `transport`, else ssh), open a session there with this window's
/// settings and keys, and hand back its handle, its events, its link states and what was opened.
pub async fn open(
    engine: &Arc<Engine>,
    asked: OpenAsked<'_>,
    askpass: &Arc<crate::askpass::WindowAskpass>,
    elicitor: &Arc<crate::elicit::WindowElicitor>,
) -> CommandResult<(
    Arc<RemoteHandle>,
    mpsc::UnboundedReceiver<Event>,
    tokio::sync::watch::Receiver<LinkStatus>,
    RemoteOpened,
)> {
    let parsed = RemoteTarget::parse(asked.target).map_err(CommandError::invalid_input)?;
    let session = asked.session(&parsed.path, &engine.settings());
    let open = warden_core::remote::open_request(engine, &parsed, session.clone()).await;
    // ssh asks what it must (a host key it does not know, a passphrase) in the window, through
    // Warden's own askpass, for as long as the session lives (it links again with it).
    let (transport, asks) = match asked.transport() {
        Some(command) => (Transport::command(command), None),
        None => {
            let asks = askpass_for(askpass, &parsed.host)?;
            (Transport::ssh(&parsed.host).with_asks(Some(asks.asks())), Some(asks))
        }
    };
    let over_ssh = asks.is_some();
    let (attached, frames, machine) = Attached::open(transport, open).await.map_err(|error| match error {
        // Over ssh the window can copy this engine there; over a command of the user's it cannot.
        error if over_ssh && error.wants_this_engine_there() => {
            CommandError::new(CommandErrorCode::NoRemoteEngine, error.to_string())
        }
        error => link_error(error),
    })?;
    let conversation_id = attached.conversation_id().to_owned();
    let busy = Arc::new(AtomicBool::new(false));
    let split = split_frames(frames);
    let (events, turn_ends) = (split.events, split.ends);
    tauri::async_runtime::spawn(ask_here(split.asks, elicitor.clone(), attached.clone()));
    let home = RulesHome { attached: attached.clone(), engine: engine.clone(), target: parsed.clone() };
    tauri::async_runtime::spawn(free_after_each_turn(turn_ends, busy.clone(), home));
    let status = attached.status();
    let handle = Arc::new(RemoteHandle {
        attached,
        target: parsed.clone(),
        busy,
        saved: AtomicBool::new(asked.resume.is_some()),
        opened: session,
        _asks: asks,
    });
    let opened = RemoteOpened {
        conversation_id,
        target: parsed.to_string(),
        host: machine.host,
        user: machine.user,
        containment: machine.containment,
        remote_env_keys: asked.remote_env_keys,
    };
    Ok((handle, events, status, opened))
}

/// Now, in milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// ssh's questions (a host key, a passphrase) asked in the window, for ssh to `host`.
pub fn askpass_for(askpass: &Arc<crate::askpass::WindowAskpass>, host: &str) -> CommandResult<Askpass> {
    let program = std::env::current_exe()
        .map_err(|e| CommandError::internal(format!("Cannot find Warden's own program: {e}")))?;
    Askpass::start(program, askpass.asker(host))
        .map_err(|e| CommandError::internal(format!("Cannot ask for ssh's questions: {e}")))
}

/// Where what "always" keeps in a remote session is kept here: this window's settings, the
/// project's rules under its `host:/path`.
struct RulesHome {
    attached: Arc<Attached>,
    engine: Arc<Engine>,
    target: RemoteTarget,
}

impl RulesHome {
    async fn bring(&self) {
        warden_core::remote::bring_rules_home(&self.attached, &self.engine, &self.target).await;
    }
}

/// The end of each turn frees the session for the next message, and brings home the rules
/// "always" kept there during it.
async fn free_after_each_turn(
    mut ends: mpsc::UnboundedReceiver<RemoteTurnEnd>,
    busy: Arc<AtomicBool>,
    home: RulesHome,
) {
    while ends.recv().await.is_some() {
        busy.store(false, Ordering::SeqCst);
        home.bring().await;
    }
}

/// The questions of the remote session's MCP servers, each shown in the window as a local
/// server's is, and its answer sent there (at once: several may wait together).
async fn ask_here(
    mut asks: mpsc::UnboundedReceiver<warden_protocol::McpElicit>,
    elicitor: Arc<crate::elicit::WindowElicitor>,
    attached: Arc<Attached>,
) {
    use warden_core::mcp::AskUser as _;
    while let Some(ask) = asks.recv().await {
        let (elicitor, attached) = (elicitor.clone(), attached.clone());
        tauri::async_runtime::spawn(async move {
            let request_id = ask.request_id.clone();
            let answer = elicitor.ask(ask).await.into();
            if let Err(error) = attached.request(RemoteRequest::AskAnswer { request_id, answer }).await {
                tracing::warn!(%error, "an MCP server's question there could not be answered");
            }
        });
    }
}

/// The link's state, as `remote:link` events, until the session is dropped.
pub async fn tell_link_states<R: tauri::Runtime>(
    app: tauri::AppHandle<R>,
    conversation_id: String,
    mut status: tokio::sync::watch::Receiver<LinkStatus>,
) {
    use tauri_specta::Event as _;
    while status.changed().await.is_ok() {
        let (state, detail, attempt) = match &*status.borrow_and_update() {
            LinkStatus::Up => ("up", None, None),
            LinkStatus::Reconnecting { attempt, why } => {
                ("reconnecting", Some(why.clone()), u32::try_from(*attempt).ok())
            }
            LinkStatus::Lost(why) => ("lost", Some(why.clone()), None),
        };
        let event = RemoteLinkEvent {
            conversation_id: conversation_id.clone(),
            state: state.to_owned(),
            detail,
            attempt,
        };
        if let Err(error) = event.emit(&app) {
            tracing::warn!(%error, "could not tell the window how the remote link stands");
        }
    }
}

#[path = "remote_saved.rs"]
mod saved;

#[cfg(test)]
#[path = "remote_tests.rs"]
mod tests;

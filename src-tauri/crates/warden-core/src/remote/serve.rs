//! The engine's side of one link: the handshake, then requests answered one by one while the
//! attached session's numbered frames flow beside them. Sessions belong to the [`Hub`], not to
//! the link: when the link drops during a turn, the turn goes on (a confirmation waits for an
//! answer, or its time limit) until a link attaches again; a session with no turn running is ended
//! with its link, and its engine (with the keys it was sent) is dropped.

use std::path::Path;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;
use warden_protocol::{
    ClientFrame, RemoteError, RemoteOpen, RemoteOutcome, RemoteRequest, RemoteResult, RemoteTurnEnd,
    ServerFrame,
};

use super::hub::Hub;
use super::live::{AttachError, Live, Out};
use super::refusal::{failed, usage};
use crate::agent::{SendMode, TurnEnd};
use crate::engine::{Engine, KeySource};

/// The longest line read (a message with images fits; a runaway writer does not fill memory).
pub const MAX_LINE: usize = 64 * 1024 * 1024;

/// How a link ended.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("the face speaks another version: {0}")]
    Refused(String),
    #[error("the link closed before the handshake")]
    NoHello,
    #[error("the first line is not a hello: {0}")]
    BadHello(String),
    #[error("reading the link: {0}")]
    Read(#[from] std::io::Error),
}

/// Serve one link on `hub`: `input` carries the face's frames, `output` gets the engine's.
/// Returns when `input` ends (or the handshake fails).
pub async fn serve<R, W>(hub: &Arc<Hub>, mut input: R, output: W) -> Result<(), ServeError>
where
    R: AsyncBufRead + Unpin,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (out, frames) = mpsc::unbounded_channel();
    let writer = tokio::spawn(write_frames(frames, output));
    let ours = super::hello();
    let hello = match read_frame(&mut input).await? {
        None => return Err(ServeError::NoHello),
        Some(Ok(ClientFrame::Hello(hello))) => hello,
        Some(Ok(ClientFrame::Request { .. })) => return Err(ServeError::BadHello("a request".into())),
        Some(Err((_, error))) => return Err(ServeError::BadHello(error)),
    };
    if let Some(reason) = super::mismatch(&ours, &hello, "window or command on the other side") {
        let _ = out.send(ServerFrame::Refused { engine: ours, reason: reason.clone() });
        drop(out);
        let _ = writer.await;
        return Err(ServeError::Refused(reason));
    }
    let _ = out.send(ServerFrame::Welcome { engine: ours, machine: super::this_machine() });
    let link = LinkState { id: hub.link_opened(), hub: hub.clone(), out, live: Mutex::default() };
    let ended = loop {
        match read_frame(&mut input).await {
            Ok(None) => break Ok(()),
            Err(error) => break Err(ServeError::Read(error)),
            Ok(Some(Ok(ClientFrame::Request { id, request }))) => link.handle(id, request).await,
            Ok(Some(Ok(ClientFrame::Hello(_)))) => link.answer(0, Err(usage("a second hello"))),
            // Answered under its own id when it has one: the face waits for that id's answer.
            Ok(Some(Err((id, error)))) => link.answer(id, Err(usage(&format!("not a request: {error}")))),
        }
    };
    link.closed().await;
    drop(link);
    let _ = writer.await;
    hub.link_closed();
    ended
}

/// The next line as a frame (`Err`: the id it gives, else 0, and why it is not one), or `None`
/// at the end of the input.
async fn read_frame<R: AsyncBufRead + Unpin>(
    input: &mut R,
) -> std::io::Result<Option<Result<ClientFrame, (u64, String)>>> {
    let line = super::read_line(input, MAX_LINE).await?;
    Ok(line.map(|line| {
        serde_json::from_slice(&line).map_err(|error| {
            let id = serde_json::from_slice::<serde_json::Value>(&line)
                .ok()
                .and_then(|frame| frame.get("id")?.as_u64())
                .unwrap_or(0);
            (id, error.to_string())
        })
    }))
}

async fn write_frames<W: AsyncWrite + Unpin>(
    mut frames: mpsc::UnboundedReceiver<ServerFrame>,
    mut output: W,
) {
    while let Some(frame) = frames.recv().await {
        let mut batch = Vec::new();
        let mut next = Some(frame);
        // What is queued goes out in one write, flushed once.
        while let Some(frame) = next.take() {
            match serde_json::to_vec(&frame) {
                Ok(line) => batch.extend_from_slice(&line),
                Err(error) => tracing::error!(%error, "a frame could not be written as JSON"),
            }
            batch.push(b'\n');
            if batch.len() < 1 << 20 {
                next = frames.try_recv().ok();
            }
        }
        if output.write_all(&batch).await.is_err() || output.flush().await.is_err() {
            // The face is gone; the reader sees the end of its input too.
            return;
        }
    }
}

/// One link: its number, where its frames go, and the session it is attached to.
struct LinkState {
    id: u64,
    hub: Arc<Hub>,
    out: Out,
    live: Mutex<Option<(String, Arc<Live>)>>,
}

/// Answer request `id` on the link whose frames go to `out`.
fn respond(out: &Out, id: u64, result: Result<RemoteResult, RemoteError>) {
    let outcome = match result {
        Ok(result) => RemoteOutcome::Ok(result),
        Err(error) => RemoteOutcome::Error(error),
    };
    let _ = out.send(ServerFrame::Response { id, outcome });
}

impl LinkState {
    fn answer(&self, id: u64, result: Result<RemoteResult, RemoteError>) {
        respond(&self.out, id, result);
    }

    fn live(&self) -> Option<(String, Arc<Live>)> {
        super::lock(&self.live).clone()
    }

    fn attached(&self) -> Result<Arc<Live>, RemoteError> {
        self.live().map(|(_, live)| live).ok_or_else(|| usage("no session is open on this link"))
    }

    async fn handle(&self, id: u64, request: RemoteRequest) {
        let result = match request {
            RemoteRequest::Open(open) => self.open(open).await,
            RemoteRequest::Attach { conversation_id, after_seq } => self.attach(&conversation_id, after_seq),
            RemoteRequest::Send(send) => self.send(send),
            RemoteRequest::Approve(approval) => self.approve(approval),
            RemoteRequest::Cancel(_) => {
                if let Some(session) = self.live().and_then(|(_, live)| live.session()) {
                    session.cancel();
                }
                Ok(RemoteResult::Done)
            }
            RemoteRequest::End => self.end().await,
            RemoteRequest::Machine => Ok(RemoteResult::Machine(super::this_machine())),
            RemoteRequest::McpStatus { project } => self.mcp_status(&project).await,
            RemoteRequest::McpReadResource { server, uri } => self.read_resource(&server, &uri).await,
            RemoteRequest::SandboxStatus { .. }
            | RemoteRequest::InstructionsInUse { .. }
            | RemoteRequest::BoxNotice { .. }
            | RemoteRequest::BoxNoticeDismiss { .. }
            | RemoteRequest::ClearCacheLayer { .. }
            | RemoteRequest::Conventions { .. }
            | RemoteRequest::OfferRead { .. }
            | RemoteRequest::GitAsideRestore { .. }
            | RemoteRequest::ProjectOffers { .. } => self.about_project(request).await,
            RemoteRequest::Resettle { settings, session } => {
                async { super::resettle::resettle(&self.attached()?, settings, session).await }.await
            }
            RemoteRequest::Compact => return self.compact(id),
            RemoteRequest::CheckpointStopScan => self.stop_scan(),
            RemoteRequest::AskAnswer { request_id, answer } => {
                match self.hub.asks.answer(&request_id, answer) {
                    true => Ok(RemoteResult::Done),
                    false => Err(usage(&format!("no question `{request_id}` is waiting for an answer"))),
                }
            }
            RemoteRequest::Grants => self.with_session(|session| RemoteResult::Grants(session.grants())),
            RemoteRequest::GrantRevoke { grant } => {
                self.with_session(|session| RemoteResult::Revoked(session.revoke_grant(&grant)))
            }
            RemoteRequest::Rewind { user_message } => {
                async { super::history::rewind(&*self.attached()?, user_message).await }.await
            }
            RemoteRequest::KeptRules => {
                self.attached().map(|live| RemoteResult::KeptRules(live.kept_rules()))
            }
            RemoteRequest::CheckpointList { .. }
            | RemoteRequest::CheckpointPatch { .. }
            | RemoteRequest::CheckpointRestorePlan { .. }
            | RemoteRequest::CheckpointRestore { .. } => {
                let engine = self.hub.bare_engine().await;
                let session = self.live().and_then(|(_, live)| live.session());
                blocking(move || super::checkpoints::answer(&engine, session.as_ref(), request)).await
            }
            RemoteRequest::ConversationList { .. }
            | RemoteRequest::ConversationRead { .. }
            | RemoteRequest::ConversationStamps { .. }
            | RemoteRequest::ConversationSearch { .. }
            | RemoteRequest::ConversationRename { .. }
            | RemoteRequest::ConversationCompaction { .. }
            | RemoteRequest::ConversationRemove { .. } => {
                let engine = self.hub.bare_engine().await;
                blocking(move || super::saved::answer(&engine, request)).await
            }
        };
        self.answer(id, result);
    }

    /// A request about a project there, answered by an engine with the face's settings for it.
    async fn about_project(&self, request: RemoteRequest) -> Result<RemoteResult, RemoteError> {
        match request {
            RemoteRequest::SandboxStatus { project, settings } => {
                self.with_settings(project, settings, |engine, project| {
                    Ok(RemoteResult::Sandbox(Box::new(engine.sandbox_status_of(project))))
                })
                .await
            }
            RemoteRequest::InstructionsInUse { project, settings } => {
                self.with_settings(project, settings, |engine, project| {
                    Ok(RemoteResult::Instructions(engine.instructions_in_use_of(project)))
                })
                .await
            }
            RemoteRequest::BoxNotice { project, settings } => {
                self.with_settings(project, settings, |engine, project| {
                    engine
                        .box_home_notice_of(project)
                        .map(RemoteResult::BoxNotice)
                        .map_err(super::refusal::setup)
                })
                .await
            }
            RemoteRequest::BoxNoticeDismiss { project } => {
                self.with_settings(project, warden_protocol::Settings::default(), |engine, project| {
                    engine
                        .dismiss_box_home_notice_of(project)
                        .map(|()| RemoteResult::Done)
                        .map_err(super::refusal::setup)
                })
                .await
            }
            RemoteRequest::ClearCacheLayer { project } => {
                self.with_settings(project, warden_protocol::Settings::default(), |engine, project| {
                    engine
                        .clear_cache_layer_of(project)
                        .map(|()| RemoteResult::Done)
                        .map_err(|e| super::refusal::failed(format!("Cannot clear the cache layer: {e}")))
                })
                .await
            }
            RemoteRequest::ProjectOffers { project, settings } => {
                self.with_settings(project, settings, super::resettle::offers).await
            }
            RemoteRequest::Conventions { project, settings } => {
                self.with_settings(project, settings, |engine, project| {
                    Ok(RemoteResult::Conventions(engine.conventions_in_use_of(Some(project))))
                })
                .await
            }
            RemoteRequest::OfferRead { project, settings, path } => {
                self.with_settings(project, settings, move |engine, project| {
                    engine.may_offer_read(project, &path).map(|()| RemoteResult::Done).map_err(|e| usage(&e))
                })
                .await
            }
            RemoteRequest::GitAsideRestore { project, from, aside } => {
                self.with_settings(project, warden_protocol::Settings::default(), move |engine, project| {
                    engine
                        .restore_git_aside(project, &from, &aside)
                        .map(|()| RemoteResult::Done)
                        .map_err(|e| usage(&e))
                })
                .await
            }
            _ => Err(usage("not a request about a project")),
        }
    }

    /// The user's Stop of the look the session's engine is taking at its project for checkpoints.
    fn stop_scan(&self) -> Result<RemoteResult, RemoteError> {
        let live = self.attached()?;
        let engine = live.held_engine()?;
        let project = super::real_path(live.project());
        match engine.stop_checkpoint_scan(Path::new(&project)) {
            true => Ok(RemoteResult::Done),
            false => Err(usage("no look at the project's files is running there")),
        }
    }

    /// `answer` of the link's session, while it is held.
    fn with_session(
        &self,
        answer: impl FnOnce(&crate::agent::Session) -> RemoteResult,
    ) -> Result<RemoteResult, RemoteError> {
        let session = self.attached()?.held_session()?;
        Ok(answer(&session))
    }

    fn approve(&self, approval: warden_protocol::ToolApproval) -> Result<RemoteResult, RemoteError> {
        let session = self.attached()?.held_session()?;
        let confirm_id = approval.confirm_id.clone();
        session
            .approve(approval)
            .map(|()| RemoteResult::Done)
            .map_err(|_| usage(&format!("no confirmation `{confirm_id}` is waiting")))
    }

    /// The session ends: its `SessionEnd` hooks run, then it is let go.
    async fn end(&self) -> Result<RemoteResult, RemoteError> {
        let taken = super::lock(&self.live).take();
        if let Some((conversation_id, live)) = taken {
            if let Some(session) = live.let_go() {
                session.end("exit").await;
            }
            self.hub.release(&conversation_id);
        }
        Ok(RemoteResult::Done)
    }

    /// "Compact now", answered when the summary is made; meanwhile the link reads on (a cancel
    /// stops it).
    fn compact(&self, id: u64) {
        match self.attached() {
            Ok(live) => {
                let out = self.out.clone();
                tokio::spawn(async move { respond(&out, id, super::history::compact(live).await) });
            }
            Err(error) => self.answer(id, Err(error)),
        }
    }

    async fn open(&self, open: RemoteOpen) -> Result<RemoteResult, RemoteError> {
        if self.live().is_some() {
            return Err(usage("a session is already open on this link"));
        }
        let RemoteOpen { settings, keys, mcp_secrets, mcp_sign_ins, session: wanted } = open;
        let spec = super::open::session_spec(&wanted).map_err(|e| usage(&e))?;
        let keys = keys.into_iter().map(|key| (key.name, key.value)).collect();
        let keys = match wanted.remote_env_keys {
            true => KeySource::RemoteEnvironment,
            false => KeySource::Sent(keys),
        };
        let settings = super::settings_at_real_path(settings, &wanted.project);
        let engine = Arc::new(Engine::remote(self.hub.home.clone(), settings, keys));
        // A window's session puts its servers' questions to the window; another has no one to
        // ask (its servers are not offered forms, as in a `warden exec` here).
        let asker = wanted.window.then(|| Arc::new(super::asks::LinkAsker::new(self.hub.asks.clone())));
        if let Some(asker) = &asker {
            engine.set_mcp_elicitor(asker.clone());
        }
        for secret in mcp_secrets {
            // Into the engine's memory store: this machine's keychain is not the user's.
            if let Err(error) = engine.keep_mcp_secret(&secret.name, &secret.value).await {
                tracing::warn!(%error, name = %secret.name, "an MCP secret sent could not be held");
            }
        }
        for sign_in in mcp_sign_ins {
            if let Err(error) = engine.keep_mcp_sign_in(&sign_in).await {
                tracing::warn!(%error, server = %sign_in.server, "an MCP sign-in sent could not be held");
            }
        }
        let resumed = match wanted.continue_last {
            true => Some(latest_in(&engine, &wanted.project)?),
            false => wanted.resume.then(|| wanted.conversation_id.clone()),
        };
        let started = match resumed {
            Some(id) => engine.resume(spec, &id).await,
            None => engine.start(spec).await,
        };
        let (session, events) = started.map_err(super::refusal::setup)?;
        let conversation_id = session.conversation_id().to_owned();
        let live = Live::start(wanted.project, (session, engine), events, self.id, self.out.clone());
        if let Some(asker) = asker {
            asker.bind(&live);
        }
        if !self.hub.hold(&conversation_id, live.clone()) {
            live.let_go();
            return Err(usage(&format!(
                "conversation {conversation_id} is open from another link: attach to it instead"
            )));
        }
        *super::lock(&self.live) = Some((conversation_id.clone(), live));
        Ok(RemoteResult::Opened { conversation_id })
    }

    fn attach(&self, conversation_id: &str, after_seq: u64) -> Result<RemoteResult, RemoteError> {
        if self.live().is_some() {
            return Err(usage("a session is already open on this link"));
        }
        let live = self.hub.held(conversation_id).ok_or_else(|| {
            usage(&format!(
                "this engine holds no session of conversation {conversation_id} (it ended, or the engine \
                 restarted): continue the saved conversation instead"
            ))
        })?;
        live.attach(self.id, self.out.clone(), after_seq).map_err(|AttachError::Lost { oldest_kept }| {
            usage(&format!(
                "the events after {after_seq} are no longer kept (the oldest is {oldest_kept}): \
                 continue the saved conversation instead"
            ))
        })?;
        *super::lock(&self.live) = Some((conversation_id.to_owned(), live));
        Ok(RemoteResult::Attached { conversation_id: conversation_id.to_owned() })
    }

    /// `answer` of an engine with the face's `settings` (its project choices, its global
    /// instructions) and no key, made for this answer alone, off the link's task; it is given the
    /// real path of `project`.
    async fn with_settings(
        &self,
        project: String,
        settings: warden_protocol::Settings,
        answer: impl FnOnce(&Engine, &Path) -> Result<RemoteResult, RemoteError> + Send + 'static,
    ) -> Result<RemoteResult, RemoteError> {
        let home = self.hub.home.clone();
        blocking(move || {
            // Settings and storage are kept by the project's real path: every answer is of it.
            let settings = super::settings_at_real_path(settings, &project);
            let real = super::real_path(&project);
            answer(&Engine::remote(home, settings, KeySource::Sent(Vec::new())), Path::new(&real))
        })
        .await
    }

    /// The MCP servers of the session's engine for `project`: those it runs, and those it starts
    /// here to say where they stand (in its box, with the secrets the session was sent).
    async fn mcp_status(&self, project: &str) -> Result<RemoteResult, RemoteError> {
        let engine = self.attached()?.held_engine()?;
        engine
            .mcp_statuses(Path::new(project), &std::collections::BTreeMap::new())
            .await
            .map(RemoteResult::McpServers)
            .map_err(|error| RemoteError { usage: error.is_usage(), message: error.to_string() })
    }

    /// The resource `uri` of the session's server `server`, read there.
    async fn read_resource(&self, server: &str, uri: &str) -> Result<RemoteResult, RemoteError> {
        let engine = self.attached()?.held_engine()?;
        match engine.mcp_read_resource(server, uri).await {
            Ok(text) => Ok(RemoteResult::Resource(text)),
            Err(error @ crate::engine::McpSetupError::Unknown(_)) => Err(usage(&error.to_string())),
            Err(error) => Err(super::refusal::failed(error)),
        }
    }

    /// The turn starts and runs on its own; its end is a numbered frame, so a link that attaches
    /// later still learns it.
    fn send(&self, send: warden_protocol::ChatSend) -> Result<RemoteResult, RemoteError> {
        let live = self.attached()?;
        let session = live.held_session()?;
        if !live.begin_turn() {
            return Err(usage("a turn is already running in this session"));
        }
        tokio::spawn(async move {
            let mode = SendMode { plan: send.plan, approved_plan: send.approved_plan };
            let end = match session.send_as(send.content, send.images, mode).await {
                Ok(end) => turn_end(end),
                Err(error) => {
                    tracing::warn!(%error, "the message could not be sent");
                    RemoteTurnEnd::Failed
                }
            };
            drop(session);
            if let Some(session) = live.end_turn(end) {
                session.end("link closed").await;
            }
        });
        Ok(RemoteResult::Done)
    }

    /// The link is gone. Its session goes on while a turn runs (a link may attach again);
    /// otherwise it ends here, and its engine and keys are dropped.
    async fn closed(&self) {
        let Some((conversation_id, live)) = self.live() else { return };
        live.detach(self.id);
        if live.is_running() {
            return;
        }
        if let Some(session) = live.let_go() {
            session.end("link closed").await;
        }
        self.hub.release(&conversation_id);
    }
}

/// The conversation last changed in `project`, for `--continue`.
fn latest_in(engine: &Engine, project: &str) -> Result<String, RemoteError> {
    match engine.latest_conversation(Some(Path::new(project))) {
        Ok(Some(id)) => Ok(id),
        Ok(None) => Err(usage(&format!(
            "--continue: no saved conversation in {project} there (start one without --continue)"
        ))),
        Err(error) => Err(failed(format!("--continue: {error}"))),
    }
}

async fn blocking(
    work: impl FnOnce() -> Result<RemoteResult, RemoteError> + Send + 'static,
) -> Result<RemoteResult, RemoteError> {
    tokio::task::spawn_blocking(work)
        .await
        .unwrap_or_else(|error| Err(failed(format!("the work failed: {error}"))))
}

fn turn_end(end: TurnEnd) -> RemoteTurnEnd {
    match end {
        TurnEnd::Completed => RemoteTurnEnd::Completed,
        TurnEnd::Cancelled => RemoteTurnEnd::Cancelled,
        TurnEnd::Failed => RemoteTurnEnd::Failed,
        TurnEnd::BudgetSpent => RemoteTurnEnd::BudgetSpent,
        TurnEnd::MaxTurns => RemoteTurnEnd::MaxTurns,
    }
}

//! What the window keeps between commands: the engine, the open conversations and who owns
//! each pending approval. Commands call the engine (`warden_core::engine::Engine`) directly; its
//! errors become [`CommandError`]s through `From` (see `error.rs`).

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use tokio::sync::Mutex;
use warden_protocol::{
    ChatCancel, ChatSend, KeyName, Message, Op, Remember, SessionGrant, Settings, ToolApproval,
};

use warden_core::agent::compaction::Compacted;
use warden_core::agent::Session;
use warden_core::engine::Engine;

use crate::bridge::{self, EventSink};
use crate::error::{CommandError, CommandErrorCode, CommandResult};

/// One running conversation, as the commands use it (a trait so routing can be tested alone).
pub trait SessionHandle: Send + Sync + 'static {
    /// Hand the session an op (a message's images are taken in first, off the async threads).
    fn submit(&self, op: Op) -> Pin<Box<dyn Future<Output = CommandResult<()>> + Send>>;
    fn history(&self) -> Vec<Message>;
    /// Whether a turn is running.
    fn is_busy(&self) -> bool;
    /// What "Allow for this session" remembered (a remote session's: asked there).
    fn grants(&self) -> Pin<Box<dyn Future<Output = CommandResult<Vec<SessionGrant>>> + Send>>;
    /// Forget one grant; false when there was none.
    fn revoke_grant(&self, grant: SessionGrant) -> Pin<Box<dyn Future<Output = CommandResult<bool>> + Send>>;
    /// The summary the model is sent instead of the older history, once compacted.
    fn compaction(&self) -> Option<Compacted>;
    /// "Compact now": summarize the older history between turns.
    fn compact_now(&self) -> Pin<Box<dyn Future<Output = CommandResult<()>> + Send>>;
    /// The project it works in.
    fn project_root(&self) -> std::path::PathBuf;
    /// Its background commands still running: handle and command line.
    fn background_commands(&self) -> Vec<(String, String)>;
    /// Stop its background commands.
    fn stop_background_commands(&self);
    /// Run its SessionEnd hooks (it is being dropped).
    fn end(&self, reason: &'static str) -> Pin<Box<dyn Future<Output = ()> + Send>>;
}

impl SessionHandle for Session {
    fn submit(&self, op: Op) -> Pin<Box<dyn Future<Output = CommandResult<()>> + Send>> {
        let session = self.clone();
        Box::pin(async move { Ok(Session::submit(&session, op).await?) })
    }

    fn end(&self, reason: &'static str) -> Pin<Box<dyn Future<Output = ()> + Send>> {
        let session = self.clone();
        Box::pin(async move { Session::end(&session, reason).await })
    }

    fn history(&self) -> Vec<Message> {
        Session::history(self)
    }

    fn is_busy(&self) -> bool {
        Session::is_busy(self)
    }

    fn grants(&self) -> Pin<Box<dyn Future<Output = CommandResult<Vec<SessionGrant>>> + Send>> {
        let grants = Session::grants(self);
        Box::pin(async move { Ok(grants) })
    }

    fn revoke_grant(&self, grant: SessionGrant) -> Pin<Box<dyn Future<Output = CommandResult<bool>> + Send>> {
        let revoked = Session::revoke_grant(self, &grant);
        Box::pin(async move { Ok(revoked) })
    }

    fn compaction(&self) -> Option<Compacted> {
        Session::compaction(self)
    }

    fn compact_now(&self) -> Pin<Box<dyn Future<Output = CommandResult<()>> + Send>> {
        let session = self.clone();
        Box::pin(async move { Ok(session.compact_now().await.map(|_| ())?) })
    }

    fn project_root(&self) -> std::path::PathBuf {
        Session::project_root(self)
    }

    fn background_commands(&self) -> Vec<(String, String)> {
        Session::background_commands(self)
    }

    fn stop_background_commands(&self) {
        Session::stop_background_commands(self);
    }
}

pub struct AppState {
    /// Shared so file work (the conversation list) can run off the async threads.
    pub engine: Arc<Engine>,
    sessions: Mutex<HashMap<String, Open>>,
    sink: Arc<dyn EventSink>,
    /// Bumped by every settings change; a session made under an older one is remade, with its
    /// history, before its next message, so trust level, scope and provider changes apply to
    /// conversations already open and not only to new ones.
    settings_version: AtomicU64,
    /// The forms MCP servers ask the user to fill in (shown by the window, answered by command).
    pub elicitor: Arc<crate::elicit::WindowElicitor>,
    /// What ssh asks while it connects to a remote project (shown by the window, answered by command).
    pub askpass: Arc<crate::askpass::WindowAskpass>,
}

/// Run a dropped session's SessionEnd hooks, without waiting for them.
fn end_session(open: Option<Open>, reason: &'static str) {
    if let Some(open) = open {
        let session = open.session;
        tokio::spawn(async move { session.end(reason).await });
    }
}

/// An open conversation and the settings version it was made under.
struct Open {
    session: Arc<dyn SessionHandle>,
    settings_version: u64,
    /// A remote project's session: it runs in the engine there, with the settings it was opened
    /// with, and is never remade here.
    remote: Option<Arc<crate::remote::RemoteHandle>>,
}

impl AppState {
    pub fn new(engine: Engine, sink: Arc<dyn EventSink>) -> Self {
        let elicitor = crate::elicit::shared();
        engine.set_mcp_elicitor(elicitor.clone());
        Self {
            engine: Arc::new(engine),
            sessions: Mutex::default(),
            sink,
            settings_version: AtomicU64::new(0),
            elicitor,
            askpass: Arc::default(),
        }
    }

    /// Open conversations are remade, with their history, before their next message.
    pub fn settings_changed(&self) {
        self.settings_version.fetch_add(1, Ordering::SeqCst);
    }

    /// Save the settings; open conversations take them up with their next message.
    pub fn save_settings(&self, settings: Settings) -> CommandResult<()> {
        // A server entry that could never start is refused with the reason, not saved to fail later.
        if let Some((_, error)) = warden_core::mcp::specs(&settings.mcp_servers).1.into_iter().next() {
            return Err(CommandError::new(CommandErrorCode::InvalidInput, error.to_string()));
        }
        // Merged over the window's copy: an answer Warden saved meanwhile is not dropped.
        self.engine.save_settings_from_window(settings)?;
        self.settings_changed();
        Ok(())
    }

    /// Store an API key; open conversations use it from their next message (a key fixed after a
    /// 401 fixes the conversation that failed, not only new ones).
    pub async fn set_key(&self, name: KeyName, value: &str) -> CommandResult<()> {
        self.engine.set_key(name, value).await?;
        self.settings_changed();
        Ok(())
    }

    /// Delete an API key; open conversations stop using it from their next message.
    pub async fn delete_key(&self, name: KeyName) -> CommandResult<()> {
        self.engine.delete_key(name).await?;
        self.settings_changed();
        Ok(())
    }

    /// The user accepts the settings file as it is; open conversations take it up with their next
    /// message.
    pub fn accept_settings_file(&self) -> CommandResult<()> {
        self.engine.accept_settings_file()?;
        self.settings_changed();
        Ok(())
    }

    /// Sends a user message, starting the conversation's session on its first message.
    #[cfg(test)]
    pub async fn send(&self, conversation_id: String, content: String) -> CommandResult<()> {
        self.send_as(ChatSend {
            conversation_id,
            content,
            images: Vec::new(),
            plan: false,
            approved_plan: Vec::new(),
        })
        .await
    }

    /// Sends a user message (with images, checked and scaled down by the engine; in plan mode, or
    /// with the plan the user approved), starting the conversation's session on its first message.
    pub async fn send_as(&self, send: ChatSend) -> CommandResult<()> {
        let ChatSend { conversation_id, content, images, plan, approved_plan } = send;
        if conversation_id.trim().is_empty() {
            return Err(CommandError::new(CommandErrorCode::InvalidInput, "A conversation id is required."));
        }
        if content.trim().is_empty() && images.is_empty() {
            return Err(CommandError::new(CommandErrorCode::InvalidInput, "The message is empty."));
        }
        self.resettle_remote(&conversation_id).await?;
        let session = self.session_or_start(&conversation_id).await?;
        session.submit(Op::Send(ChatSend { conversation_id, content, images, plan, approved_plan })).await
    }

    /// A remote session opened under older settings takes the current ones up there, between
    /// turns, as a conversation open here is remade with them before its next message.
    async fn resettle_remote(&self, conversation_id: &str) -> CommandResult<()> {
        let version = self.settings_version.load(Ordering::SeqCst);
        let stale = match self.sessions.lock().await.get(conversation_id) {
            Some(open) if open.settings_version != version && !open.session.is_busy() => open.remote.clone(),
            _ => None,
        };
        let Some(remote) = stale else { return Ok(()) };
        remote.resettle(&self.engine).await?;
        if let Some(open) = self.sessions.lock().await.get_mut(conversation_id) {
            open.settings_version = version;
        }
        Ok(())
    }

    /// Stops the running turn. Cancelling a conversation that never started is a no-op.
    pub async fn cancel(&self, conversation_id: String) -> CommandResult<()> {
        match self.session(&conversation_id).await {
            Some(session) => session.submit(Op::Cancel(ChatCancel { conversation_id })).await,
            None => Ok(()),
        }
    }

    /// Answers a `chat:tool-confirm`: the answer names the conversation that asked and the
    /// confirmation's own id, so it goes to that conversation's session and releases that question
    /// only (two conversations may both wait on a tool call their servers named `call_0`).
    pub async fn approve(
        &self,
        conversation_id: String,
        confirm_id: String,
        approved: bool,
        reason: Option<String>,
        remember: Option<Remember>,
        always: Option<warden_protocol::AlwaysRule>,
    ) -> CommandResult<()> {
        let Some(session) = self.session(&conversation_id).await else {
            return Err(CommandError::new(
                CommandErrorCode::UnknownTool,
                "This approval is no longer pending (its conversation is not open).",
            ));
        };
        session.submit(Op::Approve(ToolApproval { confirm_id, approved, reason, remember, always })).await
    }

    /// Let the project of a conversation have its commands read `path` (offered on one of its
    /// failed commands' blocks); its sessions take it up with their next message.
    pub async fn allow_read(&self, conversation_id: &str, path: &str) -> CommandResult<()> {
        if let Some(remote) = self.remote(Some(conversation_id)).await {
            // Checked there, against that box; kept here for that project.
            remote.allow_read(&self.engine, path).await?;
            self.settings_changed();
            return Ok(());
        }
        let Some(session) = self.session(conversation_id).await else {
            return Err(CommandError::new(
                CommandErrorCode::InvalidInput,
                "This conversation is not open: choose the path in Settings → Sandbox.",
            ));
        };
        let allowed = self.engine.allow_read(&session.project_root(), path);
        // Also when only kept for this run (a settings file Warden did not write).
        self.settings_changed();
        allowed.map_err(|why| CommandError::new(CommandErrorCode::InvalidInput, why))
    }

    /// Put back, in a conversation's project, what a sweep moved out of its git metadata.
    pub async fn restore_git_aside(
        &self,
        conversation_id: &str,
        from: &str,
        aside: &str,
    ) -> CommandResult<()> {
        if let Some(remote) = self.remote(Some(conversation_id)).await {
            return remote.restore_git_aside(from, aside).await;
        }
        let Some(session) = self.session(conversation_id).await else {
            return Err(CommandError::new(
                CommandErrorCode::InvalidInput,
                "This conversation is not open: open it to put the file back.",
            ));
        };
        self.engine
            .restore_git_aside(&session.project_root(), from, aside)
            .map_err(|why| CommandError::new(CommandErrorCode::InvalidInput, why))
    }

    /// What "Allow for this session" remembered in a conversation; none for one not open.
    pub async fn grants(&self, conversation_id: &str) -> CommandResult<Vec<SessionGrant>> {
        match self.session(conversation_id).await {
            Some(session) => session.grants().await,
            None => Ok(Vec::new()),
        }
    }

    /// Revoke one of a conversation's grants: the calls it covered ask again.
    pub async fn revoke_grant(&self, conversation_id: &str, grant: &SessionGrant) -> CommandResult<()> {
        let revoked = match self.session(conversation_id).await {
            Some(session) => session.revoke_grant(grant.clone()).await?,
            None => false,
        };
        if revoked {
            Ok(())
        } else {
            Err(CommandError::new(
                CommandErrorCode::InvalidInput,
                "This conversation has no such permission.",
            ))
        }
    }

    /// The conversation so far; empty for one that has not started. Refused
    /// (`CONVERSATION_UNREADABLE`) for a saved one that cannot be read whole.
    pub async fn history(&self, conversation_id: &str) -> CommandResult<Vec<Message>> {
        if let Some(remote) = self.remote(Some(conversation_id)).await {
            // A remote project's session saves there: read there.
            return remote.saved_history().await;
        }
        let history = match self.session(conversation_id).await {
            Some(session) => session.history(),
            // Not opened in this run: what was saved before the app last closed.
            None => {
                let engine = self.engine.clone();
                let id = conversation_id.to_owned();
                crate::commands::off_thread(move || engine.saved_conversation(&id)).await??.history
            }
        };
        // Results saved before they kept their report say what their calls changed, as new ones do.
        let engine = self.engine.clone();
        let id = conversation_id.to_owned();
        crate::commands::off_thread(move || Ok(engine.with_call_changes(&id, history))).await?
    }

    /// When each saved message was written and by which model, in the order of `history`; a
    /// remote project's, read there.
    pub async fn stamps(&self, conversation_id: &str) -> CommandResult<Vec<warden_protocol::MessageStamp>> {
        if let Some(remote) = self.remote(Some(conversation_id)).await {
            return remote.saved_stamps().await;
        }
        let engine = self.engine.clone();
        let id = conversation_id.to_owned();
        crate::commands::off_thread(move || engine.stored_stamps(&id)).await
    }

    /// What can be read of a saved conversation that cannot be read whole; a remote project's,
    /// read there.
    pub async fn read_only_history(
        &self,
        conversation_id: &str,
    ) -> CommandResult<warden_protocol::ReadOnlyHistory> {
        if let Some(remote) = self.remote(Some(conversation_id)).await {
            return remote.read_only().await;
        }
        let engine = self.engine.clone();
        let id = conversation_id.to_owned();
        crate::commands::off_thread(move || Ok(engine.read_only_history(&id)?)).await?
    }

    /// Deletes a saved conversation (it can be restored for a minute) and forgets its session.
    /// Refused while it is answering.
    pub async fn delete_conversation(&self, conversation_id: &str) -> CommandResult<()> {
        // Held across the delete so a send cannot start the session again meanwhile.
        let mut sessions = self.sessions.lock().await;
        if sessions.get(conversation_id).is_some_and(|open| open.session.is_busy()) {
            return Err(CommandError::new(
                CommandErrorCode::InvalidInput,
                "This conversation is still answering: stop it before deleting it.",
            ));
        }
        self.engine.delete_conversation(conversation_id)?;
        end_session(sessions.remove(conversation_id), "delete");
        Ok(())
    }

    /// Names a saved conversation; an empty title names it after its first message again. A remote
    /// project's is named there, where it is saved, and remembered so here for the list.
    pub async fn rename(&self, conversation_id: String, title: String) -> CommandResult<()> {
        let Some(remote) = self.remote(Some(&conversation_id)).await else {
            let engine = self.engine.clone();
            return Ok(crate::commands::off_thread(move || {
                engine.rename_conversation(&conversation_id, &title)
            })
            .await??);
        };
        remote.rename(conversation_id.clone(), title.clone()).await?;
        warden_core::remote::known::retitle(self.engine.home(), &conversation_id, &title)
            .map_err(|e| CommandError::internal(format!("The new title is not remembered here: {e}")))
    }

    /// Drops the `n`-th message the user wrote and everything after it (files are not touched),
    /// and forgets the open session so the next message continues from the saved, shorter
    /// conversation. Refused while it is answering. Returns the dropped message's text.
    pub async fn rewind(&self, conversation_id: &str, n: usize) -> CommandResult<String> {
        let mut sessions = self.sessions.lock().await;
        if sessions.get(conversation_id).is_some_and(|open| open.session.is_busy()) {
            return Err(CommandError::new(
                CommandErrorCode::InvalidInput,
                "This conversation is still answering: stop it before rewinding it.",
            ));
        }
        if let Some(remote) = sessions.get(conversation_id).and_then(|open| open.remote.clone()) {
            // Done there, where it is saved; its session goes on there from what is left.
            drop(sessions);
            return remote.rewind(n).await;
        }
        let text = self.engine.rewind_conversation(conversation_id, n)?;
        end_session(sessions.remove(conversation_id), "rewind");
        Ok(text)
    }

    /// "Compact now": the conversation's older part is summarized in what the model is sent
    /// (`chat:compacted` says so). Refused while it is answering.
    pub async fn compact(&self, conversation_id: &str) -> CommandResult<()> {
        let session = self.session_or_start(conversation_id).await?;
        session.compact_now().await
    }

    /// Whether the store holds more of the conversation than the `held` messages the open
    /// session has: something else wrote to it since.
    fn saved_elsewhere(&self, conversation_id: &str, held: usize) -> bool {
        self.engine
            .conversation_summary(conversation_id)
            .is_ok_and(|saved| usize::try_from(saved.message_count).unwrap_or(usize::MAX) > held)
    }

    /// The open conversations working in `project`, by id.
    pub(crate) async fn sessions_in(
        &self,
        project: &std::path::Path,
    ) -> Vec<(String, Arc<dyn SessionHandle>)> {
        let sessions = self.sessions.lock().await;
        sessions
            .iter()
            .filter(|(_, open)| open.session.project_root() == project)
            .map(|(id, open)| (id.clone(), open.session.clone()))
            .collect()
    }

    /// The session of `conversation_id` when it is a remote project's (its checkpoints are there).
    pub async fn remote(&self, conversation_id: Option<&str>) -> Option<Arc<crate::remote::RemoteHandle>> {
        let sessions = self.sessions.lock().await;
        sessions.get(conversation_id?).and_then(|open| open.remote.clone())
    }

    /// The remote projects' sessions held in this window, by conversation id.
    pub async fn remotes(&self) -> Vec<(String, Arc<crate::remote::RemoteHandle>)> {
        let sessions = self.sessions.lock().await;
        sessions.iter().filter_map(|(id, open)| Some((id.clone(), open.remote.clone()?))).collect()
    }

    async fn session(&self, conversation_id: &str) -> Option<Arc<dyn SessionHandle>> {
        self.sessions.lock().await.get(conversation_id).map(|open| open.session.clone())
    }

    async fn session_or_start(&self, conversation_id: &str) -> CommandResult<Arc<dyn SessionHandle>> {
        // Held across the start so two quick sends cannot start two sessions.
        let mut sessions = self.sessions.lock().await;
        let version = self.settings_version.load(Ordering::SeqCst);
        let history = match sessions.get(conversation_id) {
            // A running turn finishes under the settings it started with; the send is refused
            // as busy by the session itself. A remote session lives where it runs.
            Some(open) if open.remote.is_some() || open.session.is_busy() => return Ok(open.session.clone()),
            // Another face (`warden exec --resume`) went on with it: start again from the store.
            Some(open) if self.saved_elsewhere(conversation_id, open.session.history().len()) => None,
            Some(open) if open.settings_version == version => return Ok(open.session.clone()),
            Some(stale) => Some((stale.session.history(), stale.session.compaction())),
            None => None,
        };
        let (session, events) = self.engine.start_session(conversation_id.to_owned()).await?;
        // A session remade after a settings change goes on from the history it had.
        let session: Arc<dyn SessionHandle> = match history {
            Some((history, compacted)) => Arc::new(session.with_history(history).with_compaction(compacted)),
            None => Arc::new(session),
        };
        tauri::async_runtime::spawn(bridge::forward(events, self.sink.clone()));
        sessions.insert(
            conversation_id.to_owned(),
            Open { session: session.clone(), settings_version: version, remote: None },
        );
        Ok(session)
    }

    /// Open a project on another machine (`host:/path`, through `transport` or ssh): its session
    /// is held as the others are, its events go to the window through the same bridge.
    pub async fn open_remote(
        &self,
        asked: crate::remote::OpenAsked<'_>,
    ) -> CommandResult<(
        crate::remote::RemoteOpened,
        tokio::sync::watch::Receiver<warden_core::remote::LinkStatus>,
    )> {
        let (handle, events, status, opened) =
            crate::remote::open(&self.engine, asked, &self.askpass, &self.elicitor).await?;
        // Listed again after a restart (what the window shows of it: no key, no message).
        let known = warden_protocol::KnownRemote {
            conversation_id: opened.conversation_id.clone(),
            target: opened.target.clone(),
            transport: asked.transport().map(str::to_owned),
            remote_env_keys: asked.remote_env_keys,
            title: None,
            host: opened.host.clone(),
            user: opened.user.clone(),
            containment: opened.containment.clone(),
            opened_at_ms: crate::remote::now_ms(),
        };
        if let Err(error) = warden_core::remote::known::remember(self.engine.home(), known) {
            tracing::warn!(%error, "the remote project is not remembered for the next start");
        }
        tauri::async_runtime::spawn(bridge::forward(events, self.sink.clone()));
        let session: Arc<dyn SessionHandle> = handle.clone();
        let version = self.settings_version.load(Ordering::SeqCst);
        self.sessions.lock().await.insert(
            opened.conversation_id.clone(),
            Open { session, settings_version: version, remote: Some(handle) },
        );
        Ok((opened, status))
    }
}

//! A session is one conversation: its history, its remembered approvals, and at most one turn
//! running at a time. Faces drive it with [`Session::submit`] and read its events from the
//! receiver returned by [`Session::new`].

use std::sync::{Arc, Mutex};

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use warden_protocol::{ContentBlock, Event, Message, Op, Role, ToolApproval, ToolDefinition, ToolImage};

use super::compaction::{Compacted, CompactionError, CompactionReport};
use super::events::EventEmitter;
use super::saving::Saver;
use super::session_core::{lock, SessionConfig, SessionCore};
use super::tool_env::ToolEnvironment;
use super::tool_runner::{CallPolicy, ToolRunner};
use super::tool_source::ToolSource;
use super::turn::{run_turn, TurnEnd};
use super::turn_plan::{self, TurnPlan};
use crate::provider::Provider;
use crate::tool::ToolRegistry;

/// The most images one message may carry.
pub const MAX_IMAGES: usize = 20;

/// Why "Compact now" did nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CompactNowError {
    #[error("a message is being answered in this conversation; compact it once the answer is done")]
    Busy,
    #[error(transparent)]
    Compaction(#[from] CompactionError),
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    #[error("a message is already being answered in this conversation; wait for it or stop it first")]
    Busy,
    #[error("this op is for conversation {got}, not {expected}")]
    WrongConversation { expected: String, got: String },
    #[error("the message is empty")]
    EmptyMessage,
    #[error("the attached {0}")]
    BadImage(String),
    #[error("no confirmation {0} is waiting for an answer")]
    NoSuchApproval(String),
}

/// A handle on one conversation. Cheap to clone.
#[derive(Clone)]
pub struct Session {
    core: Arc<SessionCore>,
}

impl Session {
    /// A new conversation and the receiver of its events.
    pub fn new(
        config: SessionConfig,
        provider: Arc<dyn Provider>,
        tools: Arc<ToolRegistry>,
        tool_env: ToolEnvironment,
    ) -> (Self, mpsc::UnboundedReceiver<Event>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let events = EventEmitter::new(config.conversation_id.clone(), tx);
        let policy = CallPolicy {
            trust: config.trust,
            scope: config.scope.clone(),
            approval_timeout: config.approval_timeout,
        };
        if let Some(reason) = &config.not_saved {
            events.saving(false, Some(reason.clone()));
        }
        let saver = config.store.clone().map(|store| {
            let root = config.project_root.clone();
            Saver::new(store, config.conversation_id.clone(), root, config.model.clone())
        });
        let core = SessionCore {
            runner: ToolRunner::new(tools, tool_env, policy, events.clone()),
            saver,
            tool_source: std::sync::OnceLock::new(),
            events,
            config,
            provider,
            history: Mutex::new(Vec::new()),
            compacted: Mutex::new(None),
            learned_window: Mutex::new(None),
            running: Mutex::new(None),
            finishing: tokio::sync::Mutex::new(()),
        };
        (Self { core: Arc::new(core) }, rx)
    }

    /// Tools that can change while the session runs (its MCP servers'): asked before each request
    /// to the model.
    pub fn with_tool_source(self, source: Arc<dyn ToolSource>) -> Self {
        let _ = self.core.tool_source.set(source);
        self
    }

    /// Continue an earlier conversation: `history` is what the store holds of it (the session
    /// saves its next message after it).
    pub fn with_history(self, history: Vec<Message>) -> Self {
        if let Some(saver) = &self.core.saver {
            saver.saved_up_to(history.len());
        }
        *lock(&self.core.history) = history;
        self
    }

    /// Continue an earlier conversation that was compacted: the model is sent `compacted` in place
    /// of the history's older part. Ignored when it does not fit the history.
    pub fn with_compaction(self, compacted: Option<Compacted>) -> Self {
        let fits = compacted.as_ref().is_none_or(|c| c.upto <= lock(&self.core.history).len());
        if fits {
            *lock(&self.core.compacted) = compacted;
        }
        self
    }

    /// The summary the model is sent instead of the history's older part, if compacted.
    pub fn compaction(&self) -> Option<Compacted> {
        self.core.compacted()
    }

    /// "Compact now": summarizes the older part of the conversation between turns. Refused while a
    /// turn runs.
    pub async fn compact_now(&self) -> Result<CompactionReport, CompactNowError> {
        let (cancel, _running) = {
            let mut running = lock(&self.core.running);
            if running.is_some() {
                return Err(CompactNowError::Busy);
            }
            let token = CancellationToken::new();
            *running = Some(token.clone());
            (token, RunningGuard(&self.core))
        };
        let _finishing = self.core.finishing.lock().await;
        Ok(self.core.compact(None, true, &cancel).await?)
    }

    /// The tools the model is offered (those in scope, MCP tools included).
    pub fn tool_definitions(&self) -> Vec<ToolDefinition> {
        self.core.tool_definitions()
    }

    /// The sender of this conversation's events (for what the engine reports beside a turn).
    pub(crate) fn events(&self) -> super::events::EventEmitter {
        self.core.events.clone()
    }

    pub fn conversation_id(&self) -> &str {
        &self.core.config.conversation_id
    }

    pub fn config(&self) -> &SessionConfig {
        &self.core.config
    }

    /// The full history, including tool calls, results and thinking blocks.
    pub fn history(&self) -> Vec<Message> {
        self.core.history()
    }

    pub fn is_busy(&self) -> bool {
        lock(&self.core.running).is_some()
    }

    /// Hand the session an op. `Send` takes its images in (bounded: see [`crate::images`]),
    /// starts a turn on the current tokio runtime and returns; use [`Session::send`] to wait for
    /// the turn's end.
    pub async fn submit(&self, op: Op) -> Result<(), SessionError> {
        match op {
            Op::Send(send) => {
                self.check_conversation(&send.conversation_id)?;
                let images = prepare_images(send.images).await?;
                let mode = SendMode { plan: send.plan, approved_plan: send.approved_plan };
                let (cancel, user, plan) = self.begin(send.content, images, mode)?;
                let session = self.clone();
                tokio::spawn(async move { session.drive(user, cancel, plan).await });
                Ok(())
            }
            Op::Cancel(cancel) => {
                self.check_conversation(&cancel.conversation_id)?;
                self.cancel();
                Ok(())
            }
            Op::Approve(approval) => self.approve(approval),
        }
    }

    /// Send a user message and wait until its turn ends.
    pub async fn send(&self, content: impl Into<String>) -> Result<TurnEnd, SessionError> {
        self.send_with_images(content, Vec::new()).await
    }

    /// Send a user message with images (base64 PNG, JPEG, GIF or WebP; checked and scaled down
    /// here) and wait until its turn ends.
    pub async fn send_with_images(
        &self,
        content: impl Into<String>,
        images: Vec<ToolImage>,
    ) -> Result<TurnEnd, SessionError> {
        self.send_as(content, images, SendMode::default()).await
    }

    /// [`Session::send_with_images`] in plan mode, or with the plan the user approved.
    pub async fn send_as(
        &self,
        content: impl Into<String>,
        images: Vec<ToolImage>,
        mode: SendMode,
    ) -> Result<TurnEnd, SessionError> {
        let images = prepare_images(images).await?;
        let (cancel, user, plan) = self.begin(content.into(), images, mode)?;
        Ok(self.drive(user, cancel, plan).await)
    }

    /// Run the session's SessionEnd hooks (the face calls it when it is done with the session).
    pub async fn end(&self, reason: &str) {
        if let Some(hooks) = self.core.runner.hooks() {
            hooks.end(&self.core.events, reason).await;
        }
    }

    /// Stop the running turn, if any: the provider stream is dropped and tool processes killed.
    pub fn cancel(&self) {
        if let Some(token) = lock(&self.core.running).as_ref() {
            token.cancel();
        }
    }

    /// Answer a pending approval. An unknown or already-decided id releases nothing.
    pub fn approve(&self, approval: ToolApproval) -> Result<(), SessionError> {
        let id = approval.confirm_id.clone();
        if self.core.runner.approve(approval) {
            Ok(())
        } else {
            Err(SessionError::NoSuchApproval(id))
        }
    }

    /// What "Allow for this session" remembered in this conversation.
    pub fn grants(&self) -> Vec<warden_protocol::SessionGrant> {
        self.core.runner.grants()
    }

    /// Forget one grant: the calls it covered ask again. False when there was no such grant.
    pub fn revoke_grant(&self, grant: &warden_protocol::SessionGrant) -> bool {
        self.core.runner.revoke(grant)
    }

    /// The project this conversation works in.
    pub fn project_root(&self) -> std::path::PathBuf {
        self.core.runner.project_root()
    }

    /// The background commands still running in this conversation: handle and command line.
    pub fn background_commands(&self) -> Vec<(String, String)> {
        self.core.runner.background().running()
    }

    /// Stop every background command of this conversation (a restore is about to put files back
    /// under them); how many were running.
    pub fn stop_background_commands(&self) -> usize {
        let background = self.core.runner.background();
        let running = background.running();
        for (handle, _) in &running {
            let _ = background.cancel(handle);
        }
        running.len()
    }

    fn check_conversation(&self, got: &str) -> Result<(), SessionError> {
        if got == self.conversation_id() {
            Ok(())
        } else {
            Err(SessionError::WrongConversation {
                expected: self.conversation_id().to_owned(),
                got: got.to_owned(),
            })
        }
    }

    /// `images` are already taken in ([`prepare_images`]). A message typed as `/name args` that
    /// names a custom command or a skill is sent as it says ([`turn_plan::prepare`]).
    fn begin(
        &self,
        content: String,
        images: Vec<ToolImage>,
        mode: SendMode,
    ) -> Result<(CancellationToken, Message, TurnPlan), SessionError> {
        if content.trim().is_empty() && images.is_empty() {
            return Err(SessionError::EmptyMessage);
        }
        let (content, mut plan) = if mode.approved_plan.is_empty() {
            turn_plan::prepare(&self.core.config.conventions, content, self.core.provider.name())
        } else {
            (content, TurnPlan::approved(&mode.approved_plan))
        };
        plan.planning = mode.plan;
        let mut blocks = Vec::with_capacity(images.len() + 1);
        if !content.trim().is_empty() {
            blocks.push(ContentBlock::Text { text: content });
        }
        blocks.extend(images.into_iter().map(ContentBlock::Image));
        let mut running = lock(&self.core.running);
        if running.is_some() {
            return Err(SessionError::Busy);
        }
        let token = CancellationToken::new();
        *running = Some(token.clone());
        Ok((token, Message { role: Role::User, content: blocks }, plan))
    }

    async fn drive(&self, user: Message, cancel: CancellationToken, plan: TurnPlan) -> TurnEnd {
        // Cleared on drop, so a turn that panics or is dropped never leaves the session busy.
        let running = RunningGuard(&self.core);
        // The turn before this one has recorded its end.
        let _finishing = self.core.finishing.lock().await;
        let store = self.core.runner.checkpoints().cloned();
        let end = {
            // Held for the whole turn: a restore in this project waits until it ends.
            let _turn = match &store {
                Some(store) => {
                    let store = store.clone();
                    tokio::task::spawn_blocking(move || store.turn_guard()).await.ok().and_then(Result::ok)
                }
                None => None,
            };
            run_turn(self.core.clone(), user, cancel, plan).await
        };
        // The turn's last event is out: the next message may be sent now (it waits for the rest).
        drop(running);
        if let Some(store) = store {
            let origin = crate::checkpoint::Origin {
                conversation_id: Some(self.core.config.conversation_id.clone()),
                ..Default::default()
            };
            let taken = tokio::task::spawn_blocking(move || store.turn_end(&origin)).await;
            if let Ok(Err(error)) = taken {
                tracing::warn!(%error, "no checkpoint at the end of the turn");
            }
        }
        end
    }
}

/// How a message is sent besides its text: in plan mode, or with the plan the user approved.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SendMode {
    /// The model may only read, and ends by proposing a plan.
    pub plan: bool,
    /// The steps of the approved plan: they become the task list first.
    pub approved_plan: Vec<String>,
}

struct RunningGuard<'a>(&'a SessionCore);

impl Drop for RunningGuard<'_> {
    fn drop(&mut self) {
        if let Some(token) = lock(&self.0.running).take() {
            // Whatever still runs for this turn (tool processes) stops with it.
            token.cancel();
        }
    }
}

/// A message's images, checked and scaled down before anything else (one at a time, bounded: see
/// [`crate::images::prepare`]): a bad image refuses the message whole.
async fn prepare_images(images: Vec<ToolImage>) -> Result<Vec<ToolImage>, SessionError> {
    if images.len() > MAX_IMAGES {
        return Err(SessionError::BadImage(format!("at most {MAX_IMAGES} images go with one message")));
    }
    let mut prepared = Vec::with_capacity(images.len());
    for (n, image) in images.iter().enumerate() {
        let image = crate::images::prepare_base64(&image.data)
            .await
            .map_err(|error| SessionError::BadImage(format!("image {}: {error}", n + 1)))?;
        prepared.push(image.image);
    }
    Ok(prepared)
}

//! The engine's side of the link (`warden serve --stdio`): the handshake, then requests answered
//! one by one while the open session's events flow beside them, numbered. One link, one session.
//!
//! When the link closes (the face quit, the connection dropped), the turn in flight is cancelled:
//! a confirmation still waiting is answered "no", so nothing runs that nobody approved, and every
//! process the session started is stopped.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;
use warden_protocol::{
    ClientFrame, Event, RemoteError, RemoteOpen, RemoteOutcome, RemoteRequest, RemoteResult, RemoteTurnEnd,
    ServerFrame, Settings,
};

use crate::agent::{SendMode, Session, TurnEnd};
use crate::config::WardenHome;
use crate::engine::Engine;

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

/// Serve one link: `input` carries the face's frames, `output` gets the engine's. Returns when
/// `input` ends (or the handshake fails), after the session is wound down.
pub async fn serve<R, W>(mut input: R, output: W, home: WardenHome) -> Result<(), ServeError>
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
        Some(Err(error)) => return Err(ServeError::BadHello(error)),
    };
    if let Some(reason) = super::mismatch(&ours, &hello, "window or command on the other side") {
        let _ = out.send(ServerFrame::Refused { engine: ours, reason: reason.clone() });
        drop(out);
        let _ = writer.await;
        return Err(ServeError::Refused(reason));
    }
    let _ = out.send(ServerFrame::Welcome { engine: ours, machine: super::this_machine() });
    let served = Served::new(home, out);
    let ended = loop {
        match read_frame(&mut input).await {
            Ok(None) => break Ok(()),
            Err(error) => break Err(ServeError::Read(error)),
            Ok(Some(Ok(ClientFrame::Request { id, request }))) => served.handle(id, request).await,
            Ok(Some(Ok(ClientFrame::Hello(_)))) => served.answer(0, Err(usage("a second hello"))),
            Ok(Some(Err(error))) => served.answer(0, Err(usage(&format!("not a request: {error}")))),
        }
    };
    served.wind_down().await;
    drop(served);
    let _ = writer.await;
    ended
}

/// The next line as a frame (`Err`: why it is not one), or `None` at the end of the input.
async fn read_frame<R: AsyncBufRead + Unpin>(
    input: &mut R,
) -> std::io::Result<Option<Result<ClientFrame, String>>> {
    let mut line = Vec::new();
    let read = (&mut *input).take(MAX_LINE as u64 + 1).read_until(b'\n', &mut line).await?;
    if read == 0 {
        return Ok(None);
    }
    if line.len() > MAX_LINE {
        return Err(std::io::Error::other(format!("a line longer than {MAX_LINE} bytes")));
    }
    Ok(Some(serde_json::from_slice(&line).map_err(|error| error.to_string())))
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

fn usage(message: &str) -> RemoteError {
    RemoteError { message: message.to_owned(), usage: true }
}

fn failed(message: impl std::fmt::Display) -> RemoteError {
    RemoteError { message: message.to_string(), usage: false }
}

/// The link's engine and session.
struct Served {
    home: WardenHome,
    out: mpsc::UnboundedSender<ServerFrame>,
    engine: tokio::sync::Mutex<Option<Arc<Engine>>>,
    session: std::sync::Mutex<Option<Session>>,
    seq: Arc<AtomicU64>,
}

impl Served {
    fn new(home: WardenHome, out: mpsc::UnboundedSender<ServerFrame>) -> Self {
        Self {
            home,
            out,
            engine: tokio::sync::Mutex::default(),
            session: std::sync::Mutex::default(),
            seq: Arc::new(AtomicU64::new(0)),
        }
    }

    fn answer(&self, id: u64, result: Result<RemoteResult, RemoteError>) {
        let outcome = match result {
            Ok(result) => RemoteOutcome::Ok(result),
            Err(error) => RemoteOutcome::Error(error),
        };
        let _ = self.out.send(ServerFrame::Response { id, outcome });
    }

    fn session(&self) -> Option<Session> {
        self.session.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }

    /// The engine of the open session, or one with default settings for what needs none
    /// (listing checkpoints and conversations).
    async fn engine(&self) -> Arc<Engine> {
        let mut engine = self.engine.lock().await;
        engine
            .get_or_insert_with(|| {
                Arc::new(Engine::remote(self.home.clone(), Settings::default(), Vec::new()))
            })
            .clone()
    }

    async fn handle(&self, id: u64, request: RemoteRequest) {
        let result = match request {
            RemoteRequest::Open(open) => self.open(open).await,
            RemoteRequest::Send(send) => return self.send(id, send),
            RemoteRequest::Approve(approval) => match self.session() {
                Some(session) => {
                    let confirm_id = approval.confirm_id.clone();
                    session
                        .approve(approval)
                        .map(|()| RemoteResult::Done)
                        .map_err(|_| usage(&format!("no confirmation `{confirm_id}` is waiting")))
                }
                None => Err(usage("no session is open on this link")),
            },
            RemoteRequest::Cancel(_) => {
                if let Some(session) = self.session() {
                    session.cancel();
                }
                Ok(RemoteResult::Done)
            }
            RemoteRequest::End => {
                let session = self.session.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
                if let Some(session) = session {
                    session.end("exit").await;
                }
                Ok(RemoteResult::Done)
            }
            RemoteRequest::Machine => Ok(RemoteResult::Machine(super::this_machine())),
            RemoteRequest::CheckpointList { project, conversation } => {
                let engine = self.engine().await;
                blocking(move || {
                    let store =
                        engine.project_checkpoints(Path::new(&project)).map_err(|e| usage(&e.to_string()))?;
                    store.list(conversation.as_deref()).map(RemoteResult::Checkpoints).map_err(failed)
                })
                .await
            }
            RemoteRequest::CheckpointRestore { project, id: checkpoint, paths, force } => {
                let engine = self.engine().await;
                blocking(move || {
                    let store =
                        engine.project_checkpoints(Path::new(&project)).map_err(|e| usage(&e.to_string()))?;
                    store.restore(&checkpoint, &paths, force).map(RemoteResult::Restored).map_err(|error| {
                        let usage = matches!(
                            error,
                            crate::checkpoint::CheckpointError::UnknownCheckpoint(_)
                                | crate::checkpoint::CheckpointError::AmbiguousCheckpoint(_)
                        );
                        RemoteError { message: format!("not restored: {error}"), usage }
                    })
                })
                .await
            }
            RemoteRequest::ConversationList { offset, limit } => {
                let engine = self.engine().await;
                engine.list_conversations(offset, limit).map(RemoteResult::Conversations).map_err(failed)
            }
        };
        self.answer(id, result);
    }

    async fn open(&self, open: RemoteOpen) -> Result<RemoteResult, RemoteError> {
        if self.session().is_some() {
            return Err(usage("a session is already open on this link"));
        }
        let RemoteOpen { settings, keys, session: wanted } = open;
        let spec = super::open::session_spec(&wanted).map_err(|e| usage(&e))?;
        let keys = keys.into_iter().map(|key| (key.name, key.value)).collect();
        let engine = Arc::new(Engine::remote(self.home.clone(), settings, keys));
        *self.engine.lock().await = Some(engine.clone());
        let started = match wanted.resume {
            true => engine.resume(spec, &wanted.conversation_id).await,
            false => engine.start(spec).await,
        };
        let (session, events) =
            started.map_err(|error| RemoteError { usage: error.is_usage(), message: error.to_string() })?;
        let conversation_id = session.conversation_id().to_owned();
        *self.session.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(session);
        tokio::spawn(forward(events, self.out.clone(), self.seq.clone()));
        Ok(RemoteResult::Opened { conversation_id })
    }

    /// The turn runs on; its answer comes when it ends, while other requests (approvals) are read.
    fn send(&self, id: u64, send: warden_protocol::ChatSend) {
        let Some(session) = self.session() else {
            return self.answer(id, Err(usage("no session is open on this link")));
        };
        let out = self.out.clone();
        tokio::spawn(async move {
            let mode = SendMode { plan: send.plan, approved_plan: send.approved_plan };
            let outcome = match session.send_as(send.content, send.images, mode).await {
                Ok(end) => RemoteOutcome::Ok(RemoteResult::Turn(turn_end(end))),
                Err(error) => RemoteOutcome::Error(failed(error)),
            };
            let _ = out.send(ServerFrame::Response { id, outcome });
        });
    }

    /// The link is gone: the turn in flight stops (a waiting confirmation is refused with it),
    /// the session's end hooks run, and what it started is stopped.
    async fn wind_down(&self) {
        let session = self.session.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
        if let Some(session) = session {
            session.cancel();
            session.end("link closed").await;
        }
        let _ = tokio::task::spawn_blocking(crate::process_guard::kill_all_descendants).await;
    }
}

async fn forward(
    mut events: mpsc::UnboundedReceiver<Event>,
    out: mpsc::UnboundedSender<ServerFrame>,
    seq: Arc<AtomicU64>,
) {
    while let Some(event) = events.recv().await {
        let seq = seq.fetch_add(1, Ordering::SeqCst) + 1;
        if out.send(ServerFrame::Event { seq, event }).is_err() {
            return;
        }
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

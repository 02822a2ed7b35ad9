//! The face's side of the link: the transport started, the handshake, requests matched with their
//! answers, and the session's events handed on in order.

use std::collections::{HashMap, VecDeque};
use std::process::{ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::{mpsc, oneshot};
use warden_protocol::{
    ClientFrame, Event, Hello, RemoteMachine, RemoteOutcome, RemoteRequest, RemoteResult, RemoteTurnEnd,
    ServerFrame,
};

use super::lock;
use super::serve::MAX_LINE;
use super::Transport;

/// How long the transport may take to connect and the engine to answer the hello (a password
/// typed at a prompt counts).
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(120);

/// The last lines the transport wrote on stderr, kept for saying why it failed.
const STDERR_LINES: usize = 20;

#[derive(Debug, Clone, thiserror::Error)]
pub enum LinkError {
    #[error("could not start `{command}`: {error}")]
    Start { command: String, error: String },
    #[error("{0}")]
    Refused(String),
    #[error("the link to the remote engine ({command}) closed {when}{}", said(.status, .stderr))]
    Closed { command: String, when: &'static str, status: Option<String>, stderr: String },
    #[error("no answer from `{0}` within {secs} s", secs = HANDSHAKE_TIMEOUT.as_secs())]
    Timeout(String),
    #[error("the remote engine sent something that is not a frame of the link: {0}")]
    Protocol(String),
    #[error("{message}")]
    Remote { message: String, usage: bool },
    /// This side could not get ready (its settings, its keychain).
    #[error("{0}")]
    Local(String),
}

impl LinkError {
    /// The other side has no Warden where the link looks (the remote shell's "not found"), or one
    /// of another version: copying this one there (`install`) would let the link be made.
    pub fn wants_this_engine_there(&self) -> bool {
        match self {
            Self::Closed { status, .. } => status.as_deref() == Some("exit status 127"),
            Self::Refused(_) => true,
            _ => false,
        }
    }
}

fn said(status: &Option<String>, stderr: &str) -> String {
    let mut text = String::new();
    if let Some(status) = status {
        text.push_str(&format!(" ({status})"));
    }
    let stderr = stderr.trim();
    if !stderr.is_empty() {
        text.push_str(&format!(": it said: {stderr}"));
    }
    if status.as_deref() == Some("exit status 127") {
        text.push_str(&format!(
            ". Is Warden installed there? Install Warden {} on the remote machine, or copy this one to ~/{}",
            env!("CARGO_PKG_VERSION"),
            super::transport::REMOTE_BIN
        ));
    }
    text
}

/// The requests waiting for their answers; `None` once the link's output has ended (a request
/// made after that fails at once instead of waiting for an answer that cannot come).
/// A numbered frame of the attached session.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)] // An event is the common frame; boxing it buys nothing.
pub enum Numbered {
    Event(Event),
    TurnEnded(RemoteTurnEnd),
    Ask(warden_protocol::McpElicit),
}

/// The attached session's frames, with their numbers.
pub type Frames = mpsc::UnboundedReceiver<(u64, Numbered)>;

type Pending = Arc<Mutex<Option<HashMap<u64, oneshot::Sender<RemoteOutcome>>>>>;

/// A live link to a remote engine.
pub struct Link {
    out: mpsc::UnboundedSender<ClientFrame>,
    pending: Pending,
    next_id: AtomicU64,
    child: tokio::sync::Mutex<Child>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    shown: String,
    /// The remote engine's side of the handshake, and its machine.
    pub engine: Hello,
    pub machine: RemoteMachine,
}

impl Link {
    /// Start `transport`, shake hands, and hand back the link and the session's events (with
    /// their sequence numbers).
    pub async fn connect(transport: &Transport) -> Result<(Self, Frames), LinkError> {
        let mut command = Command::new(&transport.program);
        // Warden's own variables describe this side (its home, its box): a transport that keeps
        // the environment (`runuser`, `sudo -E`) must not hand them to the engine over there.
        for (name, _) in std::env::vars_os() {
            if name.to_string_lossy().starts_with("WARDEN_") {
                command.env_remove(name);
            }
        }
        command.envs(transport.env().iter().map(|(name, value)| (name, value)));
        let mut child = command
            .args(&transport.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|error| LinkError::Start {
                command: transport.shown.clone(),
                error: error.to_string(),
            })?;
        transport.started(child.id());
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(LinkError::Start { command: transport.shown.clone(), error: "no pipes".into() });
        };
        let kept = Arc::new(Mutex::new(VecDeque::new()));
        tokio::spawn(keep_stderr(stderr, kept.clone()));
        let (out, frames) = mpsc::unbounded_channel();
        tokio::spawn(write_frames(frames, stdin));
        let _ = out.send(ClientFrame::Hello(super::hello()));
        let mut lines = BufReader::new(stdout);
        let shown = transport.shown.clone();
        let first = tokio::time::timeout(HANDSHAKE_TIMEOUT, read_server_frame(&mut lines)).await;
        let welcome = match first {
            Err(_) => return Err(LinkError::Timeout(shown)),
            Ok(Ok(Some(frame))) => frame,
            Ok(Ok(None)) | Ok(Err(_)) => {
                return Err(closed(&mut child, &kept, &shown, "before the handshake").await);
            }
        };
        let (engine, machine) = match welcome {
            ServerFrame::Welcome { engine, machine } => (engine, machine),
            ServerFrame::Refused { reason, .. } => return Err(LinkError::Refused(reason)),
            other => return Err(LinkError::Protocol(format!("{other:?} before the welcome"))),
        };
        if let Some(reason) = super::mismatch(&super::hello(), &engine, "remote engine") {
            return Err(LinkError::Refused(reason));
        }
        let pending: Pending = Arc::new(Mutex::new(Some(HashMap::new())));
        let (events_tx, events) = mpsc::unbounded_channel();
        tokio::spawn(read_frames(lines, pending.clone(), events_tx));
        let link = Self {
            out,
            pending,
            next_id: AtomicU64::new(1),
            child: tokio::sync::Mutex::new(child),
            stderr: kept,
            shown,
            engine,
            machine,
        };
        Ok((link, events))
    }

    /// Send `request` and wait for its answer (or for the link to close).
    pub async fn request(&self, request: RemoteRequest) -> Result<RemoteResult, LinkError> {
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        let (tx, rx) = oneshot::channel();
        let waiting = lock(&self.pending).as_mut().map(|pending| pending.insert(id, tx)).is_some();
        if !waiting {
            return Err(self.why_closed("before the request").await);
        }
        if self.out.send(ClientFrame::Request { id, request }).is_err() {
            if let Some(pending) = lock(&self.pending).as_mut() {
                pending.remove(&id);
            }
        }
        match rx.await {
            Ok(RemoteOutcome::Ok(result)) => Ok(result),
            Ok(RemoteOutcome::Error(error)) => {
                Err(LinkError::Remote { message: error.message, usage: error.usage })
            }
            Err(_) => Err(self.why_closed("while a request waited").await),
        }
    }

    /// Why the link is gone: the transport's exit status and the end of what it said.
    pub async fn why_closed(&self, when: &'static str) -> LinkError {
        let mut child = self.child.lock().await;
        closed(&mut child, &self.stderr, &self.shown, when).await
    }

    /// Close the link (the remote engine winds its session down) and wait for the transport.
    pub async fn close(self) {
        let Self { out, mut child, .. } = self;
        drop(out);
        let child = child.get_mut();
        if tokio::time::timeout(Duration::from_secs(10), child.wait()).await.is_err() {
            let _ = child.kill().await;
        }
    }
}

/// The link closed: wait briefly for the transport's status and say what it said.
async fn closed(
    child: &mut Child,
    stderr: &Mutex<VecDeque<String>>,
    shown: &str,
    when: &'static str,
) -> LinkError {
    let status = tokio::time::timeout(Duration::from_secs(5), child.wait()).await;
    let status = match status {
        Ok(Ok(status)) => Some(describe(status)),
        _ => None,
    };
    // What stderr still had in flight.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let stderr = lock(stderr).iter().cloned().collect::<Vec<_>>().join("\n");
    LinkError::Closed { command: shown.to_owned(), when, status, stderr }
}

fn describe(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit status {code}"),
        (None, Some(signal)) => format!("killed by signal {signal}"),
        _ => status.to_string(),
    }
}

async fn keep_stderr(stderr: impl AsyncRead + Unpin, kept: Arc<Mutex<VecDeque<String>>>) {
    let mut lines = BufReader::new(stderr).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        tracing::debug!(target: "warden::remote", "{line}");
        let mut kept = lock(&kept);
        if kept.len() == STDERR_LINES {
            kept.pop_front();
        }
        kept.push_back(crate::visible::shown(&line).into_owned());
    }
}

async fn write_frames(mut frames: mpsc::UnboundedReceiver<ClientFrame>, mut stdin: ChildStdin) {
    while let Some(frame) = frames.recv().await {
        let Ok(mut line) = serde_json::to_vec(&frame) else { continue };
        line.push(b'\n');
        if stdin.write_all(&line).await.is_err() || stdin.flush().await.is_err() {
            return;
        }
    }
}

async fn read_server_frame<R: tokio::io::AsyncBufRead + Unpin>(
    lines: &mut R,
) -> Result<Option<ServerFrame>, LinkError> {
    let line =
        super::read_line(lines, MAX_LINE).await.map_err(|error| LinkError::Protocol(error.to_string()))?;
    line.map(|line| serde_json::from_slice(&line).map_err(|error| LinkError::Protocol(error.to_string())))
        .transpose()
}

/// Answers go to whoever waits for them; events go on, in order. At the end (or on a line that is
/// not a frame) every waiting request is released.
async fn read_frames<R: tokio::io::AsyncBufRead + Unpin>(
    mut lines: R,
    pending: Pending,
    events: mpsc::UnboundedSender<(u64, Numbered)>,
) {
    loop {
        match read_server_frame(&mut lines).await {
            Ok(Some(ServerFrame::Response { id, outcome })) => {
                let waiting = lock(&pending).as_mut().and_then(|pending| pending.remove(&id));
                if let Some(waiting) = waiting {
                    let _ = waiting.send(outcome);
                } else {
                    tracing::warn!(id, ?outcome, "an answer to no request");
                }
            }
            Ok(Some(ServerFrame::Event { seq, event })) => {
                let _ = events.send((seq, Numbered::Event(event)));
            }
            Ok(Some(ServerFrame::TurnEnded { seq, end })) => {
                let _ = events.send((seq, Numbered::TurnEnded(end)));
            }
            Ok(Some(ServerFrame::Ask { seq, ask })) => {
                let _ = events.send((seq, Numbered::Ask(ask)));
            }
            Ok(Some(other)) => tracing::warn!(?other, "an unexpected frame"),
            Ok(None) => break,
            Err(error) => {
                tracing::error!(%error, "the remote engine's output cannot be read");
                break;
            }
        }
    }
    lock(&pending).take();
}

//! A remote session as a face holds it: events and turn ends handed on once and in order, across
//! links. When the link drops, a new one is made through the same transport (with backoff) and
//! attached to the session, which the engine kept; what was missed comes again, and numbers
//! already seen are skipped. An answer given while the link is down is sent on the next one.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, watch};
use warden_protocol::{Event, RemoteRequest, RemoteResult, RemoteTurnEnd};

use super::link::{Frames, Link, LinkError, Numbered};
use super::Transport;

/// The waits between attempts to link again; then the session is given up.
const BACKOFF: [Duration; 8] = [
    Duration::from_millis(250),
    Duration::from_millis(500),
    Duration::from_secs(1),
    Duration::from_secs(2),
    Duration::from_secs(4),
    Duration::from_secs(8),
    Duration::from_secs(15),
    Duration::from_secs(30),
];

/// How the link stands, for the face to show (a banner, a line on stderr).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkStatus {
    Up,
    /// Down, and being made again (the attempt's number).
    Reconnecting {
        attempt: usize,
        why: String,
    },
    /// Given up: the session cannot be reached again.
    Lost(String),
}

/// What the face reads: the session's events, and the end of each turn.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)] // An event is the common frame; boxing it buys nothing.
pub enum SessionFrame {
    Event(Event),
    TurnEnded(RemoteTurnEnd),
    /// A question of one of the session's MCP servers, for the window; answered with
    /// `RemoteRequest::AskAnswer`.
    Ask(warden_protocol::McpElicit),
}

pub struct Attached {
    transport: Transport,
    conversation_id: String,
    link: watch::Sender<Arc<Link>>,
    last_seq: Arc<AtomicU64>,
    status: watch::Sender<LinkStatus>,
}

impl Attached {
    /// Hold the session `conversation_id` that `link` opened; its frames come on the receiver.
    pub fn hold(
        transport: Transport,
        conversation_id: String,
        link: Link,
        frames: Frames,
    ) -> (Arc<Self>, mpsc::UnboundedReceiver<SessionFrame>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let attached = Arc::new(Self {
            transport,
            conversation_id,
            link: watch::channel(Arc::new(link)).0,
            last_seq: Arc::new(AtomicU64::new(0)),
            status: watch::channel(LinkStatus::Up).0,
        });
        tokio::spawn(attached.clone().pump(frames, tx));
        (attached, rx)
    }

    /// Start `transport`, open the session `open` describes there, and hold it: the session, its
    /// frames, and the machine it runs on.
    pub async fn open(
        transport: Transport,
        open: warden_protocol::RemoteOpen,
    ) -> Result<(Arc<Self>, mpsc::UnboundedReceiver<SessionFrame>, warden_protocol::RemoteMachine), LinkError>
    {
        let (link, frames) = Link::connect(&transport).await?;
        let machine = link.machine.clone();
        tracing::info!(host = %machine.host, user = %machine.user, containment = %machine.containment, "linked");
        let conversation_id = match link.request(RemoteRequest::Open(open)).await? {
            RemoteResult::Opened { conversation_id } => conversation_id,
            other => return Err(LinkError::Protocol(format!("the open was answered with {other:?}"))),
        };
        let (attached, frames) = Self::hold(transport, conversation_id, link, frames);
        Ok((attached, frames, machine))
    }

    pub fn status(&self) -> watch::Receiver<LinkStatus> {
        self.status.subscribe()
    }

    pub fn conversation_id(&self) -> &str {
        &self.conversation_id
    }

    /// The current link.
    pub fn link(&self) -> Arc<Link> {
        self.link.borrow().clone()
    }

    /// Send `request` on the current link; when the link is down, on the next one (an answer to
    /// a confirmation must not be lost with a link). Fails when the engine refuses it or the
    /// session is lost.
    pub async fn request(&self, request: RemoteRequest) -> Result<RemoteResult, LinkError> {
        let mut links = self.link.subscribe();
        loop {
            let link = links.borrow_and_update().clone();
            match link.request(request.clone()).await {
                Err(LinkError::Closed { .. } | LinkError::Protocol(_)) => {
                    if let LinkStatus::Lost(why) = &*self.status.borrow() {
                        return Err(LinkError::Local(why.clone()));
                    }
                    // Wait for the next link (or for the session to be given up).
                    let mut status = self.status.subscribe();
                    tokio::select! {
                        changed = links.changed() => if changed.is_err() { return Err(LinkError::Local("the session is closed".into())) },
                        _ = status.wait_for(|s| matches!(s, LinkStatus::Lost(_))) => {}
                    }
                }
                other => return other,
            }
        }
    }

    /// Hands on each numbered frame once; when the link's frames end, links again and goes on.
    async fn pump(self: Arc<Self>, mut frames: Frames, out: mpsc::UnboundedSender<SessionFrame>) {
        loop {
            while let Some((seq, frame)) = frames.recv().await {
                if seq <= self.last_seq.load(Ordering::SeqCst) {
                    continue;
                }
                self.last_seq.store(seq, Ordering::SeqCst);
                let frame = match frame {
                    Numbered::Event(event) => SessionFrame::Event(event),
                    Numbered::TurnEnded(end) => SessionFrame::TurnEnded(end),
                    Numbered::Ask(ask) => SessionFrame::Ask(ask),
                };
                if out.send(frame).is_err() {
                    return;
                }
            }
            if out.is_closed() {
                return;
            }
            match self.relink().await {
                Ok(next) => frames = next,
                Err(why) => {
                    self.status.send_replace(LinkStatus::Lost(why));
                    return;
                }
            }
        }
    }

    /// A new link, attached to the session after the last frame seen.
    async fn relink(&self) -> Result<Frames, String> {
        let why = self.link().why_closed("mid-session").await.to_string();
        let mut last_error = why.clone();
        for (attempt, wait) in BACKOFF.iter().enumerate() {
            self.status.send_replace(LinkStatus::Reconnecting { attempt: attempt + 1, why: why.clone() });
            tokio::time::sleep(*wait).await;
            let (link, frames) = match Link::connect(&self.transport).await {
                Ok(connected) => connected,
                // Another version there now: no point in trying again.
                Err(error @ LinkError::Refused(_)) => return Err(error.to_string()),
                Err(error) => {
                    last_error = error.to_string();
                    continue;
                }
            };
            let after_seq = self.last_seq.load(Ordering::SeqCst);
            let attach = RemoteRequest::Attach { conversation_id: self.conversation_id.clone(), after_seq };
            match link.request(attach).await {
                Ok(_) => {
                    self.link.send_replace(Arc::new(link));
                    self.status.send_replace(LinkStatus::Up);
                    return Ok(frames);
                }
                // The engine no longer holds the session: trying again will not bring it back.
                Err(error @ LinkError::Remote { .. }) => return Err(error.to_string()),
                Err(error) => last_error = error.to_string(),
            }
        }
        Err(format!("the link could not be made again: {last_error}"))
    }
}

/// A session's frames as faces read them: its events, the ends of its turns, and its servers'
/// questions.
pub fn split_frames(mut frames: mpsc::UnboundedReceiver<SessionFrame>) -> SplitFrames {
    let (events_tx, events) = mpsc::unbounded_channel();
    let (ends_tx, ends) = mpsc::unbounded_channel();
    let (asks_tx, asks) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Some(frame) = frames.recv().await {
            let sent = match frame {
                SessionFrame::Event(event) => events_tx.send(event).is_ok(),
                SessionFrame::TurnEnded(end) => ends_tx.send(end).is_ok(),
                // Only a window's session asks; a face that reads no questions goes on regardless.
                SessionFrame::Ask(ask) => {
                    let _ = asks_tx.send(ask);
                    true
                }
            };
            if !sent {
                return;
            }
        }
    });
    SplitFrames { events, ends, asks }
}

/// A session's frames, each kind to its own reader.
pub struct SplitFrames {
    pub events: mpsc::UnboundedReceiver<Event>,
    pub ends: mpsc::UnboundedReceiver<RemoteTurnEnd>,
    pub asks: mpsc::UnboundedReceiver<warden_protocol::McpElicit>,
}

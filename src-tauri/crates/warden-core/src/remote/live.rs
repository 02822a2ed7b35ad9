//! A session the engine holds for faces elsewhere: the session itself while it may still run, and
//! its numbered frames (events, its servers' questions and turn ends), kept so that a link that
//! dropped can attach again and get what it missed, once and in order.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::mpsc;
use warden_protocol::{Event, KeptRule, RemoteError, RemoteTurnEnd, ServerFrame};

use super::lock;
use super::refusal::usage;
use crate::agent::Session;
use crate::engine::Engine;

/// The most numbered frames kept for a link to catch up with (a long stream of deltas while the
/// link was down); a link that missed more is told so and reopens the saved conversation.
pub const KEPT_FRAMES: usize = 200_000;

/// Where a link's frames go.
pub type Out = mpsc::UnboundedSender<ServerFrame>;

pub struct Live {
    /// `None` once the session is over for good: its turn ended while no link was attached, so
    /// its engine (and the keys it held) is gone; its frames stay for a link to collect.
    session: Mutex<Option<(Session, Arc<Engine>)>>,
    log: Mutex<Log>,
    running: AtomicBool,
    /// What "always" kept in the session's settings (the face keeps them in its own).
    kept_rules: Arc<Mutex<Vec<KeptRule>>>,
    /// The project folder the session was opened for, as the face named it.
    project: String,
}

struct Log {
    /// The number of the last frame made.
    last: u64,
    kept: VecDeque<ServerFrame>,
    /// The link the frames go to as they are made, when one is attached.
    attached: Option<(u64, Out)>,
}

/// Why a link could not attach.
#[derive(Debug, PartialEq, Eq)]
pub enum AttachError {
    /// Frames after the one the link saw are no longer kept.
    Lost { oldest_kept: u64 },
}

fn seq_of(frame: &ServerFrame) -> u64 {
    match frame {
        ServerFrame::Event { seq, .. }
        | ServerFrame::TurnEnded { seq, .. }
        | ServerFrame::Ask { seq, .. } => *seq,
        _ => 0,
    }
}

impl Live {
    /// Holds `session` and its engine, numbering what `events` brings, sent to link `link` (whose frames go to
    /// `out`) while it stays attached.
    pub fn start(
        project: String,
        (session, engine): (Session, Arc<Engine>),
        events: mpsc::UnboundedReceiver<Event>,
        link: u64,
        out: Out,
    ) -> Arc<Self> {
        let kept_rules = engine.kept_rules();
        let live = Arc::new(Self {
            session: Mutex::new(Some((session, engine))),
            log: Mutex::new(Log { last: 0, kept: VecDeque::new(), attached: Some((link, out)) }),
            running: AtomicBool::new(false),
            kept_rules,
            project,
        });
        live.number(events);
        live
    }

    /// The events `events` brings, numbered after those before.
    fn number(self: &Arc<Self>, mut events: mpsc::UnboundedReceiver<Event>) {
        let numbering = self.clone();
        tokio::spawn(async move {
            while let Some(event) = events.recv().await {
                numbering.push(|seq| ServerFrame::Event { seq, event });
            }
        });
    }

    /// The session goes on as `session` (made again with other settings): its events are
    /// numbered after the last one's. `false` when the session is over.
    pub fn replace(self: &Arc<Self>, session: Session, events: mpsc::UnboundedReceiver<Event>) -> bool {
        match lock(&self.session).as_mut() {
            Some((held, _)) => *held = session,
            None => return false,
        }
        self.number(events);
        true
    }

    /// The project folder the session was opened for, as the face named it.
    pub fn project(&self) -> &str {
        &self.project
    }

    fn push(&self, frame: impl FnOnce(u64) -> ServerFrame) {
        let mut log = lock(&self.log);
        log.last += 1;
        let frame = frame(log.last);
        if let Some((_, out)) = &log.attached {
            if out.send(frame.clone()).is_err() {
                log.attached = None;
            }
        }
        log.kept.push_back(frame);
        if log.kept.len() > KEPT_FRAMES {
            log.kept.pop_front();
        }
    }

    /// A question of one of the session's MCP servers, numbered with its events.
    pub(super) fn push_ask(&self, ask: warden_protocol::McpElicit) {
        self.push(|seq| ServerFrame::Ask { seq, ask });
    }

    /// The session while it is held; the caller's mistake once it is over.
    pub(super) fn held_session(&self) -> Result<Session, RemoteError> {
        self.session().ok_or_else(|| usage("the session is over"))
    }

    /// The session's engine while it is held; the caller's mistake once it is over.
    pub(super) fn held_engine(&self) -> Result<Arc<Engine>, RemoteError> {
        self.engine().ok_or_else(|| usage("the session is over"))
    }

    pub fn session(&self) -> Option<Session> {
        lock(&self.session).as_ref().map(|(session, _)| session.clone())
    }

    /// The session's engine (its MCP servers), while the session is held.
    pub fn engine(&self) -> Option<Arc<Engine>> {
        lock(&self.session).as_ref().map(|(_, engine)| engine.clone())
    }

    /// The rules "always" kept in the session so far.
    pub fn kept_rules(&self) -> Vec<KeptRule> {
        lock(&self.kept_rules).clone()
    }

    pub fn is_running(&self) -> bool {
        self.running.load(Ordering::SeqCst)
    }

    /// Marks a turn as started; `false` when one already runs.
    pub fn begin_turn(&self) -> bool {
        !self.running.swap(true, Ordering::SeqCst)
    }

    /// The turn is over: numbered with the events. When no link is attached, the session is let
    /// go and returned (for its end hooks; its engine and keys go with it). The flag is cleared
    /// with the frame, before the link is looked at, and a closing link detaches before it looks
    /// at the flag, so one of the two always lets the session go.
    pub fn end_turn(&self, end: RemoteTurnEnd) -> Option<Session> {
        // Cleared as the frame is made, under the log's lock: a face that saw the turn end may
        // send the next message at once, and finds the session free.
        self.push(|seq| {
            self.running.store(false, Ordering::SeqCst);
            ServerFrame::TurnEnded { seq, end }
        });
        if self.is_attached() {
            return None;
        }
        self.let_go()
    }

    pub fn is_attached(&self) -> bool {
        lock(&self.log).attached.is_some()
    }

    /// Link `link` takes the session, after every frame numbered past `after_seq` is sent to it
    /// again (under the log's lock: no frame is sent twice or skipped in between).
    pub fn attach(&self, link: u64, out: Out, after_seq: u64) -> Result<(), AttachError> {
        let mut log = lock(&self.log);
        let oldest_kept = log.kept.front().map_or(log.last + 1, seq_of);
        if after_seq + 1 < oldest_kept {
            return Err(AttachError::Lost { oldest_kept });
        }
        for frame in log.kept.iter().filter(|frame| seq_of(frame) > after_seq) {
            let _ = out.send(frame.clone());
        }
        log.attached = Some((link, out));
        Ok(())
    }

    /// Link `link` is gone; the session stays (it may be attached again).
    pub fn detach(&self, link: u64) {
        let mut log = lock(&self.log);
        if log.attached.as_ref().is_some_and(|(id, _)| *id == link) {
            log.attached = None;
        }
    }

    /// The session ends for good (its hooks run elsewhere; here it is dropped with its engine).
    pub fn let_go(&self) -> Option<Session> {
        lock(&self.session).take().map(|(session, _)| session)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbered(rx: &mut mpsc::UnboundedReceiver<ServerFrame>) -> Vec<u64> {
        let mut seen = Vec::new();
        while let Ok(frame) = rx.try_recv() {
            seen.push(seq_of(&frame));
        }
        seen
    }

    fn log_only() -> Live {
        Live {
            session: Mutex::new(None),
            log: Mutex::new(Log { last: 0, kept: VecDeque::new(), attached: None }),
            running: AtomicBool::new(false),
            kept_rules: Arc::default(),
            project: String::new(),
        }
    }

    #[test]
    fn a_link_attaching_again_gets_what_it_missed_once_and_in_order() {
        let live = log_only();
        let (first, mut first_rx) = mpsc::unbounded_channel();
        live.attach(1, first, 0).unwrap();
        for _ in 0..3 {
            live.push(|seq| ServerFrame::TurnEnded { seq, end: RemoteTurnEnd::Completed });
        }
        assert_eq!(numbered(&mut first_rx), [1, 2, 3]);
        live.detach(1);
        live.push(|seq| ServerFrame::TurnEnded { seq, end: RemoteTurnEnd::Completed });
        assert!(numbered(&mut first_rx).is_empty(), "nothing goes to a detached link");
        // The new link saw up to 2 (3 was in flight when the link dropped).
        let (second, mut second_rx) = mpsc::unbounded_channel();
        live.attach(2, second, 2).unwrap();
        live.push(|seq| ServerFrame::TurnEnded { seq, end: RemoteTurnEnd::Completed });
        assert_eq!(numbered(&mut second_rx), [3, 4, 5]);
        // A stale link's detach does not take the session from the new one.
        live.detach(1);
        assert!(live.is_attached());
    }

    #[test]
    fn frames_no_longer_kept_are_said_to_be_lost() {
        let live = log_only();
        for _ in 0..KEPT_FRAMES + 2 {
            live.push(|seq| ServerFrame::TurnEnded { seq, end: RemoteTurnEnd::Completed });
        }
        let (out, _rx) = mpsc::unbounded_channel();
        assert_eq!(live.attach(1, out.clone(), 0), Err(AttachError::Lost { oldest_kept: 3 }));
        assert_eq!(live.attach(1, out, 2), Ok(()));
    }
}

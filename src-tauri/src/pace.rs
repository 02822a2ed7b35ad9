//! At most a frame's worth of events per frame to the window.
//!
//! Every Tauri event is one script evaluation in the web process (~0.2 ms each, measured with
//! `bench/app/run.sh` and `BENCH_PROBE=1`). A tool burst — 200 calls are 400 events at once — was
//! 200 evaluations between two frames: one frame of 60–85 ms. Spread out, at most
//! [`EVENTS_PER_FRAME`] per frame, it costs a few milliseconds a frame; the window folds no more
//! than about that many per frame anyway, so nothing shows later. A quiet stream (a few events
//! per frame) goes out at once, as before. Order is kept.

use std::collections::VecDeque;
use std::time::Instant;

use warden_protocol::Event;

use crate::coalesce::FRAME;

/// Events sent to the window within one frame, at most.
pub const EVENTS_PER_FRAME: usize = 32;

#[derive(Debug)]
pub struct Pacer {
    queue: VecDeque<Event>,
    /// When the current frame began, and how many events went out in it.
    frame_start: Option<Instant>,
    sent: usize,
    per_frame: usize,
}

impl Default for Pacer {
    fn default() -> Self {
        Self::new(EVENTS_PER_FRAME)
    }
}

impl Pacer {
    pub fn new(per_frame: usize) -> Self {
        Self { queue: VecDeque::new(), frame_start: None, sent: 0, per_frame: per_frame.max(1) }
    }

    /// Queues events behind those already waiting.
    pub fn push(&mut self, events: Vec<Event>) {
        self.queue.extend(events);
    }

    /// What may be sent at `now`, in order.
    pub fn take(&mut self, now: Instant) -> Vec<Event> {
        if self.frame_start.is_none_or(|start| now >= start + FRAME) {
            self.frame_start = Some(now);
            self.sent = 0;
        }
        let n = self.queue.len().min(self.per_frame - self.sent);
        self.sent += n;
        self.queue.drain(..n).collect()
    }

    /// When more can be sent, if events are waiting.
    pub fn deadline(&self) -> Option<Instant> {
        if self.queue.is_empty() {
            return None;
        }
        self.frame_start.map(|start| start + FRAME)
    }

    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }
}

#[cfg(test)]
#[path = "pace_tests.rs"]
mod tests;

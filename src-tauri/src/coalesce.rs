//! Per-frame coalescing of streamed deltas, so a fast stream never floods the webview.
//!
//! Text, thinking and tool-output deltas that arrive within one frame are merged when they belong
//! to the same message (and tool, and output stream). Any other event first flushes what is
//! pending, so the UI sees exactly the order the engine produced — only fewer, larger deltas.

use std::time::{Duration, Instant};

use warden_protocol::Event;

/// One display frame at 60 Hz.
pub const FRAME: Duration = Duration::from_millis(16);

/// Above this many pending bytes the deltas go out at once rather than waiting for the frame.
const MAX_PENDING_BYTES: usize = 256 * 1024;

#[derive(Debug, Default)]
pub struct Coalescer {
    pending: Vec<Event>,
    pending_bytes: usize,
    /// When the oldest pending delta must be sent.
    deadline: Option<Instant>,
}

impl Coalescer {
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes the next engine event; returns what must be emitted now, in order.
    pub fn push(&mut self, event: Event, now: Instant) -> Vec<Event> {
        let Some(len) = delta_len(&event) else {
            let mut out = self.flush();
            out.push(event);
            return out;
        };
        if !self.merge_into_last(&event) {
            self.pending.push(event);
        }
        self.pending_bytes += len;
        self.deadline.get_or_insert(now + FRAME);
        if self.pending_bytes >= MAX_PENDING_BYTES {
            return self.flush();
        }
        Vec::new()
    }

    /// When [`Coalescer::flush`] should be called if nothing else arrives.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Everything pending, in order.
    pub fn flush(&mut self) -> Vec<Event> {
        self.deadline = None;
        self.pending_bytes = 0;
        std::mem::take(&mut self.pending)
    }

    fn merge_into_last(&mut self, event: &Event) -> bool {
        match (self.pending.last_mut(), event) {
            (Some(Event::TextDelta(last)), Event::TextDelta(new))
                if last.conversation_id == new.conversation_id && last.message_id == new.message_id =>
            {
                last.delta.push_str(&new.delta);
                true
            }
            (Some(Event::ThinkingDelta(last)), Event::ThinkingDelta(new))
                if last.conversation_id == new.conversation_id && last.message_id == new.message_id =>
            {
                last.delta.push_str(&new.delta);
                true
            }
            (Some(Event::ToolDelta(last)), Event::ToolDelta(new))
                if last.conversation_id == new.conversation_id
                    && last.message_id == new.message_id
                    && last.tool_id == new.tool_id
                    && last.stream == new.stream =>
            {
                last.chunk.push_str(&new.chunk);
                true
            }
            _ => false,
        }
    }
}

/// The byte length of a delta event's text; `None` for events that are not deltas.
fn delta_len(event: &Event) -> Option<usize> {
    match event {
        Event::TextDelta(e) => Some(e.delta.len()),
        Event::ThinkingDelta(e) => Some(e.delta.len()),
        Event::ToolDelta(e) => Some(e.chunk.len()),
        _ => None,
    }
}

#[cfg(test)]
#[path = "coalesce_tests.rs"]
mod tests;

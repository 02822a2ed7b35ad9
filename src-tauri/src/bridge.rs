//! Engine events → the window. One forwarding task per conversation reads the session's event
//! channel, coalesces deltas per frame, paces bursts to a frame's worth per frame (pace.rs) and
//! hands each event to a sink (the Tauri app in the product, a recorder in tests). It only
//! forwards: an answer to a `chat:tool-confirm` names its conversation itself, so nothing here
//! needs to remember who asked.

use std::sync::Arc;

use tokio::sync::mpsc::UnboundedReceiver;
use tokio::time::Instant;
use warden_protocol::Event;

use crate::coalesce::Coalescer;
use crate::pace::Pacer;

/// Where forwarded events go.
pub trait EventSink: Send + Sync + 'static {
    fn emit(&self, event: Event);

    /// Events ready together (a frame's worth), in order: handed over at once where the sink can.
    fn emit_all(&self, events: Vec<Event>) {
        for event in events {
            self.emit(event);
        }
    }
}

impl<R: tauri::Runtime> EventSink for tauri::AppHandle<R> {
    fn emit(&self, event: Event) {
        self.emit_all(vec![event]);
    }

    /// One Tauri event for the whole batch (`chat:events`): see [`crate::events::ChatEvents`].
    fn emit_all(&self, events: Vec<Event>) {
        for event in &events {
            match event {
                Event::ToolConfirm(confirm) => crate::attention::approval_waiting(self, confirm),
                Event::ToolResult(result) => {
                    crate::attention::call_settled(self, &result.conversation_id, &result.tool_id);
                }
                _ => {}
            }
        }
        let count = events.len();
        if let Err(err) = tauri_specta::Event::emit(&crate::events::ChatEvents(events), self) {
            tracing::warn!(count, %err, "could not emit events to the window");
        }
    }
}

/// Forwards every event of one session until its channel closes (then sends what is left).
pub async fn forward(mut rx: UnboundedReceiver<Event>, sink: Arc<dyn EventSink>) {
    let mut coalescer = Coalescer::new();
    let mut pacer = Pacer::default();
    let mut open = true;
    while open || !pacer.is_empty() {
        let wake =
            [coalescer.deadline(), pacer.deadline()].into_iter().flatten().min().map(Instant::from_std);
        let next = match (open, wake) {
            (true, Some(at)) => tokio::select! {
                biased;
                ev = rx.recv() => Some(ev),
                () = tokio::time::sleep_until(at) => None,
            },
            (true, None) => Some(rx.recv().await),
            (false, Some(at)) => {
                tokio::time::sleep_until(at).await;
                None
            }
            (false, None) => None,
        };
        let now = std::time::Instant::now();
        match next {
            Some(Some(event)) => pacer.push(coalescer.push(event, now)),
            Some(None) => {
                open = false;
                pacer.push(coalescer.flush());
            }
            None => {
                if coalescer.deadline().is_some_and(|at| at <= now) {
                    pacer.push(coalescer.flush());
                }
            }
        }
        deliver(sink.as_ref(), pacer.take(now));
    }
}

fn deliver(sink: &dyn EventSink, events: Vec<Event>) {
    if !events.is_empty() {
        sink.emit_all(events);
    }
}

#[cfg(test)]
#[path = "bridge_tests.rs"]
mod tests;

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
}

impl<R: tauri::Runtime> EventSink for tauri::AppHandle<R> {
    fn emit(&self, event: Event) {
        match &event {
            Event::ToolConfirm(confirm) => crate::attention::approval_waiting(self, confirm),
            Event::ToolResult(result) => {
                crate::attention::call_settled(self, &result.conversation_id, &result.tool_id);
            }
            _ => {}
        }
        let name = event.name();
        if let Err(err) = crate::events::emit(self, event) {
            tracing::warn!(event = name, %err, "could not emit event to the window");
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
    for event in events {
        sink.emit(event);
    }
}

#[cfg(test)]
#[path = "bridge_tests.rs"]
mod tests;

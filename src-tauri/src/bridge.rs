//! Engine events → the window. One forwarding task per conversation reads the session's event
//! channel, coalesces deltas per frame and hands each event to a sink (the Tauri app in the
//! product, a recorder in tests). It also keeps the approval routes current: a `chat:tool-confirm`
//! registers which conversation owns the tool id, its `chat:tool-result` removes it.

use std::sync::Arc;

use tokio::sync::mpsc::UnboundedReceiver;
use tokio::time::Instant;
use warden_protocol::Event;

use crate::coalesce::Coalescer;
use crate::routes::ApprovalRoutes;

/// Where forwarded events go.
pub trait EventSink: Send + Sync + 'static {
    fn emit(&self, event: Event);
}

impl<R: tauri::Runtime> EventSink for tauri::AppHandle<R> {
    fn emit(&self, event: Event) {
        let name = event.name();
        if let Err(err) = crate::events::emit(self, event) {
            tracing::warn!(event = name, %err, "could not emit event to the window");
        }
    }
}

/// Forwards every event of one session until its channel closes.
pub async fn forward(mut rx: UnboundedReceiver<Event>, sink: Arc<dyn EventSink>, routes: ApprovalRoutes) {
    let mut coalescer = Coalescer::new();
    loop {
        let deadline = coalescer.deadline().map(Instant::from_std);
        let next = match deadline {
            Some(at) => tokio::select! {
                biased;
                ev = rx.recv() => Some(ev),
                () = tokio::time::sleep_until(at) => None,
            },
            None => Some(rx.recv().await),
        };
        let out = match next {
            Some(Some(event)) => {
                routes.observe(&event);
                coalescer.push(event, std::time::Instant::now())
            }
            Some(None) => {
                deliver(sink.as_ref(), coalescer.flush());
                return;
            }
            None => coalescer.flush(),
        };
        deliver(sink.as_ref(), out);
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

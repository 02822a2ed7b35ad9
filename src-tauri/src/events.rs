//! Typed Tauri events: one newtype per protocol event, carrying the protocol payload unchanged and
//! named exactly as the protocol names it. The UI listens through `events.chatTextDelta` etc. in
//! the generated `src/bindings.ts`.

use serde::{Deserialize, Serialize};
use specta::Type;
use tauri_specta::Event as TauriEvent;
use warden_protocol as p;

/// The typed Tauri events, their collection for the tauri-specta builder, and the emitter — all from
/// the protocol's one list ([`warden_protocol::with_events`]).
macro_rules! tauri_events {
    ($($(#[$doc:meta])* $variant:ident($payload:ident) as $face:ident = $name:literal;)*) => {
        $(
            $(#[$doc])*
            #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type, TauriEvent)]
            #[tauri_specta(event_name = $name)]
            pub struct $face(pub p::$payload);
        )*

        /// Every event the window receives (the engine's, and the window's own), for the tauri-specta
        /// builder.
        pub fn collect() -> tauri_specta::Events {
            tauri_specta::collect_events![
                $($face,)*
                crate::attention::ApprovalOpenEvent,
                crate::elicit::McpElicitEvent,
                crate::menu::MenuActionEvent,
                crate::remote::RemoteLinkEvent,
                crate::askpass::RemoteAskpassEvent,
                crate::updates::UpdateProgressEvent
            ]
        }

        /// Emits one engine event as its typed Tauri event.
        pub fn emit<R: tauri::Runtime>(app: &tauri::AppHandle<R>, event: p::Event) -> tauri::Result<()> {
            match event {
                $(p::Event::$variant(e) => $face(e).emit(app),)*
            }
        }

        /// The Tauri names of the events, in the protocol's order.
        #[cfg(test)]
        const TAURI_NAMES: &[&str] = &[$(<$face as TauriEvent>::NAME),*];
    };
}

warden_protocol::with_events!(tauri_events);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_names_are_the_protocol_names() {
        assert_eq!(TAURI_NAMES, p::Event::NAMES);
        assert_eq!(NoticeEvent::NAME, "chat:notice");
    }

    #[test]
    fn the_payload_serializes_exactly_as_the_protocol_payload() {
        let payload =
            p::TextDelta { conversation_id: "c".into(), message_id: "m".into(), delta: "hi".into() };
        let ours = serde_json::to_value(TextDeltaEvent(payload.clone())).ok();
        let protocol = serde_json::to_value(p::Event::TextDelta(payload)).ok();
        assert_eq!(ours.as_ref(), protocol.as_ref().and_then(|v| v.get("payload")));
    }
}

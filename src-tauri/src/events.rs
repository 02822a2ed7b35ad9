//! Typed Tauri events: one newtype per protocol event, carrying the protocol payload unchanged and
//! named exactly as the protocol names it. The UI listens through `events.chatTextDelta` etc. in
//! the generated `src/bindings.ts`.

use serde::{Deserialize, Serialize};
use specta::Type;
use tauri_specta::Event as TauriEvent;
use warden_protocol as p;

macro_rules! chat_event {
    ($(#[$doc:meta])* $name:ident($payload:ty) = $event:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type, TauriEvent)]
        #[tauri_specta(event_name = $event)]
        pub struct $name(pub $payload);
    };
}

chat_event!(
    /// `chat:stream-start`: an assistant message begins.
    StreamStartEvent(p::StreamStart) = "chat:stream-start"
);
chat_event!(
    /// `chat:text-delta`: visible text (coalesced per frame).
    TextDeltaEvent(p::TextDelta) = "chat:text-delta"
);
chat_event!(
    /// `chat:thinking-delta`: reasoning text (coalesced per frame).
    ThinkingDeltaEvent(p::ThinkingDelta) = "chat:thinking-delta"
);
chat_event!(
    /// `chat:tool-start`: a tool call is complete and about to run.
    ToolStartEvent(p::ToolStart) = "chat:tool-start"
);
chat_event!(
    /// `chat:tool-delta`: streamed tool output (coalesced per frame).
    ToolDeltaEvent(p::ToolDelta) = "chat:tool-delta"
);
chat_event!(
    /// `chat:tool-result`: the tool finished, failed, was denied or cancelled.
    ToolResultEvent(p::ToolResult) = "chat:tool-result"
);
chat_event!(
    /// `chat:tool-confirm`: the user must approve the call (answer with `chatToolApprove`).
    ToolConfirmEvent(p::ToolConfirm) = "chat:tool-confirm"
);
chat_event!(
    /// `chat:stream-end`: the message or turn is over.
    StreamEndEvent(p::StreamEnd) = "chat:stream-end"
);
chat_event!(
    /// `chat:error`: a provider or system failure.
    ChatErrorEvent(p::ChatError) = "chat:error"
);
chat_event!(
    /// `chat:notice`: how the message is produced, for the user (e.g. tools described in the prompt).
    NoticeEvent(p::Notice) = "chat:notice"
);

/// Every event the window receives, for the tauri-specta builder.
pub fn collect() -> tauri_specta::Events {
    tauri_specta::collect_events![
        StreamStartEvent,
        TextDeltaEvent,
        ThinkingDeltaEvent,
        ToolStartEvent,
        ToolDeltaEvent,
        ToolResultEvent,
        ToolConfirmEvent,
        StreamEndEvent,
        ChatErrorEvent,
        NoticeEvent,
    ]
}

/// Emits one engine event as its typed Tauri event.
pub fn emit<R: tauri::Runtime>(app: &tauri::AppHandle<R>, event: p::Event) -> tauri::Result<()> {
    match event {
        p::Event::StreamStart(e) => StreamStartEvent(e).emit(app),
        p::Event::TextDelta(e) => TextDeltaEvent(e).emit(app),
        p::Event::ThinkingDelta(e) => ThinkingDeltaEvent(e).emit(app),
        p::Event::ToolStart(e) => ToolStartEvent(e).emit(app),
        p::Event::ToolDelta(e) => ToolDeltaEvent(e).emit(app),
        p::Event::ToolResult(e) => ToolResultEvent(e).emit(app),
        p::Event::ToolConfirm(e) => ToolConfirmEvent(e).emit(app),
        p::Event::StreamEnd(e) => StreamEndEvent(e).emit(app),
        p::Event::Error(e) => ChatErrorEvent(e).emit(app),
        p::Event::Notice(e) => NoticeEvent(e).emit(app),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_names_are_the_protocol_names() {
        assert_eq!(StreamStartEvent::NAME, "chat:stream-start");
        assert_eq!(TextDeltaEvent::NAME, "chat:text-delta");
        assert_eq!(ThinkingDeltaEvent::NAME, "chat:thinking-delta");
        assert_eq!(ToolStartEvent::NAME, "chat:tool-start");
        assert_eq!(ToolDeltaEvent::NAME, "chat:tool-delta");
        assert_eq!(ToolResultEvent::NAME, "chat:tool-result");
        assert_eq!(ToolConfirmEvent::NAME, "chat:tool-confirm");
        assert_eq!(StreamEndEvent::NAME, "chat:stream-end");
        assert_eq!(ChatErrorEvent::NAME, "chat:error");
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

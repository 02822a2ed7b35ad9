//! Emitting protocol events for one conversation.

use std::time::Duration;

use tokio::sync::mpsc;
use warden_protocol::{
    ChatError, ErrorCode, Event, Notice, OutputStream, StopReason, StreamEnd, StreamStart, TextDelta,
    ThinkingDelta, ToolCategory, ToolConfirm, ToolDelta, ToolResult, ToolStart, Usage,
};

/// Sends events of one conversation to whoever drives the session. A face that stopped listening
/// is not an error: the engine carries on and its events are dropped.
#[derive(Debug, Clone)]
pub struct EventEmitter {
    conversation_id: String,
    tx: mpsc::UnboundedSender<Event>,
}

impl EventEmitter {
    pub fn new(conversation_id: String, tx: mpsc::UnboundedSender<Event>) -> Self {
        Self { conversation_id, tx }
    }

    pub fn conv(&self) -> String {
        self.conversation_id.clone()
    }

    pub fn emit(&self, event: Event) {
        let _ = self.tx.send(event);
    }

    pub fn stream_start(&self, message_id: &str, provider: &str, model: &str, context_window: Option<u32>) {
        self.emit(Event::StreamStart(StreamStart {
            conversation_id: self.conv(),
            message_id: message_id.to_owned(),
            provider: provider.to_owned(),
            model: model.to_owned(),
            context_window,
        }));
    }

    pub fn text(&self, message_id: &str, delta: String) {
        self.emit(Event::TextDelta(TextDelta {
            conversation_id: self.conv(),
            message_id: message_id.to_owned(),
            delta,
        }));
    }

    /// `chat:compacted`: the older part of the conversation was summarized for the model.
    pub fn compacted(&self, summarized_messages: u32, tokens_before: u32, tokens_after: u32, manual: bool) {
        self.emit(Event::Compacted(warden_protocol::Compacted {
            conversation_id: self.conv(),
            summarized_messages,
            tokens_before,
            tokens_after,
            manual,
        }));
    }

    /// `chat:saving`: whether the conversation is being saved, and why not.
    pub fn saving(&self, saved: bool, reason: Option<String>) {
        self.emit(Event::Saving(warden_protocol::Saving { conversation_id: self.conv(), saved, reason }));
    }

    /// `chat:notice`: how the message is produced, for the user (e.g. tools described in the prompt).
    pub fn notice(&self, message_id: &str, text: String) {
        self.emit(Event::Notice(Notice {
            conversation_id: self.conv(),
            message_id: message_id.to_owned(),
            text,
        }));
    }

    pub fn thinking(&self, message_id: &str, delta: String) {
        self.emit(Event::ThinkingDelta(ThinkingDelta {
            conversation_id: self.conv(),
            message_id: message_id.to_owned(),
            delta,
        }));
    }

    /// `usage` is what the provider counted; when it counted nothing, `context` is the context
    /// in use as estimated from the request's size.
    pub fn stream_end(&self, message_id: &str, stop_reason: StopReason, usage: Counted, partial: bool) {
        self.emit(Event::StreamEnd(StreamEnd {
            conversation_id: self.conv(),
            message_id: message_id.to_owned(),
            stop_reason,
            usage: usage.reported,
            estimated_context_tokens: if usage.reported.is_none() { usage.estimated_context } else { None },
            partial,
        }));
    }

    /// A failure that ends the turn.
    pub fn error(&self, message_id: Option<&str>, code: ErrorCode, message: String, retryable: bool) {
        self.failure(message_id, Failure { code, message, detail: None }, retryable);
    }

    /// A failure that ends the turn, with what the engine underneath said (`detail`).
    pub fn failure(&self, message_id: Option<&str>, failure: Failure, retryable: bool) {
        self.emit(Event::Error(ChatError {
            conversation_id: self.conv(),
            message_id: message_id.map(str::to_owned),
            code: failure.code,
            message: failure.message,
            detail: failure.detail,
            retryable,
            retry_after_secs: None,
            retrying: false,
        }));
    }

    /// A failure the engine is retrying by itself after `delay`. The message says what went
    /// wrong and nothing more: when the next attempt goes is `retry_after_secs`, which the face
    /// counts down (a countdown in the message too would say it twice, and soon contradict it).
    pub fn retrying(&self, message_id: &str, failure: Failure, delay: Duration) {
        // Rounded up: "in 1 s" for a wait of 500 ms, never "in 0 s".
        let secs = u32::try_from(delay.as_millis().div_ceil(1000)).unwrap_or(u32::MAX).max(1);
        self.emit(Event::Error(ChatError {
            conversation_id: self.conv(),
            message_id: Some(message_id.to_owned()),
            code: failure.code,
            message: failure.message,
            detail: failure.detail,
            retryable: true,
            retry_after_secs: Some(secs),
            retrying: true,
        }));
    }

    /// `chat:tool-start`: a call is complete and is about to be decided on.
    pub fn tool_start(
        &self,
        message_id: &str,
        tool_id: &str,
        tool_name: &str,
        kind: (Option<ToolCategory>, Option<warden_protocol::McpOrigin>),
        input: serde_json::Value,
    ) {
        let (category, mcp) = kind;
        self.emit(Event::ToolStart(ToolStart {
            conversation_id: self.conv(),
            message_id: message_id.to_owned(),
            tool_id: tool_id.to_owned(),
            tool_name: tool_name.to_owned(),
            category,
            mcp,
            input,
        }));
    }

    /// `chat:tool-delta`: a piece of a running call's output.
    pub fn tool_delta(&self, message_id: &str, tool_id: &str, stream: OutputStream, chunk: String) {
        self.emit(Event::ToolDelta(ToolDelta {
            conversation_id: self.conv(),
            message_id: message_id.to_owned(),
            tool_id: tool_id.to_owned(),
            chunk,
            stream: Some(stream),
        }));
    }

    /// `chat:tool-confirm`: a call waits for the user. The caller fills in everything but the ids.
    pub fn tool_confirm(&self, confirm: ToolConfirm) {
        self.emit(Event::ToolConfirm(ToolConfirm { conversation_id: self.conv(), ..confirm }));
    }

    /// `chat:tool-result`: how a call ended.
    /// A call's result; after a `todo_write`, the task list it left as well.
    pub fn tool_result(&self, result: ToolResult) {
        let todo = result.report.todo.clone();
        self.emit(Event::ToolResult(ToolResult { conversation_id: self.conv(), ..result }));
        if let Some(items) = todo {
            self.emit(Event::Todo(warden_protocol::TodoList { conversation_id: self.conv(), items }));
        }
    }
}

/// A failure as the user is told it: its code, one sentence, and the engine's own words apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub code: ErrorCode,
    pub message: String,
    pub detail: Option<String>,
}

impl From<&crate::provider::ProviderError> for Failure {
    fn from(error: &crate::provider::ProviderError) -> Self {
        Self { code: error.code(), message: error.message.clone(), detail: error.detail.clone() }
    }
}

/// The tokens of one message: what the provider reported, and the context in use as estimated
/// from the request's size for providers that report nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counted {
    pub reported: Option<Usage>,
    pub estimated_context: Option<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::{ErrorCategory, ProviderError};

    fn emitted(f: impl FnOnce(&EventEmitter)) -> ChatError {
        let (tx, mut rx) = mpsc::unbounded_channel();
        f(&EventEmitter::new("c".to_owned(), tx));
        match rx.try_recv() {
            Ok(Event::Error(error)) => error,
            other => panic!("expected chat:error, got {other:?}"),
        }
    }

    #[test]
    fn a_retry_says_what_went_wrong_once_and_when_apart() {
        let error = ProviderError::new(ErrorCategory::RateLimited, "Anthropic is rate-limiting requests.");
        let sent = emitted(|events| events.retrying("m", Failure::from(&error), Duration::from_millis(1500)));
        assert_eq!(sent.message, "Anthropic is rate-limiting requests.", "no countdown in the sentence");
        assert_eq!(sent.retry_after_secs, Some(2), "1.5 s is said as 2 s, never as less than the wait");
        assert!(sent.retrying && sent.retryable);
        let soon = emitted(|events| events.retrying("m", Failure::from(&error), Duration::from_millis(300)));
        assert_eq!(soon.retry_after_secs, Some(1));
    }

    #[test]
    fn the_engines_words_go_apart_from_the_sentence() {
        let error = ProviderError::cut_off(ErrorCategory::Network, "error decoding response body");
        let sent = emitted(|events| events.failure(Some("m"), Failure::from(&error), error.is_retryable()));
        assert_eq!(sent.message, "The model's answer was cut off (the connection closed early).");
        assert_eq!(sent.detail.as_deref(), Some("error decoding response body"));
        assert_eq!(sent.code, ErrorCode::Network);
        assert!(!sent.retrying && sent.retryable);
    }
}

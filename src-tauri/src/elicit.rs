//! Forms MCP servers ask the user to fill in (MCP elicitation), and their requests for the user's
//! model (sampling, shown for the user to allow or decline), in the window: the request goes
//! out as the `mcp:elicit` event, the window shows the form, and `mcp_elicit_answer` brings the
//! answer back. A form nobody answers within ten minutes is cancelled; so is every form still open
//! when the window goes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use specta::Type;
use tauri_specta::Event as TauriEvent;
use tokio::sync::oneshot;
use warden_core::mcp::{Elicitation, Elicitor};
use warden_protocol::{McpAskPurpose, McpElicit, McpElicitAnswer};

/// How long a form waits for the user.
const WAIT: Duration = Duration::from_secs(600);

/// `mcp:elicit`: a server asks the user to fill in a form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type, TauriEvent)]
#[tauri_specta(event_name = "mcp:elicit")]
pub struct McpElicitEvent(pub McpElicit);

type Emit = Box<dyn Fn(McpElicit) + Send + Sync>;

#[derive(Default)]
pub struct WindowElicitor {
    emit: OnceLock<Emit>,
    pending: Mutex<HashMap<String, oneshot::Sender<Elicitation>>>,
}

impl WindowElicitor {
    /// Where requests go (the window's event, once it exists).
    pub fn connect(&self, emit: impl Fn(McpElicit) + Send + Sync + 'static) {
        let _ = self.emit.set(Box::new(emit));
    }

    /// The user's answer to request `id`; `false` when no form of that id waits.
    pub fn answer(&self, id: &str, answer: McpElicitAnswer) -> bool {
        let waiting = self.pending.lock().ok().and_then(|mut p| p.remove(id));
        let Some(waiting) = waiting else { return false };
        let answer = match answer {
            McpElicitAnswer::Accept { content } => Elicitation::Accept(content),
            McpElicitAnswer::Decline => Elicitation::Decline,
            McpElicitAnswer::Cancel => Elicitation::Cancel,
        };
        waiting.send(answer).is_ok()
    }
}

impl WindowElicitor {
    /// Show the request over the window and wait for the user's answer (ten minutes at most).
    async fn ask(
        &self,
        server: &str,
        message: &str,
        schema: &serde_json::Value,
        purpose: McpAskPurpose,
    ) -> Elicitation {
        let Some(emit) = self.emit.get() else { return Elicitation::Decline };
        let id = uuid::Uuid::new_v4().to_string();
        let (tx, rx) = oneshot::channel();
        if let Ok(mut pending) = self.pending.lock() {
            pending.insert(id.clone(), tx);
        }
        emit(McpElicit {
            request_id: id.clone(),
            server: server.to_owned(),
            // A sampling request is already no longer than the user can be shown whole
            // (`sampling::SHOWN_MAX`); a form's words are cut there too.
            message: message.chars().take(warden_core::mcp::sampling::SHOWN_MAX).collect(),
            schema: schema.clone(),
            purpose,
        });
        let answer = tokio::time::timeout(WAIT, rx).await;
        if let Ok(mut pending) = self.pending.lock() {
            pending.remove(&id);
        }
        match answer {
            Ok(Ok(answer)) => answer,
            _ => Elicitation::Cancel,
        }
    }
}

#[async_trait::async_trait]
impl Elicitor for WindowElicitor {
    async fn elicit(&self, server: &str, message: &str, schema: &serde_json::Value) -> Elicitation {
        self.ask(server, message, schema, McpAskPurpose::Form).await
    }

    /// The request in words, with Allow / Decline: only Allow lets it through.
    async fn allow_sampling(&self, server: &str, request: &str) -> bool {
        let empty = serde_json::json!({ "type": "object", "properties": {} });
        matches!(self.ask(server, request, &empty, McpAskPurpose::Sampling).await, Elicitation::Accept(_))
    }
}

/// The one shared elicitor of the window.
pub fn shared() -> Arc<WindowElicitor> {
    Arc::new(WindowElicitor::default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[tokio::test]
    async fn a_form_goes_to_the_window_and_its_answer_comes_back() {
        let elicitor = shared();
        // Before the window is there: declined.
        assert_eq!(elicitor.elicit("s", "m", &json!({})).await, Elicitation::Decline);

        let (tx, mut shown) = tokio::sync::mpsc::unbounded_channel();
        elicitor.connect(move |request| {
            let _ = tx.send(request);
        });
        let asking = {
            let elicitor = elicitor.clone();
            tokio::spawn(async move {
                elicitor.elicit("everything", "Your name?", &json!({"type": "object"})).await
            })
        };
        let request = shown.recv().await.unwrap();
        assert_eq!((request.server.as_str(), request.message.as_str()), ("everything", "Your name?"));
        assert!(
            !elicitor.answer("someone-else", McpElicitAnswer::Decline),
            "an unknown form is not answered"
        );
        let content = json!({"name": "Ada"}).as_object().cloned().unwrap();
        assert!(elicitor.answer(&request.request_id, McpElicitAnswer::Accept { content: content.clone() }));
        assert_eq!(asking.await.unwrap(), Elicitation::Accept(content));
        assert!(!elicitor.answer(&request.request_id, McpElicitAnswer::Cancel), "answered once only");
    }

    #[test]
    fn answers_read_as_the_window_sends_them() {
        let accept: McpElicitAnswer =
            serde_json::from_value(json!({"action": "accept", "content": {"a": 1}})).unwrap();
        assert!(matches!(accept, McpElicitAnswer::Accept { .. }));
        let decline: McpElicitAnswer = serde_json::from_value(json!({"action": "decline"})).unwrap();
        assert_eq!(decline, McpElicitAnswer::Decline);
    }
}

//! Forms MCP servers ask the user to fill in (MCP elicitation), and their requests for the user's
//! model (sampling, shown for the user to allow or decline), in the window: the request goes
//! out as the `mcp:elicit` event, the window shows the form, and `mcp_elicit_answer` brings the
//! answer back. A form nobody answers within ten minutes is cancelled; so is every form still open
//! when the window goes. A remote session's servers ask here too: their questions come over the
//! link (`crate::remote`) and are shown the same way.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use serde::{Deserialize, Serialize};
use specta::Type;
use tauri_specta::Event as TauriEvent;
use tokio::sync::oneshot;
use warden_core::mcp::{AskUser, Elicitation, ASK_WAIT};
use warden_protocol::{McpElicit, McpElicitAnswer};

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
        waiting.is_some_and(|waiting| waiting.send(answer.into()).is_ok())
    }
}

#[async_trait::async_trait]
impl AskUser for WindowElicitor {
    /// Show the request over the window and wait for the user's answer (ten minutes at most);
    /// before the window is there, declined.
    async fn ask(&self, mut ask: McpElicit) -> Elicitation {
        let Some(emit) = self.emit.get() else { return Elicitation::Decline };
        let id = uuid::Uuid::new_v4().to_string();
        let (tx, rx) = oneshot::channel();
        if let Ok(mut pending) = self.pending.lock() {
            pending.insert(id.clone(), tx);
        }
        ask.request_id = id.clone();
        emit(ask);
        let answer = tokio::time::timeout(ASK_WAIT, rx).await;
        if let Ok(mut pending) = self.pending.lock() {
            pending.remove(&id);
        }
        match answer {
            Ok(Ok(answer)) => answer,
            _ => Elicitation::Cancel,
        }
    }

    fn can_ask(&self) -> bool {
        self.emit.get().is_some()
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
    use warden_core::containment::net::Answer;
    use warden_core::mcp::Elicitor;
    use warden_protocol::{McpAskPurpose, NetworkRequest};

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

    #[tokio::test]
    async fn a_host_question_names_the_server_and_the_host_and_each_answer_reads_as_the_proxy_needs_it() {
        let elicitor = shared();
        let request = NetworkRequest {
            host: "registry.test".to_owned(),
            port: 8443,
            reach: Some("this machine".to_owned()),
        };
        // Before the window is there: not reached, and not denied for good either.
        assert!(matches!(elicitor.allow_host("fetcher", &request).await, Answer::Unanswered(_)));

        let (tx, mut shown) = tokio::sync::mpsc::unbounded_channel();
        elicitor.connect(move |question| {
            let _ = tx.send(question);
        });
        let always = json!({"always": true}).as_object().cloned().unwrap();
        let answers = [
            (McpElicitAnswer::Accept { content: always }, Answer::Always),
            (McpElicitAnswer::Accept { content: serde_json::Map::new() }, Answer::Once),
            (McpElicitAnswer::Decline, Answer::Deny),
        ];
        for (given, expected) in answers {
            let asking = {
                let (elicitor, request) = (elicitor.clone(), request.clone());
                tokio::spawn(async move { elicitor.allow_host("fetcher", &request).await })
            };
            let question = shown.recv().await.unwrap();
            assert_eq!(question.purpose, McpAskPurpose::Network);
            assert_eq!((question.server.as_str(), question.network.as_ref()), ("fetcher", Some(&request)));
            assert_eq!(
                question.message,
                "The MCP server fetcher wants to reach registry.test:8443 (this machine), which no rule allows."
            );
            assert!(elicitor.answer(&question.request_id, given));
            assert_eq!(asking.await.unwrap(), expected);
        }
        let asking = {
            let (elicitor, request) = (elicitor.clone(), request.clone());
            tokio::spawn(async move { elicitor.allow_host("fetcher", &request).await })
        };
        let question = shown.recv().await.unwrap();
        assert!(elicitor.answer(&question.request_id, McpElicitAnswer::Cancel));
        assert!(matches!(asking.await.unwrap(), Answer::Unanswered(_)), "dismissed is not denied for good");
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

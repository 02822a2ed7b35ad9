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
use warden_core::containment::net::Answer;
use warden_core::mcp::{Elicitation, Elicitor};
use warden_protocol::{McpAskPurpose, McpElicit, McpElicitAnswer, NetworkRequest};

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
        network: Option<NetworkRequest>,
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
            network,
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
        self.ask(server, message, schema, McpAskPurpose::Form, None).await
    }

    /// The request in words, with Allow / Decline: only Allow lets it through.
    async fn allow_sampling(&self, server: &str, request: &str) -> bool {
        let empty = serde_json::json!({ "type": "object", "properties": {} });
        matches!(
            self.ask(server, request, &empty, McpAskPurpose::Sampling, None).await,
            Elicitation::Accept(_)
        )
    }

    /// "Allow" (while the server runs), "Always for this project" (accepted with `always`), or
    /// "Deny"; dismissed or unanswered in ten minutes: not reached.
    async fn allow_host(&self, server: &str, request: &NetworkRequest) -> Answer {
        if self.emit.get().is_none() {
            // Not a denial that would hold while the server runs: asked again next time.
            return Answer::Unanswered("the window is not open yet".to_owned());
        }
        let empty = serde_json::json!({ "type": "object", "properties": {} });
        let message = host_question(server, request);
        match self.ask(server, &message, &empty, McpAskPurpose::Network, Some(request.clone())).await {
            Elicitation::Accept(content) if content.get("always") == Some(&true.into()) => Answer::Always,
            Elicitation::Accept(_) => Answer::Once,
            Elicitation::Decline => Answer::Deny,
            Elicitation::Cancel => Answer::Unanswered("the question was dismissed".to_owned()),
        }
    }
}

/// The question about `request` in words.
fn host_question(server: &str, request: &NetworkRequest) -> String {
    let reach = request.reach.as_deref().map(|r| format!(" ({r})")).unwrap_or_default();
    format!(
        "The MCP server {server} wants to reach {}:{}{reach}, which no rule allows.",
        request.host, request.port
    )
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

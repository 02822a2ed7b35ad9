//! What an MCP server asks of the user, and who answers: a form (elicitation), whether the model
//! may answer a server (sampling), whether a server's box may reach a host. The window answers
//! in cards (and so does the window at the other end of a remote link); `warden exec` has no one
//! to ask and declines.

use warden_protocol::{McpAskPurpose, McpElicit, McpElicitAnswer, NetworkRequest};

use crate::containment::net::Answer;

/// The user's answer to a server's request for input.
#[derive(Debug, Clone, PartialEq)]
pub enum Elicitation {
    /// The form, filled in (an object matching the requested schema).
    Accept(serde_json::Map<String, serde_json::Value>),
    Decline,
    Cancel,
}

/// Answers a server's request for input (MCP elicitation): a form in the window; `warden exec`
/// has none and declines.
#[async_trait::async_trait]
pub trait Elicitor: Send + Sync {
    /// `message` and the requested schema (an object of plain fields).
    async fn elicit(&self, server: &str, message: &str, schema: &serde_json::Value) -> Elicitation;

    /// Whether the user lets `server` have their model answer `request` (shown in words). Nobody
    /// to ask: no.
    async fn allow_sampling(&self, _server: &str, _request: &str) -> bool {
        false
    }

    /// Whether `server`'s box may reach `request`'s host, which no rule names: while the server
    /// runs ([`Answer::Once`]), for good ([`Answer::Always`]: the caller saves the rule), or not.
    /// Nobody to ask: not reached.
    async fn allow_host(&self, _server: &str, _request: &warden_protocol::NetworkRequest) -> Answer {
        Answer::Unanswered("there is no window to ask in".to_owned())
    }
}

/// The longest request (as the user is shown it, in characters) Warden passes on: the user sees
/// every word of what they allow, so a longer sampling request is refused rather than shown in
/// part, and a form's words are cut there.
pub const SHOWN_MAX: usize = 20_000;

/// How long a question waits for the user before it counts as dismissed.
pub const ASK_WAIT: std::time::Duration = std::time::Duration::from_secs(600);

/// Someone who can be shown a server's question as one [`McpElicit`] — a card in the window, or
/// the window at the other end of a remote link — and answers it. Every such asker is an
/// [`Elicitor`]: the three questions are put to it in the same words everywhere.
#[async_trait::async_trait]
pub trait AskUser: Send + Sync {
    /// Shows `ask` (its `request_id` is the asker's to set) and waits for the answer; nobody
    /// answering within [`ASK_WAIT`] is [`Elicitation::Cancel`].
    async fn ask(&self, ask: McpElicit) -> Elicitation;

    /// Whether anyone can be asked now: a host question nobody can be asked stays unanswered (it
    /// is asked again next time), not denied.
    fn can_ask(&self) -> bool {
        true
    }
}

/// The question `purpose` of `server`, in `message`'s words (cut to what the user can be shown).
fn question(
    server: &str,
    message: &str,
    schema: &serde_json::Value,
    purpose: McpAskPurpose,
    network: Option<NetworkRequest>,
) -> McpElicit {
    McpElicit {
        request_id: String::new(),
        server: server.to_owned(),
        message: message.chars().take(SHOWN_MAX).collect(),
        schema: schema.clone(),
        purpose,
        network,
    }
}

#[async_trait::async_trait]
impl<T: AskUser> Elicitor for T {
    async fn elicit(&self, server: &str, message: &str, schema: &serde_json::Value) -> Elicitation {
        self.ask(question(server, message, schema, McpAskPurpose::Form, None)).await
    }

    /// The request in words, with Allow / Decline: only Allow lets it through.
    async fn allow_sampling(&self, server: &str, request: &str) -> bool {
        let empty = serde_json::json!({ "type": "object", "properties": {} });
        let asked = question(server, request, &empty, McpAskPurpose::Sampling, None);
        matches!(self.ask(asked).await, Elicitation::Accept(_))
    }

    /// "Allow" (while the server runs), "Always for this project" (accepted with `always`), or
    /// "Deny"; dismissed or unanswered: not reached, asked again next time.
    async fn allow_host(&self, server: &str, request: &NetworkRequest) -> Answer {
        if !self.can_ask() {
            return Answer::Unanswered("the window is not open yet".to_owned());
        }
        let empty = serde_json::json!({ "type": "object", "properties": {} });
        let message = host_question(server, request);
        let asked = question(server, &message, &empty, McpAskPurpose::Network, Some(request.clone()));
        match self.ask(asked).await {
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

impl From<McpElicitAnswer> for Elicitation {
    fn from(answer: McpElicitAnswer) -> Self {
        match answer {
            McpElicitAnswer::Accept { content } => Self::Accept(content),
            McpElicitAnswer::Decline => Self::Decline,
            McpElicitAnswer::Cancel => Self::Cancel,
        }
    }
}

impl From<Elicitation> for McpElicitAnswer {
    fn from(answer: Elicitation) -> Self {
        match answer {
            Elicitation::Accept(content) => Self::Accept { content },
            Elicitation::Decline => Self::Decline,
            Elicitation::Cancel => Self::Cancel,
        }
    }
}

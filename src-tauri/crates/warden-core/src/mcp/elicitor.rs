//! What an MCP server asks of the user, and who answers: a form (elicitation), whether the model
//! may answer a server (sampling), whether a server's box may reach a host. The window answers
//! in cards; `warden exec` has no one to ask and declines.

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

//! Warden's side of an MCP connection: what it tells the server about itself (the project as its
//! one root), and what it does with what the server sends unasked — progress goes to the tool call
//! it belongs to, a changed tool list is listed again, log lines go to Warden's log, forms and requests
//! for the user's model (sampling, `sampling.rs`) go to the user, and what nobody can answer is
//! declined.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rmcp::model::{
    ClientConfig, CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult,
    ElicitationAction, ErrorCode, ListRootsResult, LoggingMessageNotificationParam,
    ProgressNotificationParam, ProgressToken, Root,
};
use rmcp::service::{NotificationContext, RequestContext, RoleClient};
use rmcp::{ClientHandler, ErrorData};
use warden_protocol::OutputStream;

use super::elicitor::{Elicitation, Elicitor};
use super::sampling::{self, ServersModel};
use super::tool_list::ToolList;
use crate::tool::OutputSink;

/// What the connection shares with its handler.
#[derive(Default)]
pub struct Shared {
    /// Where each call's progress goes, by its progress token.
    progress: Mutex<HashMap<String, OutputSink>>,
    /// The server's tools, listed again when it says they changed.
    pub tool_list: Arc<ToolList>,
}

impl Shared {
    /// Send the progress of the request with `token` to `sink` until the guard is dropped.
    pub fn route_progress(self: &Arc<Self>, token: &ProgressToken, sink: OutputSink) -> ProgressRoute {
        let key = token_key(token);
        if let Ok(mut routes) = self.progress.lock() {
            routes.insert(key.clone(), sink);
        }
        ProgressRoute { shared: self.clone(), key }
    }
}

/// Removes a call's progress route when the call ends.
pub struct ProgressRoute {
    shared: Arc<Shared>,
    key: String,
}

impl Drop for ProgressRoute {
    fn drop(&mut self) {
        if let Ok(mut routes) = self.shared.progress.lock() {
            routes.remove(&self.key);
        }
    }
}

fn token_key(token: &ProgressToken) -> String {
    serde_json::to_string(token).unwrap_or_default()
}

/// Cloned only to retry a handshake (one connection uses one).
#[derive(Clone)]
pub struct WardenClient {
    pub server: String,
    /// The project folder, the one root the server is told about.
    pub root: Option<String>,
    pub shared: Arc<Shared>,
    /// Who answers a server's request for input; `None`: every request is declined (and Warden
    /// does not offer elicitation).
    pub elicitor: Option<Arc<dyn Elicitor>>,
    /// The model a server's sampling requests go to, when its entry lets it ask and someone can
    /// be asked (`elicitor`); `None`: sampling is not offered.
    pub sampling: Option<Arc<ServersModel>>,
}

impl ClientHandler for WardenClient {
    async fn list_roots(&self, _context: RequestContext<RoleClient>) -> Result<ListRootsResult, ErrorData> {
        let roots = self.root.iter().map(|path| Root::new(file_uri(path))).collect();
        Ok(ListRootsResult::new(roots))
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let sink =
            self.shared.progress.lock().ok().and_then(|r| r.get(&token_key(&params.progress_token)).cloned());
        if let Some(sink) = sink {
            sink.send(OutputStream::Stdout, progress_line(&params));
        }
    }

    async fn on_tool_list_changed(&self, context: NotificationContext<RoleClient>) {
        self.shared.tool_list.announce_change(context.peer);
    }

    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let text = params.data.to_string();
        let text: String = text.chars().take(2000).collect();
        tracing::info!(server = %self.server, level = ?params.level, "MCP server log: {text}");
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let Some(elicitor) = &self.elicitor else { return Ok(ElicitResult::new(ElicitationAction::Decline)) };
        // Only forms: a URL elicitation would send the user to a page the server names.
        let request = serde_json::to_value(&request).unwrap_or_default();
        if request.get("mode").and_then(|m| m.as_str()) != Some("form") {
            return Ok(ElicitResult::new(ElicitationAction::Decline));
        }
        let message = request.get("message").and_then(|m| m.as_str()).unwrap_or("");
        let schema = request.get("requestedSchema").cloned().unwrap_or_default();
        Ok(match elicitor.elicit(&self.server, message, &schema).await {
            Elicitation::Accept(content) => {
                ElicitResult::new(ElicitationAction::Accept).with_content(serde_json::Value::Object(content))
            }
            Elicitation::Decline => ElicitResult::new(ElicitationAction::Decline),
            Elicitation::Cancel => ElicitResult::new(ElicitationAction::Cancel),
        })
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        let (Some(model), Some(asker)) = (&self.sampling, &self.elicitor) else {
            return Err(ErrorData::new(ErrorCode(-1), "Warden does not let this server use the model", None));
        };
        let params = serde_json::to_value(&params).unwrap_or_default();
        match sampling::answer(model, asker.as_ref(), &self.server, &params).await {
            Ok(result) => serde_json::from_value(result)
                .map_err(|e| ErrorData::internal_error(format!("the answer could not be sent: {e}"), None)),
            Err(error) => {
                tracing::info!(server = %self.server, %error, "MCP sampling request not answered");
                Err(ErrorData::new(ErrorCode(-1), error.to_string(), None))
            }
        }
    }

    fn get_info(&self) -> ClientConfig {
        client_config(self.elicitor.is_some(), self.sampling.is_some() && self.elicitor.is_some())
    }
}

/// Who Warden says it is and what it can do: roots (the project), forms when someone can fill
/// them in (`elicitation`), and the user's model when the server may ask for it and someone can be
/// asked (`sampling`; otherwise it is not offered, so a conformant server does not ask).
pub fn client_config(elicitation: bool, sampling: bool) -> ClientConfig {
    let mut capabilities = serde_json::json!({ "roots": { "listChanged": false } });
    if elicitation {
        capabilities["elicitation"] = serde_json::json!({ "form": {} });
    }
    if sampling {
        capabilities["sampling"] = serde_json::json!({});
    }
    let config = serde_json::json!({
        "protocolVersion": rmcp::model::ProtocolVersion::LATEST_WITH_INITIALIZE,
        "capabilities": capabilities,
        "clientInfo": { "name": "warden", "title": "Warden", "version": env!("CARGO_PKG_VERSION") },
    });
    serde_json::from_value(config).unwrap_or_default()
}

/// One line per progress notification: `[3/10] message`.
fn progress_line(params: &ProgressNotificationParam) -> String {
    let amount = match params.total {
        Some(total) => format!("[{}/{}]", params.progress, total),
        None => format!("[{}]", params.progress),
    };
    let message: String =
        params.message.as_deref().unwrap_or("").chars().filter(|c| !c.is_control()).take(500).collect();
    if message.is_empty() {
        format!("{amount}\n")
    } else {
        format!("{amount} {message}\n")
    }
}

/// `file://` and the path, its bytes outside the unreserved set percent-encoded.
fn file_uri(path: &str) -> String {
    let mut uri = String::from("file://");
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~".contains(&byte) {
            uri.push(char::from(byte));
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    uri
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_are_file_uris() {
        assert_eq!(file_uri("/home/a b/proj"), "file:///home/a%20b/proj");
    }

    #[test]
    fn the_client_says_who_it_is() {
        let config = serde_json::to_value(client_config(false, false)).unwrap();
        assert_eq!(config["clientInfo"]["name"], "warden");
        assert_eq!(config["protocolVersion"], "2025-11-25");
        assert!(config["capabilities"]["roots"].is_object());
        assert!(config["capabilities"].get("sampling").is_none());
        assert!(config["capabilities"].get("elicitation").is_none());
        let with_forms = serde_json::to_value(client_config(true, false)).unwrap();
        assert!(with_forms["capabilities"]["elicitation"]["form"].is_object());
        assert!(with_forms["capabilities"].get("sampling").is_none());
        let with_model = serde_json::to_value(client_config(true, true)).unwrap();
        assert!(with_model["capabilities"]["sampling"].is_object());
    }
}

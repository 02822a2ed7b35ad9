//! One live connection to an MCP server: started over its transport, initialized, its tools
//! listed (again after `notifications/tools/list_changed`, `tool_list`), and calls made with progress routed,
//! a time limit, and `notifications/cancelled` sent when the call is stopped.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CancelledNotification, CancelledNotificationParam, ClientRequest,
    ServerResult, Tool as McpToolDef,
};
use rmcp::service::{PeerRequestOptions, RoleClient, RunningService};
use rmcp::transport::auth::AuthClient;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::ServiceExt;

use super::auth::client_credentials;
use super::auth::oauth::{self, KeychainCredentials};
use super::elicitor::Elicitor;
use super::error::McpError;
use super::handler::{Shared, WardenClient};
use super::sampling::ServersModel;
use super::server::{Origin, ServerSpec, Transport};
use super::server_net::server_proxy;
use super::spawn::{spawn, ServerProcess, StderrTail};
use super::tls::install_tls;
use crate::containment::long_lived::LongLived;
use crate::containment::net::OwnProxy;
use crate::containment::BoxPolicy;
use crate::secrets::SecretStore;
use crate::tool::OutputSink;
use warden_protocol::McpOAuthClient;

/// How long reading a resource may take.
const RESOURCE_READ_TIME: Duration = Duration::from_secs(30);

/// How many resources and prompts Settings lists per server.
pub const CATALOG_MAX: usize = 200;

pub struct Connection {
    pub spec: ServerSpec,
    service: RunningService<RoleClient, WardenClient>,
    shared: Arc<Shared>,
    process: Option<ServerProcess>,
    /// The proxy a stdio server's box with the network goes out through, for as long as the
    /// server runs.
    egress: Option<OwnProxy>,
    /// A stdio server's box outlives every call: repositories made while it runs count as new
    /// until it is gone (dropped after `process`, which kills it).
    _outlives: Option<LongLived>,
    /// Its resources and prompts, in words, listed once after the handshake.
    catalog: tokio::sync::OnceCell<(Vec<String>, Vec<String>)>,
}

/// Start the server `spec` describes and initialize it. `root` is the project folder (the server's
/// root, and a stdio server's working folder unless its entry names one); `policy` is the box a
/// stdio server runs in (`None`: not contained).
pub async fn connect(
    spec: &ServerSpec,
    root: &Path,
    policy: Option<&BoxPolicy>,
) -> Result<Connection, McpError> {
    connect_with(spec, root, policy, &ClientSetup::default()).await
}

/// What a connection may use besides its server's entry.
#[derive(Clone, Default)]
pub struct ClientSetup {
    /// Where an HTTP server's OAuth tokens are kept (`None`: no sign-in is used; a server that
    /// asks for one fails with [`McpError::NeedsSignIn`]).
    pub secrets: Option<Arc<dyn SecretStore>>,
    /// Who fills in a server's forms (`None`: they are declined).
    pub elicitor: Option<Arc<dyn Elicitor>>,
    /// The model the sampling requests of servers that may ask go to.
    pub model: Arc<ServersModel>,
    /// Saves the project's allow rule for a host a stdio server's box was let reach "always"
    /// (`None`: allowed while the server runs, not saved).
    pub save_host_rule: Option<Arc<super::SaveHostRule>>,
}

/// [`connect`], with the keychain and the forms of `setup`.
#[allow(clippy::too_many_lines)] // One connection: transport, sign-in, handshake and watcher, in order.
pub async fn connect_with(
    spec: &ServerSpec,
    root: &Path,
    policy: Option<&BoxPolicy>,
    setup: &ClientSetup,
) -> Result<Connection, McpError> {
    let shared = Arc::new(Shared::default());
    let handler = WardenClient {
        server: spec.name.clone(),
        root: Some(root.to_string_lossy().into_owned()),
        shared: shared.clone(),
        elicitor: setup.elicitor.clone(),
        sampling: spec.sampling.then(|| setup.model.clone()),
    };
    // A project's entry names no secret of the user's (`project::trim`); none is looked up for it
    // even so.
    let keychain = match spec.origin {
        Origin::User => setup.secrets.as_ref(),
        Origin::Project => None,
    };
    let mut egress = None;
    let mut outlives = None;
    let (service, process) = match &spec.transport {
        Transport::Stdio { command, args, env, cwd, network, readable, outside_sandbox } => {
            // A server is a box alone (its own network, not a session's), going out through a
            // proxy of its own that asks about each host the rules leave open in its name.
            let policy = match policy {
                Some(p) if wants_network(spec.origin, p, *network, *outside_sandbox) => {
                    let proxy = server_proxy(
                        &spec.name,
                        root,
                        &p.network_rules,
                        setup.elicitor.clone(),
                        setup.save_host_rule.clone(),
                    )
                    .map_err(|error| McpError::Spawn { command: command.clone(), error })?;
                    egress = Some(proxy.clone());
                    Some(BoxPolicy { shared_net: None, own_proxy: Some(proxy), ..p.clone() })
                }
                Some(p) => Some(BoxPolicy { shared_net: None, own_proxy: None, ..p.clone() }),
                None => None,
            };
            let policy = policy.as_ref();
            let (cwd, policy) = match spec.origin {
                // The user's own entry may also give its box more to read (its configuration, a
                // socket), or run it outside the box altogether.
                Origin::User => {
                    let mut visible = program_folders(command);
                    visible.extend(own_folder(cwd.as_deref()));
                    let policy = policy.filter(|_| !*outside_sandbox).map(|p| {
                        BoxPolicy { network: *network, visible, ..p.clone() }
                            .with_readable(readable, dirs::home_dir().as_deref())
                    });
                    (cwd.clone().unwrap_or_else(|| root.to_path_buf()), policy)
                }
                // The project's command box as the agent's commands get it: its network (less,
                // when the entry says `"network": false`), no folder more. The program usually
                // lives in the repository the agent's commands may rewrite.
                Origin::Project => {
                    let policy = policy.map(|p| BoxPolicy { network: p.network && *network, ..p.clone() });
                    (project_cwd(root, cwd.as_deref())?, policy)
                }
            };
            let env = super::secrets::resolve(env, keychain).await?;
            outlives = policy.as_ref().and_then(BoxPolicy::outlives_its_call);
            let (process, stdout, stdin) = spawn(command, args, &env, &cwd, policy.as_ref())
                .map_err(|e| McpError::Spawn { command: command.clone(), error: e.to_string() })?;
            let stderr = process.stderr.clone();
            match handler.serve((stdout, stdin)).await {
                Ok(service) => (service, Some(process)),
                Err(error) => {
                    // The program's own last words say more than "connection closed".
                    drop(process);
                    return Err(McpError::Handshake(with_stderr(&error.to_string(), &stderr).await));
                }
            }
        }
        Transport::Http { url, headers, oauth } => {
            let credentials = setup
                .secrets
                .as_ref()
                .map(|store| KeychainCredentials::of(store.clone(), &spec.name, spec.origin, url));
            let headers = super::secrets::resolve(headers, keychain).await?;
            let service = match (oauth, credentials) {
                (Some(client), Some(credentials)) if client_credentials::signs_in_by_itself(client) => {
                    serve_http_as_client(handler, url, &headers, client, credentials, setup).await?
                }
                (_, credentials) => serve_http(handler, url, &headers, credentials).await?,
            };
            (service, None)
        }
    };
    let connection = Connection {
        spec: spec.clone(),
        service,
        shared,
        process,
        egress,
        _outlives: outlives,
        catalog: Default::default(),
    };
    connection.refresh_tools().await?;
    Ok(connection)
}

/// Whether a stdio server's box has the network: a user's server as its entry says (unless it runs
/// outside the box), a project's only when the project's commands have it too.
fn wants_network(origin: Origin, policy: &BoxPolicy, network: bool, outside_sandbox: bool) -> bool {
    match origin {
        Origin::User => network && !outside_sandbox,
        Origin::Project => policy.network && network,
    }
}

/// Where a project's stdio server starts: the project folder, or the folder of it its entry names
/// (relative, as `project::trim` keeps it) when that is inside the project once links are followed.
/// Checked as it starts; the box, not this check, is what holds the program in.
fn project_cwd(root: &Path, cwd: Option<&Path>) -> Result<std::path::PathBuf, McpError> {
    let Some(cwd) = cwd else { return Ok(root.to_path_buf()) };
    let refused = |why: String| McpError::Cwd { cwd: cwd.display().to_string(), why };
    let real_root = std::fs::canonicalize(root).map_err(|e| refused(format!("cannot be read: {e}")))?;
    let real = std::fs::canonicalize(root.join(cwd)).map_err(|e| refused(format!("cannot be read: {e}")))?;
    if !real.starts_with(&real_root) {
        return Err(refused(format!(
            "leads outside the project (to {}); a project's server starts inside it",
            real.display()
        )));
    }
    Ok(real)
}

/// The folders under the box's private `/tmp` or `/var/tmp` that a stdio server's program lives
/// in (the folder right below the temp folder, for the path as given and as resolved: an npm
/// package's `.bin` link leads into its `node_modules`). The box shows them read-only; without
/// them a server installed under `/tmp` could not start in it.
fn program_folders(command: &str) -> Vec<std::path::PathBuf> {
    if !command.contains('/') {
        return Vec::new();
    }
    let given = std::path::PathBuf::from(command);
    let resolved = std::fs::canonicalize(&given).ok();
    let mut folders = Vec::new();
    for path in std::iter::once(given).chain(resolved) {
        for temp in [Path::new("/tmp"), Path::new("/var/tmp")] {
            let Ok(rest) = path.strip_prefix(temp) else { continue };
            if let Some(first) = rest.components().next() {
                let folder = temp.join(first);
                if folder.is_dir() && !folders.contains(&folder) {
                    folders.push(folder);
                }
            }
        }
    }
    folders
}

/// The folder a user's server starts in (its `cwd`), shown read-only: the box's home shows only
/// toolchains, and a server the user keeps in a folder of the home runs from there. Never the
/// home or a folder holding it; hidden locations inside it stay hidden.
fn own_folder(cwd: Option<&Path>) -> Option<std::path::PathBuf> {
    let cwd = std::fs::canonicalize(cwd?).ok()?;
    let home = dirs::home_dir().map(|home| std::fs::canonicalize(&home).unwrap_or(home));
    let opens_the_home = cwd.parent().is_none() || home.is_some_and(|home| home.starts_with(&cwd));
    (cwd.is_dir() && !opens_the_home).then_some(cwd)
}

/// The session with an HTTP server whose entry signs Warden in by itself, without the browser
/// (client credentials, or the enterprise grant): signed in first when no token is kept, and once
/// more when the server refuses the kept one (it expired; these grants have no refresh token).
async fn serve_http_as_client(
    handler: WardenClient,
    url: &str,
    headers: &std::collections::BTreeMap<String, String>,
    client: &McpOAuthClient,
    credentials: KeychainCredentials,
    setup: &ClientSetup,
) -> Result<RunningService<RoleClient, WardenClient>, McpError> {
    let secrets = setup.secrets.as_ref();
    let fresh = !credentials.has_tokens().await;
    if fresh {
        client_credentials::sign_in_by_itself(url, credentials.clone(), client, secrets).await?;
    }
    match serve_http(handler.clone(), url, headers, Some(credentials.clone())).await {
        Err(McpError::NeedsSignIn { .. }) if !fresh => {
            credentials.forget().await?;
            client_credentials::sign_in_by_itself(url, credentials.clone(), client, secrets).await?;
            serve_http(handler, url, headers, Some(credentials)).await
        }
        served => served,
    }
}

/// The session with an HTTP server: with its OAuth tokens when the user signed in to it.
async fn serve_http(
    handler: WardenClient,
    url: &str,
    headers: &std::collections::BTreeMap<String, String>,
    credentials: Option<KeychainCredentials>,
) -> Result<RunningService<RoleClient, WardenClient>, McpError> {
    install_tls();
    let mut config = StreamableHttpClientTransportConfig::with_uri(url).custom_headers(header_map(headers)?);
    // What of a server's answer is held, as for a provider's (rmcp checks these as bytes arrive):
    // one SSE event, one JSON answer, the part of an error answer read.
    config.max_sse_event_size = crate::provider::sse::MAX_EVENT_BYTES;
    config.max_json_response_size = crate::provider::http::MAX_ANSWER_BODY;
    config.max_error_response_size = crate::provider::http::MAX_ERROR_BODY;
    let served = match credentials {
        Some(credentials) if credentials.has_tokens().await => {
            let (mut manager, _) = oauth::discovered(url, credentials, None).await?;
            let ready = manager.initialize_from_store().await.map_err(|e| McpError::SignIn(e.to_string()))?;
            if !ready {
                return Err(McpError::NeedsSignIn { challenge: None });
            }
            let client = reqwest_mcp::Client::builder()
                .redirect(reqwest_mcp::redirect::Policy::none())
                .build()
                .map_err(|e| McpError::Handshake(e.to_string()))?;
            handler
                .serve(StreamableHttpClientTransport::with_client(AuthClient::new(client, manager), config))
                .await
        }
        _ => handler.serve(StreamableHttpClientTransport::from_config(config)).await,
    };
    served.map_err(|error| match error.auth_challenge() {
        Some(challenge) => McpError::NeedsSignIn { challenge: Some(challenge.to_owned()) },
        None if error.is_authorization_required() => McpError::NeedsSignIn { challenge: None },
        None => McpError::Handshake(error.to_string()),
    })
}

fn header_map(
    headers: &std::collections::BTreeMap<String, String>,
) -> Result<HashMap<http::HeaderName, http::HeaderValue>, McpError> {
    headers
        .iter()
        .map(|(name, value)| {
            let name =
                http::HeaderName::from_bytes(name.as_bytes()).map_err(|_| McpError::Header(name.clone()))?;
            let mut value =
                http::HeaderValue::from_str(value).map_err(|_| McpError::Header(name.to_string()))?;
            value.set_sensitive(true);
            Ok((name, value))
        })
        .collect()
}

/// `error`, and the last thing the program wrote to stderr (given a moment to arrive).
async fn with_stderr(error: &str, stderr: &StderrTail) -> String {
    tokio::time::sleep(Duration::from_millis(100)).await;
    match stderr.lines().iter().rev().find(|line| !line.trim().is_empty()) {
        Some(last) => format!("{error} (the server said: {last})"),
        None => error.to_owned(),
    }
}

/// Sends `notifications/cancelled` for a request that is dropped before its answer came.
struct CancelOnDrop {
    peer: Option<rmcp::Peer<RoleClient>>,
    id: rmcp::model::RequestId,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        let Some(peer) = self.peer.take() else { return };
        let notice = CancelledNotification::new(CancelledNotificationParam::new(
            Some(self.id.clone()),
            Some("stopped by the user or Warden's time limit".to_owned()),
        ));
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                if let Err(error) = peer.send_notification(notice.into()).await {
                    tracing::debug!(%error, "could not tell the MCP server the call was cancelled");
                }
            });
        }
    }
}

impl Connection {
    /// The server's tools, listed again first when it said they changed.
    pub async fn tools(&self) -> Result<Vec<McpToolDef>, McpError> {
        self.shared.tool_list.current(self.service.peer()).await.map_err(|e| self.service_error(e))
    }

    async fn refresh_tools(&self) -> Result<(), McpError> {
        self.shared.tool_list.list(self.service.peer()).await.map_err(|e| self.service_error(e))
    }

    /// Which reading of the tool list the connection holds, and whether a newer one is announced
    /// or on its way (the next [`Connection::tools`] waits for it).
    pub fn tools_generation(&self) -> (u64, bool) {
        self.shared.tool_list.generation()
    }

    /// The server's resources ("name <uri>") and prompts, at most [`CATALOG_MAX`] of each; listed
    /// the first time they are asked for, and only when the server says it has them.
    pub async fn catalog(&self) -> (Vec<String>, Vec<String>) {
        self.catalog
            .get_or_init(|| async {
                let capabilities = self
                    .service
                    .peer_info()
                    .map(|info| serde_json::to_value(&info.capabilities).unwrap_or_default());
                let has = |what: &str| capabilities.as_ref().is_some_and(|c| c.get(what).is_some());
                let resources = if has("resources") {
                    match self.service.peer().list_all_resources().await {
                        Ok(list) => {
                            list.iter().take(CATALOG_MAX).map(|r| format!("{} <{}>", r.name, r.uri)).collect()
                        }
                        Err(error) => vec![format!("(could not list: {error})")],
                    }
                } else {
                    Vec::new()
                };
                let prompts = if has("prompts") {
                    match self.service.peer().list_all_prompts().await {
                        Ok(list) => list.iter().take(CATALOG_MAX).map(|p| p.name.to_string()).collect(),
                        Err(error) => vec![format!("(could not list: {error})")],
                    }
                } else {
                    Vec::new()
                };
                (resources, prompts)
            })
            .await
            .clone()
    }

    /// Read the resource at `uri` (within [`RESOURCE_READ_TIME`]).
    pub async fn read_resource(&self, uri: &str) -> Result<Vec<rmcp::model::ResourceContents>, McpError> {
        let params = rmcp::model::ReadResourceRequestParams::new(uri);
        match tokio::time::timeout(RESOURCE_READ_TIME, self.service.peer().read_resource(params)).await {
            Ok(read) => Ok(read.map_err(|e| self.service_error(e))?.contents),
            Err(_) => Err(McpError::Timeout(RESOURCE_READ_TIME.as_secs())),
        }
    }

    /// The last lines a stdio server wrote to stderr.
    pub fn stderr_tail(&self) -> Vec<String> {
        self.process.as_ref().map(|p| p.stderr.lines()).unwrap_or_default()
    }

    /// Apply the project's network `rules` to the server's box from its next connection on (a
    /// stdio server with the network; the others have no proxy).
    pub fn set_network_rules(&self, rules: &crate::containment::net::Rules) {
        if let Some(egress) = &self.egress {
            egress.proxy().set_rules(crate::containment::net::Rules { ask: true, ..rules.clone() });
        }
    }

    /// Whether a stdio server runs inside the sandbox (`None` for HTTP servers).
    pub fn contained(&self) -> Option<bool> {
        self.process.as_ref().map(|p| p.contained)
    }

    /// The process id of a stdio server's program (its process group's leader).
    pub fn pid(&self) -> Option<u32> {
        self.process.as_ref().and_then(|p| p.child.id())
    }

    pub fn is_closed(&self) -> bool {
        self.service.is_transport_closed()
    }

    /// Call `tool` with `arguments`; the result is the server's `CallToolResult` as JSON. Progress
    /// notifications go to `progress` as lines. Dropping the future before the answer (the call
    /// was stopped, or ran out of time) tells the server: `notifications/cancelled`.
    pub async fn call(
        &self,
        tool: &str,
        arguments: serde_json::Map<String, serde_json::Value>,
        progress: OutputSink,
    ) -> Result<serde_json::Value, McpError> {
        let params = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
        let peer = self.service.peer();
        let handle = peer
            .send_request_with_option(request, PeerRequestOptions::no_options())
            .await
            .map_err(|e| self.service_error(e))?;
        let _route = self.shared.route_progress(&handle.progress_token, progress);
        let mut unanswered = CancelOnDrop { peer: Some(peer.clone()), id: handle.id.clone() };
        let answer = handle.await_response().await;
        unanswered.peer = None;
        match answer.map_err(|e| self.service_error(e))? {
            ServerResult::CallToolResult(result) => {
                serde_json::to_value(result).map_err(|e| McpError::Server(e.to_string()))
            }
            _ => Err(McpError::Server(
                "the server answered the call with something other than a tool result".to_owned(),
            )),
        }
    }

    fn service_error(&self, error: rmcp::ServiceError) -> McpError {
        // A token that expired or lacks a scope the call needs: the user signs in (again).
        if let Some(challenge) = error.auth_challenge() {
            return McpError::NeedsSignIn { challenge: Some(challenge.to_owned()) };
        }
        if error.is_authorization_required() {
            return McpError::NeedsSignIn { challenge: None };
        }
        match error {
            rmcp::ServiceError::McpError(data) => McpError::Server(data.message.to_string()),
            rmcp::ServiceError::TransportClosed | rmcp::ServiceError::TransportSend(_) => McpError::Closed,
            rmcp::ServiceError::Timeout { timeout } => McpError::Timeout(timeout.as_secs()),
            other => McpError::Server(other.to_string()),
        }
    }

    /// End the session (and a stdio server's whole process tree).
    pub async fn close(self) {
        let Connection { service, process, .. } = self;
        let _ = tokio::time::timeout(Duration::from_secs(2), service.cancel()).await;
        drop(process);
    }
}

//! A project's own `.mcp.json`, approved, grants nothing by itself: its tools still ask (an entry's
//! `allow` is the user's to give), it sends no secret of the user's keychain anywhere (`keychain:`
//! in `headers`, `env`, an OAuth client's secret or ID token), it gets no sampling, and its program
//! runs in the agent's own command box — the project's network, the project's writable folders —
//! while a server of the user's own settings keeps what its entry says. Against the real
//! server-everything, a probe server of the SDK (`tests/mcp/servers/probe.mjs`) and loopback HTTP
//! servers that keep every byte they are sent.

use std::collections::BTreeMap;
use std::io::ErrorKind;
use std::sync::{Arc, Mutex};

use base64::Engine as _;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use warden_core::config::WardenHome;
use warden_core::containment::mechanism;
use warden_core::engine::{Engine, SessionSpec};
use warden_core::secrets::{MemoryStore, SecretStore};
use warden_protocol::{
    KeyName, McpServerConfig, NetworkMode, ProviderId, ToolApproval, ToolPermissions, ToolStatus, TrustLevel,
};
use warden_testkit::mcp::{server_bin, servers_dir};

/// The secret the user keeps for another server, as `keychain:OTHER`.
const OTHER_SECRET: &str = "kept-for-another-server-5f3a9c";

struct Place {
    _dirs: tempfile::TempDir,
    project: std::path::PathBuf,
    engine: Engine,
    store: Arc<MemoryStore>,
}

async fn place() -> Place {
    let dirs = tempfile::tempdir().unwrap();
    let project = std::fs::canonicalize(dirs.path()).unwrap().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let store = Arc::new(MemoryStore::new());
    store.set(KeyName::Anthropic, "test-key").await.unwrap();
    let engine = Engine::new(WardenHome::at(dirs.path().join("home")), store.clone()).unwrap();
    engine.keep_mcp_secret("OTHER", OTHER_SECRET).await.unwrap();
    Place { _dirs: dirs, project, engine, store }
}

/// Write the project's `.mcp.json` and approve it as the user would, for what it holds now.
fn approve_file(place: &Place, servers: Value) {
    std::fs::write(place.project.join(".mcp.json"), json!({ "mcpServers": servers }).to_string()).unwrap();
    let offer = place.engine.project_mcp_offer(&place.project).unwrap().expect("the file is offered");
    assert_eq!(offer.error, None);
    place.engine.choose_project_mcp(&place.project, &offer.digest, true).unwrap();
}

fn spec(place: &Place, own: BTreeMap<String, McpServerConfig>) -> SessionSpec {
    let mut spec = SessionSpec::new(place.project.clone());
    spec.provider = ProviderId::Anthropic;
    spec.model = Some("test-model".to_owned());
    spec.trust = TrustLevel::Guided;
    spec.approval_timeout_secs = Some(20);
    spec.mcp_servers = own;
    spec
}

fn everything() -> Value {
    json!({"command": server_bin("mcp-server-everything"), "args": ["stdio"]})
}

/// Call `tool` as `warden tool` does, approving when asked; the result's text and whether it asked.
async fn call(
    place: &Place,
    own: BTreeMap<String, McpServerConfig>,
    tool: &str,
    input: Value,
) -> (String, bool) {
    let asked = Mutex::new(false);
    let shot = place
        .engine
        .run_tool(
            spec(place, own.clone()),
            tool,
            input,
            |_, _| {},
            |confirm| {
                *asked.lock().unwrap() = true;
                async move {
                    ToolApproval {
                        confirm_id: confirm.confirm_id,
                        approved: true,
                        reason: None,
                        remember: None,
                        always: None,
                    }
                }
            },
        )
        .await;
    let shot = match shot {
        Ok(shot) => shot,
        Err(e) => {
            // Why a server's tool is missing: its state, error and last words.
            let servers = place.engine.mcp_statuses(&place.project, &own).await;
            panic!("{tool}: {e}; the servers: {servers:?}")
        }
    };
    assert_eq!(shot.result.status, ToolStatus::Success, "{:?}", shot.result);
    let asked = *asked.lock().unwrap();
    (shot.result.result, asked)
}

#[tokio::test]
async fn a_project_tool_marked_allow_still_asks_in_guided() {
    let place = place().await;
    let mut entry = everything();
    entry["tools"] = json!({"get-sum": "allow", "echo": "allow"});
    approve_file(&place, json!({ "everything": entry }));
    for (tool, input) in [("get-sum", json!({"a": 1, "b": 2})), ("echo", json!({"message": "hi"}))] {
        let (_, asked) = call(&place, BTreeMap::new(), &format!("mcp__everything__{tool}"), input).await;
        assert!(asked, "the project's own `allow` let `{tool}` run unasked in Guided");
    }
    place.engine.close_mcp_servers().await;

    // The same entry in the user's own settings: the user's `allow` holds.
    let own: McpServerConfig = serde_json::from_value(entry).unwrap();
    let own = BTreeMap::from([("everything".to_owned(), own)]);
    let (sum, asked) = call(&place, own, "mcp__everything__get-sum", json!({"a": 1, "b": 2})).await;
    assert!(!asked, "the user's own `allow` runs the tool unasked");
    assert!(sum.contains('3'), "{sum}");
    place.engine.close_mcp_servers().await;
}

/// A loopback HTTP server that keeps every byte it is sent. It plays an MCP server that wants a
/// sign-in (`/mcp`: 401), its authorization server (metadata at the root of its origin, a token
/// endpoint) and an identity provider (`/idp/token`); the token endpoints refuse every client.
struct Recorder {
    origin: String,
    seen: Arc<Mutex<Vec<u8>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Recorder {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Recorder {
    async fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let origin = format!("http://{}", listener.local_addr().unwrap());
        let seen = Arc::new(Mutex::new(Vec::new()));
        let metadata = json!({
            "issuer": origin,
            "authorization_endpoint": format!("{origin}/oauth/authorize"),
            "token_endpoint": format!("{origin}/oauth/token"),
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "client_credentials",
                "urn:ietf:params:oauth:grant-type:jwt-bearer"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
        })
        .to_string();
        let kept = seen.clone();
        let task = tokio::spawn(async move {
            loop {
                let Ok((socket, _)) = listener.accept().await else { return };
                tokio::spawn(answer(socket, metadata.clone(), kept.clone()));
            }
        });
        Self { origin, seen, task }
    }

    fn url(&self) -> String {
        format!("{}/mcp", self.origin)
    }

    fn seen(&self) -> String {
        String::from_utf8_lossy(&self.seen.lock().unwrap()).into_owned()
    }
}

/// Read one request whole (head and body), keep it, answer by its path.
async fn answer(mut socket: TcpStream, metadata: String, seen: Arc<Mutex<Vec<u8>>>) {
    let mut request = Vec::new();
    let mut chunk = [0u8; 8192];
    let head_end = loop {
        if let Some(i) = request.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        match socket.read(&mut chunk).await {
            Ok(0) | Err(_) => {
                seen.lock().unwrap().extend_from_slice(&request);
                return;
            }
            Ok(n) => request.extend_from_slice(&chunk[..n]),
        }
    };
    let head = String::from_utf8_lossy(&request[..head_end]).to_ascii_lowercase();
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    while request.len() < head_end + length {
        match socket.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => request.extend_from_slice(&chunk[..n]),
        }
    }
    seen.lock().unwrap().extend_from_slice(&request);
    let path = head.split_whitespace().nth(1).unwrap_or("").to_owned();
    let (status, extra, body) = match path.as_str() {
        "/mcp" => ("401 Unauthorized", "WWW-Authenticate: Bearer\r\n", String::new()),
        "/.well-known/oauth-authorization-server" => ("200 OK", "", metadata),
        "/oauth/token" | "/idp/token" => {
            ("401 Unauthorized", "", json!({"error": "invalid_client"}).to_string())
        }
        _ => ("404 Not Found", "", String::new()),
    };
    let reply = format!(
        "HTTP/1.1 {status}\r\n{extra}content-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = socket.write_all(reply.as_bytes()).await;
}

/// Whether `seen` holds the secret in any form it could be sent in: as is, in HTTP Basic
/// (`client:secret`, base64) or form-encoded.
fn holds_secret(seen: &str, client_ids: &[&str]) -> bool {
    let basic = |id: &str| base64::engine::general_purpose::STANDARD.encode(format!("{id}:{OTHER_SECRET}"));
    seen.contains(OTHER_SECRET)
        || client_ids.iter().any(|id| seen.contains(&basic(id)))
        || seen.contains(&url::form_urlencoded::byte_serialize(OTHER_SECRET.as_bytes()).collect::<String>())
}

#[tokio::test]
async fn a_project_entry_never_gets_a_keychain_secret_sent_anywhere() {
    let place = place().await;
    let header = Recorder::start().await;
    let client_secret = Recorder::start().await;
    let id_token = Recorder::start().await;
    // The identity provider is another server (it must not be the authorization server).
    let provider = Recorder::start().await;
    approve_file(
        &place,
        json!({
            "header": {"url": header.url(), "headers": {"Authorization": "keychain:OTHER", "X-Plain": "plain-value"}},
            "client": {"url": client_secret.url(), "oauth": {"clientId": "project-client",
                "clientSecret": "keychain:OTHER", "grant": "client_credentials"}},
            "enterprise": {"url": id_token.url(), "oauth": {"clientId": "project-client", "grant": "enterprise",
                "idp": {"issuer": provider.origin, "tokenEndpoint": format!("{}/idp/token", provider.origin),
                    "clientId": "idp-client", "idToken": "keychain:OTHER"}}},
        }),
    );
    // Listing starts every server: each reaches its address.
    let statuses = place.engine.mcp_statuses(&place.project, &BTreeMap::new()).await.unwrap();
    assert_eq!(statuses.len(), 3, "{statuses:?}");
    for (what, recorders) in [
        ("an `Authorization: keychain:OTHER` header", [&header, &header]),
        ("`oauth.clientSecret: keychain:OTHER`", [&client_secret, &client_secret]),
        ("`oauth.idp.idToken: keychain:OTHER`", [&id_token, &provider]),
    ] {
        let seen = recorders[0].seen() + &recorders[1].seen();
        assert!(!seen.is_empty(), "{what}: the server was never reached");
        assert!(
            !holds_secret(&seen, &["project-client", "idp-client"]),
            "{what} in a project's entry sent the user's secret:\n{seen}"
        );
    }
    assert!(header.seen().contains("plain-value"), "a plain header is the project's to send");
    place.engine.close_mcp_servers().await;

    // In `env`: the program never gets it.
    let mut entry = everything();
    entry["env"] = json!({"SERVICE_TOKEN": "keychain:OTHER", "PLAIN_SETTING": "plain-env-value"});
    approve_file(&place, json!({ "everything": entry }));
    let (environment, _) = call(&place, BTreeMap::new(), "mcp__everything__get-env", json!({})).await;
    assert!(!environment.contains(OTHER_SECRET), "a project's `env` got the user's secret:\n{environment}");
    assert!(environment.contains("plain-env-value"), "a literal value is the project's to set");
    place.engine.close_mcp_servers().await;

    // The user's own entry naming the same secret gets it (as before).
    let own: McpServerConfig = serde_json::from_value(entry).unwrap();
    let own = BTreeMap::from([("mine".to_owned(), own)]);
    let (environment, _) = call(&place, own, "mcp__mine__get-env", json!({})).await;
    assert!(environment.contains(OTHER_SECRET), "the user's own entry gets its secret");
    place.engine.close_mcp_servers().await;
}

/// The user once signed in to a server `remote` at an address and later removed it from their
/// settings (its tokens stay in the keychain until they sign out). A project naming a server
/// `remote` at that address does not get that sign-in: it has a sign-in of its own, and needs one.
#[tokio::test]
async fn a_project_server_does_not_get_the_users_sign_in_to_the_same_address() {
    use oauth2::basic::BasicTokenType;
    use oauth2::AccessToken;
    use rmcp::transport::auth::{OAuthTokenResponse, VendorExtraTokenFields};
    use warden_core::mcp::auth::oauth::KeychainCredentials;

    const TOKEN: &str = "users-own-access-token-81c2";
    let place = place().await;
    let server = Recorder::start().await;
    let token = OAuthTokenResponse::new(
        AccessToken::new(TOKEN.to_owned()),
        BasicTokenType::Bearer,
        VendorExtraTokenFields::default(),
    );
    KeychainCredentials::new(place.store.clone(), "remote", &server.url())
        .keep_token("warden", token, Vec::new(), Some(server.origin.clone()))
        .await
        .unwrap();
    approve_file(&place, json!({"remote": {"url": server.url()}}));
    let statuses = place.engine.mcp_statuses(&place.project, &BTreeMap::new()).await.unwrap();
    let seen = server.seen();
    assert!(!seen.is_empty(), "the server was never reached");
    assert!(!seen.contains(TOKEN), "a project's server got the user's own sign-in:\n{seen}");
    assert_eq!(statuses[0].state, warden_protocol::McpServerState::NeedsSignIn, "{statuses:?}");
    place.engine.close_mcp_servers().await;

    // The user's own entry of that name and address uses it (as before).
    let own = McpServerConfig { url: Some(server.url()), ..McpServerConfig::default() };
    let _ = place.engine.mcp_statuses(&place.project, &BTreeMap::from([("remote".to_owned(), own)])).await;
    assert!(server.seen().contains(&format!("Bearer {TOKEN}")), "the user's own sign-in is used");
    place.engine.close_mcp_servers().await;
}

/// Says whether it was asked about sampling, and declines; fills in no forms.
struct Declines;

#[async_trait::async_trait]
impl warden_core::mcp::Elicitor for Declines {
    async fn elicit(&self, _: &str, _: &str, _: &Value) -> warden_core::mcp::Elicitation {
        warden_core::mcp::Elicitation::Decline
    }

    async fn allow_sampling(&self, _: &str, _: &str) -> bool {
        false
    }
}

#[tokio::test]
async fn a_project_entry_gets_no_sampling() {
    let place = place().await;
    place.engine.set_mcp_elicitor(Arc::new(Declines));
    let mut entry = everything();
    entry["sampling"] = json!(true);
    approve_file(&place, json!({ "everything": entry }));
    let names = |session: &warden_core::agent::Session| -> Vec<String> {
        session.tool_definitions().into_iter().map(|d| d.name).filter(|n| n.starts_with("mcp__")).collect()
    };
    // server-everything has its sampling tool only when the client offers sampling.
    let (session, _events) = place.engine.start(spec(&place, BTreeMap::new())).await.unwrap();
    let offered = names(&session);
    assert!(offered.contains(&"mcp__everything__echo".to_owned()), "{offered:?}");
    assert!(!offered.iter().any(|n| n.contains("sampling")), "a project's entry got sampling: {offered:?}");
    place.engine.close_mcp_servers().await;

    let own: McpServerConfig = serde_json::from_value(entry).unwrap();
    let (session, _events) =
        place.engine.start(spec(&place, BTreeMap::from([("everything".to_owned(), own)]))).await.unwrap();
    assert!(names(&session).iter().any(|n| n.contains("sampling")), "the user's own entry may sample");
    place.engine.close_mcp_servers().await;
}

/// The probe server (`tests/mcp/servers/probe.mjs`) as an entry, asking for the network.
fn probe() -> Value {
    json!({
        "command": server_bin("node"),
        "args": [servers_dir().join("servers/probe.mjs")],
        "network": true,
    })
}

/// How many connections `listener` has taken (accepted now: a completed handshake waits there).
fn accepted(listener: &std::net::TcpListener) -> usize {
    let mut count = 0;
    loop {
        match listener.accept() {
            Ok(_) => count += 1,
            Err(e) if e.kind() == ErrorKind::WouldBlock => return count,
            Err(e) => panic!("accept: {e}"),
        }
    }
}

#[tokio::test]
async fn a_project_server_runs_in_the_agents_box_without_the_projects_network() {
    assert!(mechanism().is_contained(), "this test needs the sandbox: {}", mechanism().describe());
    let place = place().await;
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    // Outside the project, on the real file system (not under /tmp, which the box replaces).
    let outside = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let canary = outside.path().join("canary.txt");
    std::fs::write(&canary, "untouched").unwrap();
    let inside = place.project.join("written-by-the-server.txt");
    let connect = json!({"host": "127.0.0.1", "port": port});
    // With the network a box's way out is Warden's proxy, on the box's own loopback; this machine's
    // loopback (the listener) is never reached directly, network or not.
    let proxy = json!({"host": "127.0.0.1", "port": warden_core::containment::net::PORT_IN_BOX});
    let write = |path: &std::path::Path| json!({"path": path, "text": "owned"});

    // The project's network is off: the server's own code gets none, whatever its entry says, and
    // writes only where the agent's commands may.
    let project_network = |mode: NetworkMode| {
        let mut settings = place.engine.settings();
        let perms = ToolPermissions { network: mode, ..ToolPermissions::default() };
        settings.tool_permissions.insert(place.project.to_string_lossy().into_owned(), perms);
        place.engine.save_settings(settings).unwrap();
    };
    project_network(NetworkMode::Off);
    approve_file(&place, json!({ "probe": probe() }));
    let (said, _) = call(&place, BTreeMap::new(), "mcp__probe__connect", connect.clone()).await;
    assert_eq!(accepted(&listener), 0, "a project's server reached a loopback listener: {said}");
    assert!(said.starts_with("refused"), "{said}");
    let (said, _) = call(&place, BTreeMap::new(), "mcp__probe__connect", proxy.clone()).await;
    assert!(said.starts_with("refused"), "a project's server got the proxy: {said}");
    let (said, _) = call(&place, BTreeMap::new(), "mcp__probe__write", write(&canary)).await;
    assert!(said.starts_with("refused"), "{said}");
    assert_eq!(std::fs::read_to_string(&canary).unwrap(), "untouched");
    let (said, _) = call(&place, BTreeMap::new(), "mcp__probe__write", write(&inside)).await;
    assert_eq!(said, "written", "the project is the server's to write, as the agent's");
    assert_eq!(std::fs::read_to_string(&inside).unwrap(), "owned");
    place.engine.close_mcp_servers().await;

    // The same program as the user's own entry keeps what its entry says: the network.
    let own: McpServerConfig = serde_json::from_value(probe()).unwrap();
    let own = BTreeMap::from([("mine".to_owned(), own)]);
    let (said, _) = call(&place, own.clone(), "mcp__mine__connect", proxy.clone()).await;
    assert_eq!(said, "connected", "the user's server has the proxy");
    let (said, _) = call(&place, own.clone(), "mcp__mine__connect", connect.clone()).await;
    assert_eq!(accepted(&listener), 0, "the user's server reached this machine's loopback directly: {said}");
    let (said, _) = call(&place, own, "mcp__mine__write", write(&canary)).await;
    assert!(said.starts_with("refused"), "the user's server is boxed too: {said}");
    assert_eq!(std::fs::read_to_string(&canary).unwrap(), "untouched");
    place.engine.close_mcp_servers().await;

    // The project's commands get the network (`rules`, the default of a project with no setting):
    // so does its server; one whose entry says `"network": false` gets none (an entry may take
    // away, never add).
    let mut settings = place.engine.settings();
    settings.tool_permissions.clear();
    place.engine.save_settings(settings).unwrap();
    let (said, _) = call(&place, BTreeMap::new(), "mcp__probe__connect", proxy.clone()).await;
    assert_eq!(said, "connected", "the project's server has the proxy as its commands do");
    // Switched off while the server runs: the next use starts it in the new box.
    project_network(NetworkMode::Off);
    let (said, _) = call(&place, BTreeMap::new(), "mcp__probe__connect", proxy.clone()).await;
    assert!(said.starts_with("refused"), "a running project server kept the network: {said}");
    place.engine.close_mcp_servers().await;
    project_network(NetworkMode::Rules);
    let mut quiet = probe();
    quiet["network"] = json!(false);
    approve_file(&place, json!({ "probe": quiet }));
    let (said, _) = call(&place, BTreeMap::new(), "mcp__probe__connect", proxy).await;
    assert!(said.starts_with("refused"), "{said}");
    let (said, _) = call(&place, BTreeMap::new(), "mcp__probe__connect", connect).await;
    assert_eq!(accepted(&listener), 0, "{said}");
    place.engine.close_mcp_servers().await;
}

/// A project's server runs in a box that outlives every call. A repository made while it runs —
/// here by the user, outside any box — is not read-only in that box, so the server's own code can
/// give it a hook at any moment; the sweep after each call took the repository as there before
/// (it was, when the call began). Now it counts as new while the server runs: the hook is moved
/// aside after the call that wrote it, and the user's repository keeps nothing of the server's.
#[tokio::test]
async fn a_hook_a_servers_box_writes_into_a_repository_made_while_it_runs_is_moved_aside() {
    assert!(mechanism().is_contained(), "this test needs the sandbox: {}", mechanism().describe());
    let place = place().await;
    approve_file(&place, json!({ "probe": probe() }));
    let write = |path: std::path::PathBuf, text: &str| json!({"path": path, "text": text});
    // Started by a first call, while the project has no repository.
    let (said, _) =
        call(&place, BTreeMap::new(), "mcp__probe__write", write(place.project.join("started.txt"), "x"))
            .await;
    assert_eq!(said, "written");
    let git = std::process::Command::new("git").args(["init", "-q"]).current_dir(&place.project).status();
    assert!(git.unwrap().success());
    let hook = place.project.join(".git/hooks/pre-commit");
    let (said, _) =
        call(&place, BTreeMap::new(), "mcp__probe__write", write(hook.clone(), "#!/bin/sh\ntouch HOOKED\n"))
            .await;
    assert!(said.starts_with("written"), "{said}");
    assert!(!hook.exists(), "the server's hook is in the user's repository: {said}");
    assert!(said.contains("have run as a git hook"), "{said}");
    place.engine.close_mcp_servers().await;
}

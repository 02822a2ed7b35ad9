//! Signing in to an MCP server over HTTP with OAuth, against the official TypeScript SDK's
//! example server with its OAuth on: refused until signed in (Warden says so and does not retry
//! in a loop), the whole flow through the browser and the loopback redirect, the tokens in the
//! keychain (never anywhere else), then the server's tools work.

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use warden_core::mcp::{BrowserAuthorizer, ClientSetup, ServerSlot, OPENER_ENV};
use warden_core::secrets::{MemoryStore, SecretStore};
use warden_core::tool::OutputSink;
use warden_protocol::McpServerState;
use warden_testkit::mcp::{following_browser, OAuthServer};

use super::*;

/// The OAuth server as a configured server whose tokens go to `store`.
fn secure_slot(
    server: &OAuthServer,
    dir: &tempfile::TempDir,
    store: Arc<dyn SecretStore>,
) -> Arc<ServerSlot> {
    let setup = ClientSetup { secrets: Some(store), ..ClientSetup::default() };
    ServerSlot::with_setup(http("secure", &server.url()), root(dir), None, setup, Duration::from_secs(20))
}

#[tokio::test]
async fn a_server_that_needs_a_sign_in_works_after_the_user_signs_in() {
    let server = OAuthServer::start();
    let dir = project();
    #[allow(
        clippy::disallowed_methods,
        reason = "no credential; the only tests of this binary that open a browser"
    )]
    std::env::set_var(OPENER_ENV, following_browser(dir.path()));
    let store = Arc::new(MemoryStore::new());
    let slot = secure_slot(&server, &dir, store.clone());

    let refused = slot.connection().await.err().unwrap();
    assert!(refused.contains("needs you to sign in"), "{refused}");
    assert_eq!(slot.status().await.state, McpServerState::NeedsSignIn);
    assert_eq!(store.entry_count(), 0);

    let pages = Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = pages.clone();
    let authorizer =
        BrowserAuthorizer::bind(move |page| seen.lock().unwrap().push(page.to_owned())).await.unwrap();
    tokio::time::timeout(Duration::from_secs(60), slot.sign_in(&authorizer)).await.unwrap().unwrap();
    let page = pages.lock().unwrap()[0].clone();
    assert!(page.contains("code_challenge=") && page.contains("code_challenge_method=S256"), "PKCE: {page}");
    assert!(store.entry_count() >= 1, "the tokens are in the keychain");

    let connection = slot.connection().await.unwrap();
    assert_eq!(slot.status().await.state, McpServerState::Connected);
    let greeting = connection
        .call("greet", json!({"name": "Warden"}).as_object().cloned().unwrap(), OutputSink::none())
        .await
        .unwrap();
    assert!(text_of(&greeting).contains("Warden"), "{greeting}");
    drop(connection);

    // A fresh start (another run of Warden) signs in from the keychain, with no browser.
    #[allow(
        clippy::disallowed_methods,
        reason = "no credential; the only tests of this binary that open a browser"
    )]
    std::env::set_var(OPENER_ENV, "/nonexistent/browser");
    let again = secure_slot(&server, &dir, store.clone());
    let connection = again.connection().await.unwrap();
    assert!(!connection.tools().await.unwrap().is_empty());
}

/// The same sign-in with the real keychain (gnome-keyring under D-Bus, as `scripts/test.sh` runs
/// it): the tokens are in Secret Service entries of Warden's, each under the size Windows allows,
/// and signing out removes them.
#[tokio::test]
#[ignore = "needs a Secret Service session (scripts/test.sh runs it)"]
async fn keychain_holds_an_mcp_servers_tokens_and_a_sign_out_removes_them() {
    use warden_core::mcp::auth::oauth::KeychainCredentials;
    use warden_core::secrets::KeychainStore;

    let server = OAuthServer::start();
    let dir = project();
    #[allow(
        clippy::disallowed_methods,
        reason = "no credential; the only tests of this binary that open a browser"
    )]
    std::env::set_var(OPENER_ENV, following_browser(dir.path()));
    let service = format!("dev.warden.test.{}", std::process::id());
    let store: Arc<dyn SecretStore> = Arc::new(KeychainStore::new(&service));
    let slot = secure_slot(&server, &dir, store.clone());
    assert!(slot.connection().await.is_err());
    let authorizer = BrowserAuthorizer::bind(|_| {}).await.unwrap();
    tokio::time::timeout(Duration::from_secs(60), slot.sign_in(&authorizer)).await.unwrap().unwrap();
    assert!(slot.connection().await.is_ok());

    // What the platform's own tool finds under Warden's service: the entry, no longer than 2 KB.
    let search = std::process::Command::new("secret-tool")
        .args(["search", "--all", "service", &service])
        .output()
        .unwrap();
    let found =
        String::from_utf8_lossy(&search.stdout).into_owned() + &String::from_utf8_lossy(&search.stderr);
    assert!(found.contains("mcp-oauth/secure/"), "{found}");
    for line in found.lines().filter(|l| l.starts_with("secret = ")) {
        assert!(line.len() - "secret = ".len() <= 2048, "an entry is longer than Windows allows");
    }

    let credentials = KeychainCredentials::new(store.clone(), "secure", &server.url());
    assert!(credentials.has_tokens().await);
    credentials.forget().await.unwrap();
    assert!(!credentials.has_tokens().await);
    let search = std::process::Command::new("secret-tool")
        .args(["search", "--all", "service", &service])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&search.stderr).contains("mcp-oauth"), "a sign-out leaves nothing");
}

/// Issue 31, item 12: an MCP sign-in through the engine, as the window and `warden mcp login` do
/// it, with the real keychain: the tokens are in the keychain and in no file of Warden's home or
/// of the project. Every value of the stored token (access and refresh token…) is looked for,
/// byte for byte, in every file there.
#[tokio::test]
#[ignore = "needs a Secret Service session (scripts/test.sh runs it)"]
async fn keychain_alone_holds_an_mcp_sign_ins_tokens() {
    use warden_core::config::WardenHome;
    use warden_core::engine::Engine;
    use warden_core::secrets::KeychainStore;
    use warden_protocol::{McpServerConfig, Settings};

    let server = OAuthServer::start();
    let dirs = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dirs.path()).unwrap();
    let (home, project) = (root.join("warden-home"), root.join("project"));
    std::fs::create_dir_all(&project).unwrap();
    #[allow(
        clippy::disallowed_methods,
        reason = "no credential; the only tests of this binary that open a browser"
    )]
    std::env::set_var(OPENER_ENV, following_browser(&project));
    let service = format!("dev.warden.test.home.{}", std::process::id());
    let store: Arc<dyn SecretStore> = Arc::new(KeychainStore::new(&service));
    let engine = Engine::new(WardenHome::at(&home), store.clone()).unwrap();
    let secure = McpServerConfig { url: Some(server.url()), ..McpServerConfig::default() };
    engine
        .save_settings(Settings {
            project_dir: Some(project.to_string_lossy().into_owned()),
            mcp_servers: [("secure".to_owned(), secure)].into(),
            ..Settings::default()
        })
        .unwrap();
    let authorizer = BrowserAuthorizer::bind(|_| {}).await.unwrap();
    tokio::time::timeout(Duration::from_secs(60), engine.mcp_sign_in("secure", &authorizer))
        .await
        .unwrap()
        .unwrap();

    // What the keychain holds for the server: every string in it is a value to look for.
    let credentials =
        warden_core::mcp::auth::oauth::KeychainCredentials::new(store.clone(), "secure", &server.url());
    assert!(credentials.has_tokens().await, "the tokens are in the keychain");
    let kept = rmcp::transport::auth::CredentialStore::load(&credentials).await.unwrap().unwrap();
    let kept = serde_json::to_value(&kept).unwrap();
    let mut secrets = Vec::new();
    strings_of(&kept["token_response"], &mut secrets);
    secrets.retain(|s| s.len() >= 16);
    assert!(!secrets.is_empty(), "no token in what the keychain holds: {kept}");

    for dir in [&home, &project, &root] {
        for file in files_under(dir) {
            let bytes = std::fs::read(&file).unwrap_or_default();
            for secret in &secrets {
                assert!(
                    !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
                    "a token of the sign-in is in {}",
                    file.display()
                );
            }
        }
    }
    credentials.forget().await.unwrap();
    engine.close_mcp_servers().await;
}

fn strings_of(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(items) => items.iter().for_each(|v| strings_of(v, out)),
        serde_json::Value::Object(map) => map.values().for_each(|v| strings_of(v, out)),
        _ => {}
    }
}

fn files_under(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            match entry.file_type() {
                Ok(t) if t.is_dir() => pending.push(entry.path()),
                Ok(t) if t.is_file() => files.push(entry.path()),
                _ => {}
            }
        }
    }
    files
}

//! A sign-in that comes before any MCP connection in the process — `warden mcp login NAME` does
//! exactly that, and so does a client-credentials entry — built rmcp's HTTP client before anything
//! had installed the process's TLS provider, and that panics. A test binary of its own, so nothing
//! else in the process installs the provider first.

use std::sync::Arc;

use warden_core::mcp::auth::oauth::{manager, KeychainCredentials};
use warden_core::secrets::{MemoryStore, SecretStore};

#[tokio::test]
async fn a_sign_in_before_any_connection_does_not_panic() {
    let url = "http://127.0.0.1:9/mcp";
    let store: Arc<dyn SecretStore> = Arc::new(MemoryStore::new());
    let credentials = KeychainCredentials::new(store, "first", url);
    let started = manager(url, credentials).await;
    assert!(started.is_ok(), "the sign-in's client is built: {:?}", started.err().map(|e| e.to_string()));
}

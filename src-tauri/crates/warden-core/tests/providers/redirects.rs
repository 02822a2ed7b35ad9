//! A redirect never carries a credential to another origin: the base URL answers `307` pointing at a
//! second server, and that server must see nothing — for every wire, the model list (which is also
//! the settings' connection test) and web search's Brave key.

use serde_json::json;
use warden_core::provider::{ErrorCategory, ProviderKind};
use warden_core::secrets::ApiKey;
use warden_core::tool::{ToolRegistry, ToolsConfig};
use warden_protocol::{ToolCall, ToolErrorCode};

use super::common::*;
use crate::support::collect::collect;
use crate::support::server::{Reply, TestServer};

const KINDS: [ProviderKind; 3] = [ProviderKind::Anthropic, ProviderKind::OpenAi, ProviderKind::Ollama];

fn redirect_to(target: &str) -> Reply {
    Reply::http(
        format!(
            "HTTP/1.1 307 Temporary Redirect\r\nlocation: {target}/steal?token=abc\r\ncontent-length: 0\r\n\r\n"
        )
        .into_bytes(),
    )
}

/// The elsewhere server got no request at all (and so no key); the base URL got the key once per call.
fn assert_nothing_followed(elsewhere: &TestServer, label: &str) {
    let seen = elsewhere.requests();
    assert!(seen.is_empty(), "{label}: the redirect was followed: {seen:?}");
}

fn assert_clear(message: &str, elsewhere: &TestServer, label: &str) {
    assert!(message.contains("redirect") && message.contains("307"), "{label}: {message}");
    assert!(message.contains(&elsewhere.url), "{label}: the message names the target origin: {message}");
    assert!(!message.contains("token=abc"), "{label}: only the origin is named: {message}");
    assert!(!message.contains(TEST_KEY), "{label}: {message}");
}

#[tokio::test]
async fn a_streamed_request_does_not_follow_a_redirect_with_the_key() {
    for kind in KINDS {
        let elsewhere = TestServer::start(vec![Reply::json(b"{}".to_vec())]).await;
        let base_server = TestServer::start((0..4).map(|_| redirect_to(&elsewhere.url)).collect()).await;
        let provider = provider(kind, &base(kind, &base_server));
        let collected = collect(provider.stream(simple_request("m"))).await;
        let error = collected.expect_error();
        assert_eq!(error.status, Some(307), "{kind}");
        assert_eq!(error.category, ErrorCategory::BadRequest, "{kind}: not retried");
        assert_clear(&error.message, &elsewhere, &kind.to_string());
        assert_nothing_followed(&elsewhere, &kind.to_string());
        assert_eq!(base_server.requests().len(), 1, "{kind}: a redirect is not retried");
    }
}

#[tokio::test]
async fn the_model_list_and_connection_test_do_not_follow_a_redirect_with_the_key() {
    for kind in KINDS {
        let elsewhere = TestServer::start(vec![Reply::json(b"{}".to_vec())]).await;
        let base_server = TestServer::start((0..4).map(|_| redirect_to(&elsewhere.url)).collect()).await;
        let provider = provider(kind, &base(kind, &base_server));
        let error = provider.list_models().await.expect_err("a redirect is an error");
        assert_eq!(error.status, Some(307), "{kind}");
        assert_clear(&error.message, &elsewhere, &kind.to_string());
        let error = provider.validate_credentials().await.expect_err("a redirect is an error");
        assert_eq!(error.status, Some(307), "{kind}");
        assert_nothing_followed(&elsewhere, &kind.to_string());
    }
}

#[tokio::test]
async fn web_search_does_not_carry_the_brave_key_to_another_origin() {
    let elsewhere = TestServer::start(vec![Reply::json(b"{}".to_vec())]).await;
    let brave = TestServer::start((0..2).map(|_| redirect_to(&elsewhere.url)).collect()).await;
    // SearXNG unreachable, so Brave is asked.
    let dead = {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        format!("http://{}", listener.local_addr().expect("addr"))
    };
    let config = ToolsConfig {
        searxng_url: dead,
        brave_api_key: ApiKey::new("brave-test-key"),
        brave_base_url: brave.url.clone(),
        web_timeout: std::time::Duration::from_secs(5),
        ..Default::default()
    };
    let project = tempfile::TempDir::new().expect("project");
    let home = tempfile::TempDir::new().expect("home");
    let storage = warden_core::config::WardenHome::at(home.path()).project_dir(project.path());
    let scope = warden_core::scope::Scope::read_only();
    let workspace = warden_core::sandbox::Workspace::new(project.path(), storage, scope).expect("workspace");
    let registry = ToolRegistry::with_core_tools(config);
    let ctx = registry.context(std::sync::Arc::new(workspace));
    let call =
        ToolCall { id: "toolu_test".to_owned(), name: "web_search".to_owned(), input: json!({"query": "x"}) };
    let out = registry.execute(&call, ctx).await;
    assert_eq!(out.code, Some(ToolErrorCode::ExecutionError), "{}", out.content);
    assert_eq!(brave.requests().len(), 1, "Brave was asked");
    assert_eq!(brave.requests()[0].header("x-subscription-token"), Some("brave-test-key"));
    assert_nothing_followed(&elsewhere, "brave");
}

//! `web_search` against a real loopback HTTP server replaying the SearXNG and Brave wire fixtures.

use std::sync::{Arc, Mutex};

use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use warden_core::secrets::ApiKey;
use warden_core::tool::ToolsConfig;
use warden_protocol::ToolErrorCode;

use super::common::*;

fn wire(rel: &str) -> Vec<u8> {
    warden_testkit::fixture(rel)
}

fn ok_json(body: Vec<u8>) -> Vec<u8> {
    let mut response =
        format!("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n", body.len())
            .into_bytes();
    response.extend(body);
    response
}

fn raw(status: &str, content_type: &str, body: &str) -> Vec<u8> {
    format!(
        "HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// A loopback server answering `/search…` with `searx` and `/res/v1/web/search…` with `brave`,
/// recording every request head it received.
struct Server {
    url: String,
    requests: Arc<Mutex<Vec<String>>>,
}

async fn serve(searx: Option<Vec<u8>>, brave: Option<Vec<u8>>) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind loopback");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    let requests = Arc::new(Mutex::new(Vec::new()));
    let seen = requests.clone();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let (searx, brave, seen) = (searx.clone(), brave.clone(), seen.clone());
            tokio::spawn(async move {
                let mut head = Vec::new();
                let mut buf = [0u8; 4096];
                while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                    match socket.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => head.extend_from_slice(&buf[..n]),
                    }
                }
                let head = String::from_utf8_lossy(&head).into_owned();
                let path = head.split_whitespace().nth(1).unwrap_or("").to_owned();
                seen.lock().expect("lock").push(head);
                let response = if path.starts_with("/search") {
                    searx
                } else if path.starts_with("/res/v1/web/search") {
                    brave
                } else {
                    None
                };
                let response = response.unwrap_or_else(|| raw("404 Not Found", "text/plain", "no route"));
                let _ = socket.write_all(&response).await;
                let _ = socket.shutdown().await;
            });
        }
    });
    Server { url, requests }
}

fn env_for(searx_url: &str, brave: Option<&Server>) -> TestEnv {
    let config = ToolsConfig {
        searxng_url: searx_url.to_owned(),
        brave_api_key: brave.and_then(|_| ApiKey::new("brave-test-key")),
        brave_base_url: brave.map(|b| b.url.clone()).unwrap_or_default(),
        web_timeout: std::time::Duration::from_secs(5),
        ..Default::default()
    };
    TestEnv::with(warden_core::scope::Scope::read_only(), config)
}

/// A port nothing listens on.
async fn dead_url() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    drop(listener);
    url
}

#[tokio::test]
async fn searxng_results_become_a_numbered_list() {
    let server = serve(Some(ok_json(wire("searxng/search_format_json.json"))), None).await;
    let env = env_for(&server.url, None);
    let out = env.call("web_search", json!({"query": "rust async runtime"})).await;
    assert_ok(&out);
    assert!(
        out.content
            .starts_with("1. Tokio - An asynchronous Rust runtime\n   https://tokio.rs/\n   Tokio is an"),
        "{}",
        out.content
    );
    assert!(out.content.contains("2. async_std - Rust\n   https://docs.rs/async-std/latest/async_std/"));
    assert!(out.content.contains("3. Async/await\n   https://en.wikipedia.org/wiki/Async/await"));
    assert_eq!(meta(&out, "engine"), &json!("searxng"));
    let requests = server.requests.lock().expect("lock").clone();
    assert!(requests[0].starts_with("GET /search?q=rust+async+runtime&format=json "), "{}", requests[0]);

    let out = env.call("web_search", json!({"query": "rust", "max_results": 1})).await;
    assert!(out.content.contains("1. Tokio") && !out.content.contains("2. "), "{}", out.content);
}

#[tokio::test]
async fn searxng_403_falls_back_to_brave_with_html_stripped() {
    let forbidden = raw(
        "403 FORBIDDEN",
        "text/html; charset=utf-8",
        "<!DOCTYPE html><html><body>403 Forbidden</body></html>",
    );
    let searx = serve(Some(forbidden), None).await;
    let brave = serve(None, Some(ok_json(wire("brave/web_search.json")))).await;
    let env = env_for(&searx.url, Some(&brave));
    let out = env.call("web_search", json!({"query": "rust async runtime"})).await;
    assert_ok(&out);
    assert_eq!(meta(&out, "engine"), &json!("brave"));
    assert!(meta(&out, "fallback_reason").as_str().is_some_and(|r| r.contains("JSON API is disabled")));
    let expected: serde_json::Value =
        serde_json::from_slice(&wire("brave/web_search.expected.json")).expect("json");
    for (i, result) in expected["results"].as_array().cloned().unwrap_or_default().iter().enumerate() {
        let entry = format!(
            "{}. {}\n   {}\n   {}",
            i + 1,
            result["title"].as_str().unwrap_or_default(),
            result["url"].as_str().unwrap_or_default(),
            result["description_text"].as_str().unwrap_or_default()
        );
        assert!(out.content.contains(&entry), "missing {entry:?} in\n{}", out.content);
    }
    assert!(!out.content.contains("<strong>") && !out.content.contains("&#x27;"));
    let requests = brave.requests.lock().expect("lock").clone();
    assert!(requests[0].starts_with("GET /res/v1/web/search?q=rust+async+runtime"), "{}", requests[0]);
    assert!(requests[0].to_ascii_lowercase().contains("x-subscription-token: brave-test-key"));
}

#[tokio::test]
async fn empty_results_and_both_engines_failing_name_both_causes() {
    let empty = serve(
        Some(ok_json(
            br#"{"query":"x","results":[],"unresponsive_engines":[["google","timeout"]]}"#.to_vec(),
        )),
        None,
    )
    .await;
    let env = env_for(&empty.url, None);
    let out = env.call("web_search", json!({"query": "x"})).await;
    assert_code(&out, ToolErrorCode::ExecutionError);
    assert!(out.content.contains("no results") && out.content.contains("google: timeout"), "{}", out.content);
    assert!(out.content.contains("no API key"), "{}", out.content);

    let dead = dead_url().await;
    let brave_422 = serve(None, Some(wire("brave/http_422_invalid_token.http"))).await;
    let env = env_for(&dead, Some(&brave_422));
    let out = env.call("web_search", json!({"query": "x"})).await;
    assert_code(&out, ToolErrorCode::ExecutionError);
    assert!(out.content.contains("not reachable"), "{}", out.content);
    assert!(
        out.content.contains("key is invalid") && out.content.contains("SUBSCRIPTION_TOKEN_INVALID"),
        "{}",
        out.content
    );

    let brave_429 = serve(None, Some(wire("brave/http_429_rate_limited.http"))).await;
    let searx_500 = serve(
        Some(raw("500 Internal Server Error", "application/json", r#"{"error":"search error"}"#)),
        None,
    )
    .await;
    let env = env_for(&searx_500.url, Some(&brave_429));
    let out = env.call("web_search", json!({"query": "x"})).await;
    assert!(out.content.contains("search error") && out.content.contains("RATE_LIMITED"), "{}", out.content);
    assert!(out.content.contains("rate limit"), "{}", out.content);

    let env = env_for(&dead_url().await, None);
    let out = env.call("web_search", json!({"query": "x"})).await;
    assert!(out.content.contains("not reachable") && out.content.contains("no API key"), "{}", out.content);
}

#[tokio::test]
async fn an_endless_answer_is_refused_naming_the_limit_and_read_no_further() {
    use warden_testkit::server::{wait_until, Reply, TestServer};
    // The server stops by itself after 64 MiB; a client without a limit reads all of it.
    const MOST: usize = 64 * 1024 * 1024;
    let server =
        TestServer::start(vec![Reply::endless("application/json", b"{\"results\":[{\"title\":\"", MOST)])
            .await;
    let env = env_for(&server.url, None);
    let out = env.call("web_search", json!({"query": "anything"})).await;
    assert!(out.is_error, "{}", out.content);
    assert!(out.content.contains("larger than 4 MiB (Warden's limit)"), "{}", out.content);
    assert!(wait_until(|| server.endless_done() == 1, std::time::Duration::from_secs(60)).await);
    let sent = server.endless_sent();
    assert!(sent <= 4 * 1024 * 1024 + 16 * 1024 * 1024, "the client read on to {sent} bytes");
}

//! What no fixture covers: garbage, silence, cancellation — for every provider.

use std::time::{Duration, Instant};

use futures::StreamExt;
use warden_core::provider::{build_provider, ErrorCategory, ProviderKind, ProviderOptions};

use super::common::*;
use crate::support::server::{wait_until, Reply, Split, TestServer};

const KINDS: [ProviderKind; 3] = [ProviderKind::Anthropic, ProviderKind::OpenAi, ProviderKind::Ollama];

fn content_type(kind: ProviderKind) -> &'static str {
    match kind {
        ProviderKind::Ollama => "application/x-ndjson",
        _ => "text/event-stream",
    }
}

#[tokio::test]
async fn garbage_bytes_are_an_invalid_response_never_a_panic() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(42);
    let random: Vec<u8> = (0..4096).map(|_| rng.random()).collect();
    let bodies: Vec<Vec<u8>> = vec![
        random,
        b"data: {not json}\n\n".to_vec(),
        b"event: message_start\ndata: [1,2,3]\n\n{\"x\":\n".to_vec(),
        b"<html><body>502 Bad Gateway</body></html>".to_vec(),
        b"\xff\xfe\xfd\n\n\n".to_vec(),
    ];
    for kind in KINDS {
        for body in &bodies {
            let reply = Reply::Stream {
                content_type: content_type(kind).into(),
                body: body.clone(),
                split: Split::Random(1),
            };
            let (c, _) = run(kind, vec![reply]).await;
            assert_eq!(c.expect_error().category, ErrorCategory::InvalidResponse, "{kind}");
        }
    }
}

#[tokio::test]
async fn a_silent_server_times_out() {
    for kind in KINDS {
        let stall = Reply::Stall { content_type: content_type(kind).into(), prefix: Vec::new() };
        let started = Instant::now();
        let (c, requests) =
            run_with(kind, vec![stall], |s| s.idle_timeout = Duration::from_millis(300), simple_request("m"))
                .await;
        let error = c.expect_error();
        assert_eq!(error.category, ErrorCategory::IdleTimeout, "{kind}");
        assert_eq!(requests.len(), 1, "an idle stream is not retried inside the provider");
        assert!(started.elapsed() < Duration::from_secs(3));
    }
}

#[tokio::test]
async fn dropping_the_stream_closes_the_connection() {
    let prefix = b"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"usage\":{\"input_tokens\":1}}}\n\n".to_vec();
    let server =
        TestServer::start(vec![Reply::Stall { content_type: "text/event-stream".into(), prefix }]).await;
    let provider = build_provider(ProviderKind::Anthropic, settings(&server.url));
    let mut stream = provider.stream(simple_request("m"));
    let first = stream.next().await.unwrap().unwrap();
    assert!(matches!(first, warden_core::provider::StreamChunk::Start { .. }));
    assert!(!server.saw_client_close());
    drop(stream);
    assert!(
        wait_until(|| server.saw_client_close(), Duration::from_secs(2)).await,
        "server saw no EOF after drop"
    );
}

#[tokio::test]
async fn nothing_is_sent_until_the_stream_is_polled() {
    let server = TestServer::start(vec![]).await;
    let provider = build_provider(ProviderKind::OpenAi, settings(&server.url));
    let stream = provider.stream(simple_request("m"));
    tokio::time::sleep(Duration::from_millis(100)).await;
    drop(stream);
    assert!(server.requests().is_empty());
}

#[tokio::test]
async fn connection_refused_is_retried_then_a_network_error() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let provider = build_provider(ProviderKind::Ollama, settings(&url));
    let c = crate::support::collect::collect(provider.stream(simple_request("m"))).await;
    assert_eq!(c.expect_error().category, ErrorCategory::Network);
    assert_eq!(c.retries.len(), 2, "3 attempts in the test policy");
}

/// A compatible server is "the server at …" in the middle of a sentence, never "The server at …"
/// ("Could not reach The server at …" was what a user of a local server read).
#[tokio::test]
async fn a_compatible_server_is_named_in_lower_case_inside_a_sentence() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    drop(listener);
    let provider = build_provider(ProviderKind::OpenAi, settings(&url));
    let c = crate::support::collect::collect(provider.stream(simple_request("m"))).await;
    let message = &c.expect_error().message;
    let address = url.trim_start_matches("http://").trim_end_matches("/v1");
    assert_eq!(
        message,
        &format!("Could not reach the model server at {address} — nothing is listening there. Is the server running?")
    );

    // A body cut off in the middle of a chunk and the connection closed: it broke while the
    // answer was streaming.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    tokio::spawn(async move {
        use tokio::io::AsyncWriteExt;
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut buf = Vec::new();
        crate::support::server::read_request(&mut socket, &mut buf).await.unwrap();
        let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n";
        socket.write_all(head.as_bytes()).await.unwrap();
        socket.write_all(b"40\r\ndata: {\"choices\":[]}\n\n").await.unwrap();
        socket.shutdown().await.unwrap();
    });
    // Not sent again here (the server answers once): the error is what the person reads.
    let options = ProviderOptions { retry: warden_core::provider::RetryPolicy::none(), ..settings(&url) };
    let provider = build_provider(ProviderKind::OpenAi, options);
    let c = crate::support::collect::collect(provider.stream(simple_request("m"))).await;
    let error = c.expect_error();
    assert_eq!(error.message, "The model's answer was cut off (the connection closed early).");
    let detail = error.detail.as_deref().unwrap_or_default();
    assert!(detail.starts_with(&format!("The connection to the server at {url} broke")), "{detail}");
}

/// A provider that echoes the key back — in a refused request's error body, in a body that is
/// not JSON, in an error inside the stream after `200` — never gets it into what the user reads
/// (`http::scrub`); the rest of what it said is kept.
#[tokio::test]
async fn a_key_the_provider_echoes_back_never_reaches_the_error() {
    let said = format!("Incorrect API key provided: {TEST_KEY}. Check it.");
    let http = |status: &str, content_type: &str, body: &str| {
        Reply::http(
            format!(
                "HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\n\r\n{body}",
                body.len()
            )
            .into_bytes(),
        )
    };
    let json_error =
        serde_json::json!({"error": {"message": said, "type": "invalid_request_error"}}).to_string();
    for kind in KINDS {
        let in_stream = match kind {
            ProviderKind::Anthropic => format!(
                "event: error\ndata: {}\n\n",
                serde_json::json!({"type": "error", "error": {"type": "api_error", "message": said}})
            ),
            ProviderKind::Ollama => format!("{}\n", serde_json::json!({"error": said})),
            _ => format!(
                "data: {}\n\n",
                serde_json::json!({"error": {"message": said, "type": "server_error"}})
            ),
        };
        let replies = [
            http("401 Unauthorized", "application/json", &json_error),
            http("500 Internal Server Error", "text/plain", &said),
            Reply::Stream {
                content_type: content_type(kind).into(),
                body: in_stream.into_bytes(),
                split: Split::Whole,
            },
        ];
        for reply in replies {
            let (c, _) = run_with(
                kind,
                vec![reply],
                |s| s.retry = warden_core::provider::RetryPolicy::none(),
                simple_request("m"),
            )
            .await;
            let error = c.expect_error();
            let shown = format!("{error:?}");
            assert!(!shown.contains(TEST_KEY), "{kind}: the key is in the error: {shown}");
            assert!(
                error.message.contains("Incorrect API key provided: [redacted]. Check it."),
                "{kind}: {shown}"
            );
        }
    }
}

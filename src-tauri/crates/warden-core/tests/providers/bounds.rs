//! A server is read only up to a limit: an endless line in a stream, an endless error body and an
//! endless model list each end in an error (the first and last naming the limit), and the client
//! stops reading soon after it — what it never read it cannot hold, so its memory stays bounded
//! (the decoders' own tests check the bytes they hold). The loopback server stops by itself after
//! [`MOST`] bytes, so a client without limits fails these tests instead of running until the
//! request's time is up.

use std::time::Duration;

use warden_core::provider::{ErrorCategory, ProviderKind};

use super::common::*;
use crate::support::collect::collect;
use crate::support::server::{wait_until, Reply, TestServer};

const KINDS: [ProviderKind; 3] = [ProviderKind::Anthropic, ProviderKind::OpenAi, ProviderKind::Ollama];

/// What the server sends at most; an unbounded client reads all of it.
const MOST: usize = 64 * 1024 * 1024;
/// The limit of a stream's line or event, and of a model list.
const EVENT_LIMIT: usize = 8 * 1024 * 1024;
const LIST_LIMIT: usize = 16 * 1024 * 1024;
/// What is on its way when the client stops: both sockets' buffers and a read.
const IN_FLIGHT: usize = 16 * 1024 * 1024;

fn stream_start(kind: ProviderKind) -> (&'static str, &'static [u8]) {
    match kind {
        ProviderKind::Ollama => ("application/x-ndjson", b"{\"message\":{\"content\":\""),
        _ => ("text/event-stream", b"data: {\"x\":\""),
    }
}

/// The bytes the server wrote once every endless answer it began is over.
async fn sent_when_done(server: &TestServer, answers: usize) -> usize {
    assert!(
        wait_until(|| server.endless_done() >= answers, Duration::from_secs(60)).await,
        "the endless answers did not end: the client kept reading"
    );
    server.endless_sent()
}

#[tokio::test]
async fn an_endless_line_ends_the_stream_at_the_limit_for_every_provider() {
    for kind in KINDS {
        let (content_type, prefix) = stream_start(kind);
        let server = TestServer::start(vec![Reply::endless(content_type, prefix, MOST)]).await;
        let c = collect(provider(kind, &base(kind, &server)).stream(simple_request("m"))).await;
        let error = c.expect_error();
        assert_eq!(error.category, ErrorCategory::InvalidResponse, "{kind}: {error:?}");
        assert!(error.message.contains("larger than 8 MiB (Warden's limit)"), "{kind}: {}", error.message);
        let sent = sent_when_done(&server, 1).await;
        assert!(sent <= EVENT_LIMIT + IN_FLIGHT, "{kind}: the client read on to {sent} bytes");
    }
}

#[tokio::test]
async fn an_event_of_endless_data_lines_ends_the_stream_at_the_limit() {
    // Short lines, one event: what grows is the event's data.
    let lines = "data: xxxxxxxxxxxxxxxx\n".repeat(EVENT_LIMIT / 16);
    let server =
        TestServer::start(vec![Reply::sse(lines.into_bytes(), crate::support::server::Split::Whole)]).await;
    let c = collect(provider(ProviderKind::Anthropic, &server.url).stream(simple_request("m"))).await;
    let error = c.expect_error();
    assert!(error.message.contains("larger than 8 MiB"), "{}", error.message);
}

#[tokio::test]
async fn an_endless_error_body_is_read_only_in_part() {
    for kind in KINDS {
        // Each attempt of the test policy (3) gets one.
        let reply = || Reply::Endless {
            status: 500,
            content_type: "application/json".into(),
            prefix: b"{\"error\":{\"message\":\"".to_vec(),
            most: MOST,
        };
        let server = TestServer::start(vec![reply(), reply(), reply()]).await;
        let c = collect(provider(kind, &base(kind, &server)).stream(simple_request("m"))).await;
        assert_eq!(c.expect_error().category, ErrorCategory::Server, "{kind}");
        let sent = sent_when_done(&server, 3).await;
        assert!(sent <= 3 * (64 * 1024 + IN_FLIGHT), "{kind}: the client read on to {sent} bytes");
    }
}

#[tokio::test]
async fn an_endless_model_list_is_refused_naming_the_limit() {
    for kind in KINDS {
        let prefix: &[u8] = match kind {
            ProviderKind::Ollama => b"{\"models\":[{\"name\":\"",
            _ => b"{\"data\":[{\"id\":\"",
        };
        let server = TestServer::start(vec![Reply::endless("application/json", prefix, MOST)]).await;
        let error = provider(kind, &base(kind, &server)).list_models().await.expect_err("an endless list");
        assert_eq!(error.category, ErrorCategory::InvalidResponse, "{kind}: {error:?}");
        assert!(error.message.contains("larger than 16 MiB (Warden's limit)"), "{kind}: {}", error.message);
        let sent = sent_when_done(&server, 1).await;
        assert!(sent <= LIST_LIMIT + IN_FLIGHT, "{kind}: the client read on to {sent} bytes");
    }
}

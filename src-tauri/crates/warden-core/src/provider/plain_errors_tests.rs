//! What a person reads when a provider cannot be reached or its answer breaks off, against real
//! loopback sockets: a port nothing listens on, a host that cannot exist, a server that closes the
//! connection before the answer's end. And a stream that broke off before anything of the answer
//! came is sent again by itself.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use tokio::io::AsyncWriteExt;
use warden_protocol::Message;
use warden_testkit::server::{read_request, Reply, Split, TestServer};

use super::{
    build_provider, ChatRequest, ProviderError, ProviderKind, ProviderOptions, RetryPolicy, StreamChunk,
};
use crate::secrets::ApiKey;

/// What engines say, which no person should have to read.
const ENGINE_WORDS: &[&str] = &[
    "os error",
    "tcp connect",
    "client error",
    "dns error",
    "error sending request",
    "hyper",
    "message_stop",
];

fn options(base_url: &str, retry: RetryPolicy) -> ProviderOptions {
    ProviderOptions {
        base_url: Some(base_url.to_owned()),
        api_key: ApiKey::new("sk-test-0123456789abcdef"),
        native_tools: true,
        idle_timeout: Duration::from_secs(10),
        retry,
        learned: None,
    }
}

/// Quick retries: 3 attempts, a few milliseconds apart.
fn fast() -> RetryPolicy {
    RetryPolicy {
        max_attempts: 3,
        base_delay: Duration::from_millis(5),
        max_delay: Duration::from_millis(20),
    }
}

fn request() -> ChatRequest {
    ChatRequest {
        model: "m".to_owned(),
        messages: vec![Message::user_text("hi")],
        max_tokens: 64,
        ..ChatRequest::default()
    }
}

/// Every chunk of one request's stream, and the error that ended it.
async fn outcome(kind: ProviderKind, options: ProviderOptions) -> (Vec<StreamChunk>, Option<ProviderError>) {
    let mut stream = build_provider(kind, options).stream(request());
    let mut chunks = Vec::new();
    while let Some(item) = stream.next().await {
        match item {
            Ok(chunk) => chunks.push(chunk),
            Err(error) => return (chunks, Some(error)),
        }
    }
    (chunks, None)
}

fn text_of(chunks: &[StreamChunk]) -> String {
    chunks.iter().filter_map(|c| if let StreamChunk::Text(t) = c { Some(t.as_str()) } else { None }).collect()
}

fn retries_of(chunks: &[StreamChunk]) -> Vec<&ProviderError> {
    chunks
        .iter()
        .filter_map(|c| if let StreamChunk::Retrying { error, .. } = c { Some(error) } else { None })
        .collect()
}

fn assert_plain(message: &str) {
    for words in ENGINE_WORDS {
        assert!(!message.to_lowercase().contains(words), "engine words ({words}) in: {message}");
    }
}

/// A port on 127.0.0.1 that nothing listens on (bound, then let go).
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    port
}

/// Anthropic's events of an answer: `message_start`, then `text` as deltas, then (when `whole`)
/// the block's and the message's end.
fn anthropic_answer(text: &[&str], whole: bool) -> Vec<u8> {
    let mut out = String::from(
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"model\":\"m\",\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}}\n\n",
    );
    if !text.is_empty() {
        out.push_str("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n");
        for piece in text {
            let delta = serde_json::json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": piece}});
            out.push_str(&format!("event: content_block_delta\ndata: {delta}\n\n"));
        }
    }
    if whole {
        out.push_str("event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n");
        out.push_str("event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":4}}\n\n");
        out.push_str("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n");
    }
    out.into_bytes()
}

/// A loopback server that answers its connections in turn with `answers`, written raw, then
/// shuts the connection down: an answer whose last HTTP chunk is shorter than it says is a
/// connection that broke off mid-answer. Connections past the answers are closed at once.
async fn raw_server(answers: Vec<Vec<u8>>) -> (String, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let served = Arc::new(AtomicUsize::new(0));
    let count = served.clone();
    tokio::spawn(async move {
        let mut answers = answers.into_iter();
        loop {
            let Ok((mut socket, _)) = listener.accept().await else { return };
            let mut buf = Vec::new();
            if !matches!(read_request(&mut socket, &mut buf).await, Ok(Some(_))) {
                continue;
            }
            count.fetch_add(1, Ordering::SeqCst);
            if let Some(bytes) = answers.next() {
                let _ = socket.write_all(&bytes).await;
                let _ = socket.flush().await;
            }
            let _ = socket.shutdown().await;
        }
    });
    (url, served)
}

/// A `200` SSE head and `body` in one HTTP chunk that claims 64 bytes more than it holds.
fn broken_off(body: &[u8]) -> Vec<u8> {
    let mut out =
        b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n".to_vec();
    out.extend_from_slice(format!("{:x}\r\n", body.len() + 64).as_bytes());
    out.extend_from_slice(body);
    out
}

/// A whole `200` SSE answer, and the connection closed after it.
fn whole(body: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(body);
    out
}

#[tokio::test]
async fn a_port_nothing_listens_on_is_named_with_what_to_check() {
    let port = closed_port();
    let (_, error) =
        outcome(ProviderKind::OpenAi, options(&format!("http://127.0.0.1:{port}/v1"), RetryPolicy::none()))
            .await;
    let error = error.expect("an error");
    assert_eq!(error.code(), warden_protocol::ErrorCode::Network);
    assert_eq!(
        error.message,
        format!("Could not reach the model server at 127.0.0.1:{port} — nothing is listening there. Is the server running?")
    );
    // What the engine said is kept apart, for whoever digs.
    let detail = error.detail.as_deref().unwrap_or_default();
    assert!(detail.contains("Connection refused"), "{detail}");

    let port = closed_port();
    let (_, error) =
        outcome(ProviderKind::Anthropic, options(&format!("http://127.0.0.1:{port}"), RetryPolicy::none()))
            .await;
    let message = error.expect("an error").message;
    assert_eq!(
        message,
        format!("Could not reach Anthropic at 127.0.0.1:{port} — nothing is listening there. Is the server running?")
    );
}

#[tokio::test]
async fn a_host_that_does_not_exist_is_named() {
    let (_, error) =
        outcome(ProviderKind::OpenAi, options("http://warden-test.invalid/v1", RetryPolicy::none())).await;
    let error = error.expect("an error");
    assert_eq!(error.code(), warden_protocol::ErrorCode::Network);
    assert_eq!(
        error.message,
        "Could not find the host warden-test.invalid — check the address and your connection."
    );
    assert!(error.detail.as_deref().unwrap_or_default().contains("dns error"), "{:?}", error.detail);
}

#[tokio::test]
async fn a_page_that_is_not_a_stream_is_not_taken_for_a_cut_off_answer() {
    let page = Reply::sse(b"<html><body>502 Bad Gateway</body></html>\n".to_vec(), Split::Whole);
    let server = TestServer::start(vec![page]).await;
    let (chunks, error) = outcome(ProviderKind::Anthropic, options(&server.url, fast())).await;
    let error = error.expect("an error");
    assert_eq!(
        error.message,
        "Anthropic answered with something that is not a stream of its answer. Check the base URL in Settings."
    );
    assert!(!error.cut_off && retries_of(&chunks).is_empty());
    assert_eq!(server.requests().len(), 1, "not sent again");
}

#[tokio::test]
async fn an_answer_cut_off_after_its_text_began_says_so_and_is_not_sent_again() {
    // The body ends cleanly, but before `message_stop`.
    let cut = Reply::sse(anthropic_answer(&["Hello", " there"], false), Split::Whole);
    let full = Reply::sse(anthropic_answer(&["Hello", " there"], true), Split::Whole);
    let server = TestServer::start(vec![cut, full]).await;
    let (chunks, error) = outcome(ProviderKind::Anthropic, options(&server.url, fast())).await;
    let error = error.expect("an error");
    assert_eq!(error.message, "The model's answer was cut off (the connection closed early).");
    assert_plain(&error.message);
    assert_eq!(error.detail.as_deref(), Some("Anthropic closed the connection before `message_stop`."));
    assert_eq!(text_of(&chunks), "Hello there", "what came is kept, once");
    assert!(retries_of(&chunks).is_empty(), "text was shown: sending again would write it twice");
    assert_eq!(server.requests().len(), 1);

    // The connection breaks mid-chunk after text: the same sentence.
    let (url, served) = raw_server(vec![
        broken_off(&anthropic_answer(&["Hello"], false)),
        whole(&anthropic_answer(&["Hello"], true)),
    ])
    .await;
    let (chunks, error) = outcome(ProviderKind::Anthropic, options(&url, fast())).await;
    let error = error.expect("an error");
    assert_eq!(error.message, "The model's answer was cut off (the connection closed early).");
    assert_eq!(text_of(&chunks), "Hello");
    assert_eq!(served.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_stream_that_breaks_off_before_any_text_is_sent_again_and_answers() {
    // The first connection breaks off after `message_start`; the second answers whole.
    let (url, served) = raw_server(vec![
        broken_off(&anthropic_answer(&[], false)),
        whole(&anthropic_answer(&["All", " here."], true)),
    ])
    .await;
    let (chunks, error) = outcome(ProviderKind::Anthropic, options(&url, fast())).await;
    assert!(error.is_none(), "{error:?}");
    assert_eq!(text_of(&chunks), "All here.");
    let retries = retries_of(&chunks);
    assert_eq!(retries.len(), 1, "{chunks:?}");
    assert_eq!(retries[0].message, "The model's answer was cut off (the connection closed early).");
    let starts = chunks.iter().filter(|c| matches!(c, StreamChunk::Start { .. })).count();
    assert_eq!(starts, 1, "one Start however many attempts: {chunks:?}");
    assert!(matches!(chunks.last(), Some(StreamChunk::End { .. })));
    assert_eq!(served.load(Ordering::SeqCst), 2);

    // A clean end before `message_stop`, nothing of the answer yet: the same.
    let server = TestServer::start(vec![
        Reply::sse(anthropic_answer(&[], false), Split::Whole),
        Reply::sse(anthropic_answer(&["Fine."], true), Split::Whole),
    ])
    .await;
    let (chunks, error) = outcome(ProviderKind::Anthropic, options(&server.url, fast())).await;
    assert!(error.is_none(), "{error:?}");
    assert_eq!(text_of(&chunks), "Fine.");
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn a_stream_that_always_breaks_off_ends_in_the_error_after_two_more_tries() {
    let broken = || broken_off(&anthropic_answer(&[], false));
    let (url, served) = raw_server(vec![broken(), broken(), broken(), broken(), broken()]).await;
    let policy = RetryPolicy { max_attempts: 6, ..fast() };
    let (chunks, error) = outcome(ProviderKind::Anthropic, options(&url, policy)).await;
    let error = error.expect("an error once the tries ran out");
    assert_eq!(error.message, "The model's answer was cut off (the connection closed early).");
    assert!(error.is_retryable(), "Retry may still help");
    assert_eq!(retries_of(&chunks).len(), 2, "{chunks:?}");
    assert_eq!(served.load(Ordering::SeqCst), 3);
}

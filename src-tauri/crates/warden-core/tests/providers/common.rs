//! Helpers the provider test modules share.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use warden_core::provider::{
    build_provider, ChatRequest, ErrorCategory, Provider, ProviderKind, ProviderOptions, RetryPolicy,
};
use warden_core::secrets::ApiKey;
use warden_protocol::{
    ContentBlock, DangerLevel, Message, Role, StopReason, ToolCategory, ToolDefinition, ToolUse,
};

use crate::support::collect::{collect, Collected};
use crate::support::server::{Recorded, Reply, TestServer};

pub const TEST_KEY: &str = "sk-test-0123456789abcdef";

/// Fast retries so tests do not wait: 3 attempts, at most 50 ms apart.
pub fn fast_retry() -> RetryPolicy {
    RetryPolicy {
        max_attempts: 3,
        base_delay: Duration::from_millis(5),
        max_delay: Duration::from_millis(50),
    }
}

pub fn settings(url: &str) -> ProviderOptions {
    ProviderOptions {
        base_url: Some(url.to_owned()),
        api_key: ApiKey::new(TEST_KEY),
        native_tools: true,
        idle_timeout: Duration::from_secs(10),
        retry: fast_retry(),
        learned: None,
    }
}

pub fn provider(kind: ProviderKind, url: &str) -> Arc<dyn Provider> {
    build_provider(kind, settings(url))
}

/// The base URL a provider kind is configured with for a test server (OpenAI's includes `/v1`).
pub fn base(kind: ProviderKind, server: &TestServer) -> String {
    match kind {
        ProviderKind::OpenAi => format!("{}/v1", server.url),
        _ => server.url.clone(),
    }
}

pub fn simple_request(model: &str) -> ChatRequest {
    ChatRequest {
        model: model.to_owned(),
        messages: vec![Message::user_text("hi")],
        max_tokens: 1024,
        ..ChatRequest::default()
    }
}

/// Serve `replies` and stream one request through a fresh provider of `kind`.
pub async fn run_with(
    kind: ProviderKind,
    replies: Vec<Reply>,
    tweak: impl FnOnce(&mut ProviderOptions),
    request: ChatRequest,
) -> (Collected, Vec<Recorded>) {
    let server = TestServer::start(replies).await;
    let mut s = settings(&base(kind, &server));
    tweak(&mut s);
    let provider = build_provider(kind, s);
    let collected = collect(provider.stream(request)).await;
    (collected, server.requests())
}

pub async fn run(kind: ProviderKind, replies: Vec<Reply>) -> (Collected, Vec<Recorded>) {
    run_with(kind, replies, |_| {}, simple_request("m")).await
}

/// Points where cutting `body` leaves an incomplete stream. SSE needs the blank line after the
/// last event, so even the last byte matters; an NDJSON object that is complete but lacks its
/// final `\n` is accepted (nothing is missing), so NDJSON cuts stop inside the last object.
pub fn truncation_points(body: &[u8], kind: ProviderKind) -> Vec<usize> {
    let n = body.len();
    let mut points = vec![1, n / 4, n / 2, 3 * n / 4, n - 5];
    if kind != ProviderKind::Ollama {
        points.push(n - 1);
    }
    points
}

/// Every cut of the body is an `InvalidResponse`, never a success and never a panic. (A cut
/// before the first event of a compatible server's stream makes Warden ask once more without
/// streaming, and a cut before anything of the answer sends the stream again, twice at most: the
/// server answers each with the same cut bytes.)
pub async fn assert_truncations_fail(kind: ProviderKind, body: &[u8], reply: fn(Vec<u8>) -> Reply) {
    for cut in truncation_points(body, kind) {
        let (c, _) = run(kind, (0..3).map(|_| reply(body[..cut].to_vec())).collect()).await;
        let error = c.expect_error();
        assert_eq!(error.category, ErrorCategory::InvalidResponse, "cut at {cut}: {error:?}");
    }
}

pub fn stop_reason_of(name: &str) -> StopReason {
    match name {
        "end_turn" | "stop" => StopReason::EndTurn,
        "tool_use" | "tool_calls" => StopReason::ToolUse,
        other => panic!("unexpected stop reason in fixture: {other}"),
    }
}

/// Tool definitions from a fixture's `tools` (Anthropic `input_schema`, or OpenAI-style `function`).
pub fn tools_from(fixture_tools: &Value) -> Vec<ToolDefinition> {
    fixture_tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let f = t.get("function").unwrap_or(t);
            ToolDefinition {
                name: f["name"].as_str().unwrap().to_owned(),
                description: f["description"].as_str().unwrap().to_owned(),
                input_schema: f.get("input_schema").or_else(|| f.get("parameters")).unwrap().clone(),
                category: ToolCategory::System,
                danger: DangerLevel::Safe,
                parallel: true,
                conversation_only: false,
            }
        })
        .collect()
}

/// The assistant message the loop would store from a collected stream.
pub fn assistant_message(c: &Collected) -> Message {
    let mut content = Vec::new();
    if !c.thinking.is_empty() {
        content.push(ContentBlock::Thinking { thinking: c.thinking.clone(), signature: c.signature.clone() });
    }
    if !c.text.is_empty() {
        content.push(ContentBlock::Text { text: c.text.clone() });
    }
    for call in &c.calls {
        content.push(ContentBlock::ToolUse(ToolUse {
            id: call.id.clone(),
            name: call.name.clone(),
            input: call.input.clone().expect("tool input parses"),
            raw_arguments: Some(call.raw.clone()),
            written: None,
        }));
    }
    Message { role: Role::Assistant, content }
}

/// Remove keys Warden does not send (they are defaults or options it does not offer).
pub fn without(mut value: Value, keys: &[&str]) -> Value {
    if let Some(map) = value.as_object_mut() {
        for key in keys {
            map.remove(*key);
        }
    }
    value
}

/// Check what was extracted against an OpenAI-style expected file (openai/, openai_compat/).
pub fn assert_openai_expected(c: &Collected, expected: &Value, label: &str) {
    assert_eq!(c.text, expected["text"].as_str().unwrap(), "{label}: text");
    if let Some(reasoning) = expected.get("reasoning").and_then(Value::as_str) {
        assert_eq!(c.thinking, reasoning, "{label}: reasoning");
    }
    let calls = expected["tool_calls"].as_array().unwrap();
    assert_eq!(c.calls.len(), calls.len(), "{label}: number of calls");
    for (got, want) in c.calls.iter().zip(calls) {
        assert_eq!(got.id, want["id"].as_str().unwrap(), "{label}: id");
        assert_eq!(got.name, want["name"].as_str().unwrap(), "{label}: name");
        assert_eq!(got.raw, want["arguments"].as_str().unwrap(), "{label}: raw arguments");
        assert_eq!(got.input.as_ref(), Some(&want["parsed_arguments"]), "{label}: parsed arguments");
    }
    match expected["error"].as_object() {
        None => {
            assert!(c.error.is_none(), "{label}: unexpected error {:?}", c.error);
            let finish = expected["finish_reason"].as_str().unwrap();
            assert_eq!(c.stop_reason, Some(stop_reason_of(finish)), "{label}: stop reason");
            let usage = c.usage.expect("usage");
            assert_eq!(u64::from(usage.input_tokens), expected["usage"]["prompt_tokens"].as_u64().unwrap());
            assert_eq!(
                u64::from(usage.output_tokens),
                expected["usage"]["completion_tokens"].as_u64().unwrap()
            );
        }
        Some(_) => {
            c.expect_error();
        }
    }
}

//! Anthropic Messages API against the wire fixtures in `warden-testkit/wire/anthropic/`.

use std::time::Duration;

use serde_json::{json, Value};
use warden_core::provider::{ChatRequest, ErrorCategory, ProviderKind, RetryPolicy, ThinkingConfig};
use warden_protocol::{ContentBlock, Message, Role, ToolResultBlock};

use super::common::*;
use crate::support::collect::Collected;
use crate::support::server::{Reply, Split, ALL_SPLITS};
use crate::support::{fixture, fixture_json};

const KIND: ProviderKind = ProviderKind::Anthropic;
const STREAMS: [&str; 6] = [
    "a_text",
    "b_text_then_tool_use",
    "c_parallel_tool_use",
    "d_thinking_then_text",
    "d2_thinking_then_tool_use",
    "e_ping_and_error_midstream",
];

async fn stream_fixture(name: &str, split: Split) -> Collected {
    let body = fixture(&format!("anthropic/{name}.sse"));
    run(KIND, vec![Reply::sse(body, split)]).await.0
}

fn assert_expected(c: &Collected, expected: &Value, label: &str) {
    assert_eq!(c.text, expected["text"].as_str().unwrap(), "{label}: text");
    if let Some(thinking) = expected.get("thinking").and_then(Value::as_str) {
        assert_eq!(c.thinking, thinking, "{label}: thinking");
        assert_eq!(c.signature.as_deref(), expected["signature"].as_str(), "{label}: signature byte-exact");
    }
    let calls = expected["tool_calls"].as_array().unwrap();
    assert_eq!(c.calls.len(), calls.len(), "{label}: calls");
    for (got, want) in c.calls.iter().zip(calls) {
        assert_eq!(got.id, want["id"].as_str().unwrap(), "{label}");
        assert_eq!(got.name, want["name"].as_str().unwrap(), "{label}");
        assert_eq!(got.raw, want["raw_partial_json"].as_str().unwrap(), "{label}: fragments kept untouched");
        assert_eq!(got.input.as_ref(), Some(&want["input"]), "{label}: input");
    }
    let usage = c.usage.expect("usage");
    assert_eq!(u64::from(usage.input_tokens), expected["usage"]["input_tokens"].as_u64().unwrap(), "{label}");
    assert_eq!(
        u64::from(usage.output_tokens),
        expected["usage"]["output_tokens"].as_u64().unwrap(),
        "{label}"
    );
    match expected["error"].as_object() {
        None => {
            assert!(c.error.is_none(), "{label}: {:?}", c.error);
            let stop = expected["stop_reason"].as_str().unwrap();
            assert_eq!(c.stop_reason, Some(stop_reason_of(stop)), "{label}");
        }
        Some(error) => {
            let got = c.expect_error();
            assert_eq!(got.category, ErrorCategory::Overloaded, "{label}");
            assert_eq!(got.provider_code.as_deref(), error["type"].as_str(), "{label}");
            assert_eq!(got.is_retryable(), error["retryable"].as_bool().unwrap(), "{label}");
        }
    }
}

#[tokio::test]
async fn every_stream_fixture_in_every_split() {
    for name in STREAMS {
        let expected = fixture_json(&format!("anthropic/{name}.expected.json"));
        for split in ALL_SPLITS {
            let c = stream_fixture(name, split).await;
            assert_expected(&c, &expected, &format!("{name} {split:?}"));
        }
    }
}

#[tokio::test]
async fn truncated_streams_are_invalid_responses() {
    for name in STREAMS {
        let body = fixture(&format!("anthropic/{name}.sse"));
        assert_truncations_fail(KIND, &body, |b| Reply::sse(b, Split::Whole)).await;
    }
}

#[tokio::test]
async fn request_with_tools_matches_the_fixture() {
    let expected = fixture_json("anthropic/request_with_tools.json");
    let request = ChatRequest {
        model: expected["model"].as_str().unwrap().into(),
        system: Some(expected["system"].as_str().unwrap().into()),
        messages: vec![Message::user_text(expected["messages"][0]["content"].as_str().unwrap())],
        tools: tools_from(&expected["tools"]),
        max_tokens: 1024,
        thinking: None,
        tool_choice: Default::default(),
    };
    let body = fixture("anthropic/a_text.sse");
    let (c, requests) = run_with(KIND, vec![Reply::sse(body, Split::Whole)], |_| {}, request).await;
    assert!(c.error.is_none());
    assert_eq!(requests.len(), 1);
    let r = &requests[0];
    assert_eq!((r.method.as_str(), r.path.as_str()), ("POST", "/v1/messages"));
    assert_eq!(r.header("x-api-key"), Some(TEST_KEY));
    assert_eq!(r.header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(r.body, without(expected, &["tool_choice"]));
}

/// `tool_result` content may be a string or an array of text blocks; Warden sends strings.
fn normalize_tool_results(mut request: Value) -> Value {
    for message in request["messages"].as_array_mut().unwrap() {
        let Some(blocks) = message["content"].as_array_mut() else { continue };
        for block in blocks {
            if block["type"] == "tool_result" {
                if let Some(parts) = block["content"].as_array() {
                    let text: String = parts.iter().map(|p| p["text"].as_str().unwrap()).collect();
                    block["content"] = json!(text);
                }
            }
        }
    }
    request
}

#[tokio::test]
async fn follow_up_puts_tool_results_first_with_is_error() {
    let expected = fixture_json("anthropic/request_followup_tool_results.json");
    // The assistant turn is what the provider itself extracted from the matching stream.
    let first = stream_fixture("c_parallel_tool_use", Split::Whole).await;
    let assistant = assistant_message(&first);
    let result = |id: &str, name: &str, content: &str, is_error: bool| {
        ContentBlock::ToolResult(ToolResultBlock {
            tool_use_id: id.into(),
            report: None,
            tool_name: name.into(),
            content: content.into(),
            is_error,
            code: None,
            images: Vec::new(),
        })
    };
    // Text first in history, and the results in two messages: the wire must still lead with
    // both results, in one user message.
    let history = vec![
        Message::user_text(expected["messages"][0]["content"].as_str().unwrap()),
        assistant,
        Message {
            role: Role::User,
            content: vec![
                ContentBlock::Text { text: "(Any text must come after all tool_result blocks.)".into() },
                result(
                    "toolu_01Lq8wHd3ZsK5vNbY2tXcR9f",
                    "get_weather",
                    "{\"temperature\": 14, \"conditions\": \"light rain\"}",
                    false,
                ),
            ],
        },
        Message {
            role: Role::User,
            content: vec![result(
                "toolu_01Pm4JxVa7gT2eQwN6rDkB3s",
                "get_time",
                "ConnectionError: time service unavailable (HTTP 503)",
                true,
            )],
        },
    ];
    let request = ChatRequest {
        model: expected["model"].as_str().unwrap().into(),
        system: Some(expected["system"].as_str().unwrap().into()),
        messages: history,
        tools: tools_from(&expected["tools"]),
        max_tokens: 1024,
        thinking: None,
        tool_choice: Default::default(),
    };
    let sent = body_sent(request).await;
    assert_eq!(
        normalize_tool_results(sent.clone()),
        normalize_tool_results(without(expected, &["tool_choice"]))
    );
}

#[tokio::test]
async fn follow_up_after_thinking_echoes_the_signed_block() {
    let expected = fixture_json("anthropic/request_followup_after_thinking.json");
    let first = stream_fixture("d2_thinking_then_tool_use", Split::Bytewise).await;
    let history = vec![
        Message::user_text("What's the weather in Zürich?"),
        assistant_message(&first),
        Message {
            role: Role::User,
            content: vec![ContentBlock::ToolResult(ToolResultBlock {
                tool_use_id: first.calls[0].id.clone(),
                report: None,
                tool_name: "get_weather".into(),
                content: "18 °C, partly cloudy".into(),
                is_error: false,
                code: None,
                images: Vec::new(),
            })],
        },
    ];
    let request = ChatRequest {
        model: expected["model"].as_str().unwrap().into(),
        system: None,
        messages: history,
        tools: tools_from(&expected["tools"]),
        max_tokens: 4096,
        thinking: Some(ThinkingConfig { budget_tokens: 2048 }),
        tool_choice: Default::default(),
    };
    let sent = body_sent(request).await;
    assert_eq!(normalize_tool_results(sent.clone()), normalize_tool_results(expected));
}

#[tokio::test]
async fn http_errors_are_classified_as_the_fixture_says() {
    let expected = fixture_json("anthropic/f_http_errors.expected.json");
    for (file, want) in expected.as_object().unwrap() {
        let reply = Reply::http(fixture(&format!("anthropic/{file}")));
        let (c, requests) =
            run_with(KIND, vec![reply], |s| s.retry = RetryPolicy::none(), simple_request("m")).await;
        let error = c.expect_error();
        assert_eq!(requests.len(), 1, "{file}");
        assert_eq!(error.status, want["status"].as_u64().map(|s| s as u16), "{file}");
        assert_eq!(error.provider_code.as_deref(), want["error_type"].as_str(), "{file}");
        assert_eq!(error.is_retryable(), want["retryable"].as_bool().unwrap(), "{file}");
        assert_eq!(error.retry_after.map(|d| d.as_secs()), want["retry_after_seconds"].as_u64(), "{file}");
        assert!(!error.message.contains(TEST_KEY));
    }
}

#[tokio::test]
async fn unauthorized_is_not_retried_and_says_what_to_do() {
    let replies = vec![
        Reply::http(fixture("anthropic/f_http_401.http")),
        Reply::sse(fixture("anthropic/a_text.sse"), Split::Whole),
    ];
    let (c, requests) = run(KIND, replies).await;
    let error = c.expect_error();
    assert_eq!(error.category, ErrorCategory::Auth);
    assert_eq!(requests.len(), 1, "exactly one request for a 401");
    assert!(c.retries.is_empty());
    assert_eq!(
        error.message,
        "Anthropic rejected the API key (401 invalid x-api-key). Check the key in Settings."
    );
}

#[tokio::test]
async fn rate_limit_is_retried_after_the_delay_the_server_asked_for() {
    let raw = String::from_utf8(fixture("anthropic/f_http_429.http"))
        .unwrap()
        .replace("retry-after: 13", "retry-after: 1");
    let replies =
        vec![Reply::http(raw.into_bytes()), Reply::sse(fixture("anthropic/a_text.sse"), Split::Random(3))];
    let (c, requests) = run_with(
        KIND,
        replies,
        |s| s.retry = RetryPolicy { max_delay: Duration::from_secs(5), ..fast_retry() },
        simple_request("m"),
    )
    .await;
    assert!(c.error.is_none(), "{:?}", c.error);
    assert_eq!(requests.len(), 2);
    assert_eq!(c.retries.len(), 1);
    assert_eq!(c.retries[0].0, 1);
    assert_eq!(c.retries[0].1, Duration::from_secs(1));
    assert_eq!(c.retries[0].2.category, ErrorCategory::RateLimited);
    let waited = requests[1].at - requests[0].at;
    assert!(waited >= Duration::from_secs(1), "retry-after honoured, waited {waited:?}");
    assert!(c.text.starts_with("Hello!"));
}

#[tokio::test]
async fn overloaded_529_is_retried_and_gives_up_after_max_attempts() {
    let overloaded = || Reply::http(fixture("anthropic/f_http_529.http"));
    let (c, requests) =
        run(KIND, vec![overloaded(), Reply::sse(fixture("anthropic/a_text.sse"), Split::Whole)]).await;
    assert!(c.error.is_none());
    assert_eq!(requests.len(), 2);
    let (c, requests) = run(KIND, vec![overloaded(), overloaded(), overloaded(), overloaded()]).await;
    assert_eq!(c.expect_error().category, ErrorCategory::Overloaded);
    assert_eq!(requests.len(), 3, "max_attempts is 3 in tests");
    assert_eq!(c.retries.iter().map(|r| r.0).collect::<Vec<_>>(), vec![1, 2]);
}

#[tokio::test]
async fn missing_key_fails_without_a_request() {
    let (c, requests) = run_with(
        KIND,
        vec![Reply::sse(fixture("anthropic/a_text.sse"), Split::Whole)],
        |s| s.api_key = None,
        simple_request("m"),
    )
    .await;
    assert_eq!(c.expect_error().category, ErrorCategory::MissingCredentials);
    assert!(requests.is_empty());
}

#[tokio::test]
async fn list_models_reads_the_models_endpoint() {
    let body = json!({"data": [{"type": "model", "id": "claude-sonnet-4-5", "display_name": "Claude Sonnet 4.5"}], "has_more": false});
    let server =
        crate::support::server::TestServer::start(vec![Reply::json(body.to_string().into_bytes())]).await;
    let models = provider(KIND, &server.url).list_models().await.unwrap();
    assert_eq!(models[0].id, "claude-sonnet-4-5");
    assert_eq!(models[0].display_name.as_deref(), Some("Claude Sonnet 4.5"));
    let r = &server.requests()[0];
    assert_eq!((r.method.as_str(), r.path.split('?').next().unwrap()), ("GET", "/v1/models"));
    assert_eq!(r.header("x-api-key"), Some(TEST_KEY));
}

/// A tool's image goes to the model as Anthropic documents it for `tool_result`: the text, then an
/// `image` block with a base64 `source`.
#[tokio::test]
async fn a_tool_results_image_goes_to_the_model_as_an_image_block() {
    let first = stream_fixture("b_text_then_tool_use", Split::Whole).await;
    let call = first.calls[0].clone();
    let history = vec![
        Message::user_text("Take a screenshot"),
        assistant_message(&first),
        Message {
            role: Role::User,
            content: vec![ContentBlock::ToolResult(ToolResultBlock {
                tool_use_id: call.id.clone(),
                report: None,
                tool_name: call.name.clone(),
                content: "[image (image/png, 3 bytes)]".into(),
                is_error: false,
                code: None,
                images: vec![warden_protocol::ToolImage {
                    media_type: "image/png".into(),
                    data: "iVBORw0KGgo=".into(),
                }],
            })],
        },
    ];
    let request = ChatRequest {
        model: "claude-test".into(),
        system: None,
        messages: history,
        tools: Vec::new(),
        max_tokens: 1024,
        thinking: None,
        tool_choice: Default::default(),
    };
    let sent = body_sent(request).await;
    let result = &sent["messages"][2]["content"][0];
    assert_eq!(result["type"], "tool_result");
    assert_eq!(
        result["content"],
        serde_json::json!([
            {"type": "text", "text": "[image (image/png, 3 bytes)]"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
        ])
    );
}

/// The body of the request the provider sends for `request` (answered with a plain text stream).
async fn body_sent(request: ChatRequest) -> serde_json::Value {
    let (_, requests) =
        run_with(KIND, vec![Reply::sse(fixture("anthropic/a_text.sse"), Split::Whole)], |_| {}, request)
            .await;
    requests[0].body.clone()
}

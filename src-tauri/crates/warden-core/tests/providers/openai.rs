//! OpenAI Chat Completions against the wire fixtures in `warden-testkit/wire/openai/`.

use serde_json::{json, Value};
use warden_core::provider::{ChatRequest, ErrorCategory, ProviderKind, RetryPolicy};
use warden_protocol::{ContentBlock, Message, Role, ToolResultBlock};

use super::common::*;
use crate::support::collect::Collected;
use crate::support::server::{Reply, Split, TestServer, ALL_SPLITS};
use crate::support::{fixture, fixture_json};

const KIND: ProviderKind = ProviderKind::OpenAi;
const STREAMS: [&str; 4] = ["a_text", "b_tool_call_fragments", "c_parallel_tool_calls", "e_error_midstream"];

async fn stream_fixture(path: &str, split: Split) -> Collected {
    run(KIND, vec![Reply::sse(fixture(&format!("{path}.sse")), split)]).await.0
}

#[tokio::test]
async fn every_stream_fixture_in_every_split() {
    for name in STREAMS {
        let expected = fixture_json(&format!("openai/{name}.expected.json"));
        for split in ALL_SPLITS {
            let c = stream_fixture(&format!("openai/{name}"), split).await;
            assert_openai_expected(&c, &expected, &format!("{name} {split:?}"));
        }
    }
}

#[tokio::test]
async fn error_after_200_is_a_classified_error_after_the_partial_text() {
    let c = stream_fixture("openai/e_error_midstream", Split::Bytewise).await;
    assert_eq!(c.text, "Here is the first part");
    let error = c.expect_error();
    assert_eq!(error.category, ErrorCategory::Server);
    assert_eq!(error.provider_code.as_deref(), Some("server_error"));
    assert!(error.is_retryable());
}

#[tokio::test]
async fn truncated_streams_are_invalid_responses() {
    for name in STREAMS {
        let body = fixture(&format!("openai/{name}.sse"));
        assert_truncations_fail(KIND, &body, |b| Reply::sse(b, Split::Whole)).await;
    }
}

#[tokio::test]
async fn request_with_tools_matches_the_fixture() {
    let expected = fixture_json("openai/request_with_tools.json");
    let request = ChatRequest {
        model: "gpt-4o".into(),
        system: Some("You are a helpful assistant.".into()),
        messages: vec![Message::user_text(expected["messages"][1]["content"].as_str().unwrap())],
        tools: tools_from(&expected["tools"]),
        max_tokens: 0,
        thinking: None,
        tool_choice: Default::default(),
    };
    let (_, requests) =
        run_with(KIND, vec![Reply::sse(fixture("openai/a_text.sse"), Split::Whole)], |_| {}, request).await;
    let r = &requests[0];
    assert_eq!((r.method.as_str(), r.path.as_str()), ("POST", "/v1/chat/completions"));
    assert_eq!(r.header("authorization"), Some(format!("Bearer {TEST_KEY}").as_str()));
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(r.body, strip_options(expected));
}

/// What Warden leaves out of OpenAI's request shape: `parallel_tool_calls` and `strict` (the
/// defaults). `tool_choice: "auto"` is sent: llama-cpp-python's function-calling format ignores
/// the tools of a request without it.
fn strip_options(expected: Value) -> Value {
    let mut expected = without(expected, &["parallel_tool_calls"]);
    for tool in expected["tools"].as_array_mut().unwrap() {
        tool["function"].as_object_mut().unwrap().remove("strict");
    }
    expected
}

#[tokio::test]
async fn follow_up_sends_raw_arguments_and_one_tool_message_per_result() {
    let expected = fixture_json("openai/request_followup_tool_messages.json");
    let first = stream_fixture("openai/c_parallel_tool_calls", Split::Random(11)).await;
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
    let history = vec![
        Message::user_text(expected["messages"][1]["content"].as_str().unwrap()),
        assistant_message(&first),
        Message {
            role: Role::User,
            content: vec![
                result(
                    &first.calls[0].id,
                    "get_weather",
                    "{\"temperature\": 14, \"conditions\": \"light rain\"}",
                    false,
                ),
                // No error flag on this wire: the failure is said in the text.
                result(&first.calls[1].id, "get_time", "time service unavailable (HTTP 503)", true),
            ],
        },
    ];
    let request = ChatRequest {
        model: "gpt-4o".into(),
        system: Some("You are a helpful assistant.".into()),
        messages: history,
        tools: tools_from(&expected["tools"]),
        max_tokens: 0,
        thinking: None,
        tool_choice: Default::default(),
    };
    let (_, requests) =
        run_with(KIND, vec![Reply::sse(fixture("openai/a_text.sse"), Split::Whole)], |_| {}, request).await;
    // The one deliberate difference from OpenAI's own shape: the assistant turn's `content` is
    // `""`, not `null`. OpenAI takes both; llama-cpp-python answers `null` with HTTP 500
    // (`openai_compat/llama_cpp_python_http_500_content_null.http`), and leaving the field out
    // breaks its chat template.
    let mut expected = strip_options(expected);
    assert_eq!(expected["messages"][2]["content"], Value::Null);
    expected["messages"][2]["content"] = Value::String(String::new());
    assert_eq!(requests[0].body, expected);
}

#[tokio::test]
async fn http_errors_are_classified_as_the_fixture_says() {
    let expected = fixture_json("openai/e_http_errors.expected.json");
    for (file, want) in expected.as_object().unwrap() {
        let (c, requests) = run_with(
            KIND,
            vec![Reply::http(fixture(&format!("openai/{file}")))],
            |s| s.retry = RetryPolicy::none(),
            simple_request("gpt-4o"),
        )
        .await;
        let error = c.expect_error();
        assert_eq!(requests.len(), 1);
        assert_eq!(error.status, want["status"].as_u64().map(|s| s as u16), "{file}");
        assert_eq!(error.provider_code.as_deref(), want["code"].as_str(), "{file}");
        assert_eq!(error.is_retryable(), want["retryable"].as_bool().unwrap(), "{file}");
        assert_eq!(error.retry_after.map(|d| d.as_secs()), want["retry_after_seconds"].as_u64(), "{file}");
    }
}

#[tokio::test]
async fn quota_and_auth_are_never_retried_rate_limits_are() {
    for (file, category, requests_expected) in [
        ("e_http_401.http", ErrorCategory::Auth, 1),
        ("e_http_429_insufficient_quota.http", ErrorCategory::Quota, 1),
    ] {
        let replies = vec![
            Reply::http(fixture(&format!("openai/{file}"))),
            Reply::sse(fixture("openai/a_text.sse"), Split::Whole),
        ];
        let (c, requests) = run(KIND, replies).await;
        assert_eq!(c.expect_error().category, category, "{file}");
        assert_eq!(requests.len(), requests_expected, "{file}");
    }
    let replies = vec![
        Reply::http(fixture("openai/e_http_429_rate_limit.http")),
        Reply::sse(fixture("openai/a_text.sse"), Split::Whole),
    ];
    let (c, requests) = run(KIND, replies).await;
    assert!(c.error.is_none());
    assert_eq!(requests.len(), 2);
    assert_eq!(c.retries[0].2.category, ErrorCategory::RateLimited);
    assert_eq!(c.retries[0].1, fast_retry().max_delay, "retry-after 2 s capped by the test policy");
}

#[tokio::test]
async fn list_models_reads_the_models_endpoint() {
    let body = json!({"object": "list", "data": [{"id": "gpt-4o", "object": "model"}, {"id": "qwen", "max_model_len": 32768}]});
    let server = TestServer::start(vec![Reply::json(body.to_string().into_bytes())]).await;
    let models = provider(KIND, &format!("{}/v1", server.url)).list_models().await.unwrap();
    assert_eq!(models.iter().map(|m| m.id.as_str()).collect::<Vec<_>>(), vec!["gpt-4o", "qwen"]);
    assert_eq!(models[1].context_window, Some(32768));
    assert_eq!(server.requests()[0].path, "/v1/models");
}

#[tokio::test]
async fn local_servers_need_no_key() {
    let (c, requests) = run_with(
        KIND,
        vec![Reply::sse(fixture("openai/a_text.sse"), Split::Whole)],
        |s| s.api_key = None,
        simple_request("local"),
    )
    .await;
    assert!(c.error.is_none());
    assert_eq!(requests[0].header("authorization"), None);
}

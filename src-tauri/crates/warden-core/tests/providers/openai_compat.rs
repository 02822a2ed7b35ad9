//! OpenAI-compatible servers (llama.cpp, OpenRouter, Groq) against the wire fixtures in `warden-testkit/wire/openai_compat/`,
//! plus deviations reported without a fixture (LiteLLM, LM Studio, Gemini, vLLM).

use warden_core::provider::ProviderKind;

use super::common::*;
use crate::support::server::{Reply, Split, ALL_SPLITS};
use crate::support::{fixture, fixture_json};

const KIND: ProviderKind = ProviderKind::OpenAi;
const STREAMS: [&str; 3] = ["groq_whole_tool_calls", "llamacpp_tool_call", "openrouter_parallel_tool_calls"];

#[tokio::test]
async fn every_stream_fixture_in_every_split() {
    for name in STREAMS {
        let expected = fixture_json(&format!("openai_compat/{name}.expected.json"));
        for split in ALL_SPLITS {
            let (c, _) =
                run(KIND, vec![Reply::sse(fixture(&format!("openai_compat/{name}.sse")), split)]).await;
            assert_openai_expected(&c, &expected, &format!("{name} {split:?}"));
        }
    }
}

#[tokio::test]
async fn truncated_streams_are_invalid_responses() {
    for name in STREAMS {
        let body = fixture(&format!("openai_compat/{name}.sse"));
        assert_truncations_fail(KIND, &body, |b| Reply::sse(b, Split::Whole)).await;
    }
}

fn sse(events: &[&str]) -> Vec<u8> {
    events.iter().map(|e| format!("data: {e}\n\n")).collect::<String>().into_bytes()
}

#[tokio::test]
async fn repeated_ids_empty_names_missing_index_and_omitted_arguments() {
    let body = sse(&[
        // LiteLLM repeats the id on every chunk; LM Studio sends `name: ""` on continuations.
        r#"{"id":"x","choices":[{"delta":{"tool_calls":[{"index":0,"id":"call_a","function":{"name":"add","arguments":"{\"a\""}}]}}]}"#,
        r#"{"id":"x","choices":[{"delta":{"tool_calls":[{"index":0,"id":"call_a","function":{"name":"","arguments":":1}"}}]}}]}"#,
        // Gemini's compatible endpoint: no index, each call whole, two in one chunk.
        r#"{"id":"x","choices":[{"delta":{"tool_calls":[{"id":"call_b","function":{"name":"b","arguments":"{}"}},{"id":"call_c","function":{"name":"c"}}]}}]}"#,
        r#"{"id":"x","choices":[{"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":6}}"#,
        "[DONE]",
    ]);
    let (c, _) = run(KIND, vec![Reply::sse(body, Split::Bytewise)]).await;
    assert!(c.error.is_none(), "{:?}", c.error);
    let calls: Vec<(&str, &str, &str)> =
        c.calls.iter().map(|k| (k.id.as_str(), k.name.as_str(), k.raw.as_str())).collect();
    assert_eq!(calls, vec![("call_a", "add", "{\"a\":1}"), ("call_b", "b", "{}"), ("call_c", "c", "")]);
    assert_eq!(c.calls[2].input, Some(serde_json::json!({})), "vLLM omits arguments for {{}}");
    assert_eq!(c.stop_reason, Some(warden_protocol::StopReason::ToolUse), "calls made, whatever finish says");
}

#[tokio::test]
async fn openrouter_numeric_error_code_mid_stream() {
    let body = sse(&[
        r#"{"id":"x","choices":[{"delta":{"content":"Hi"}}]}"#,
        r#"{"error":{"code":429,"message":"Rate limit exceeded upstream"}}"#,
    ]);
    let (c, _) = run(KIND, vec![Reply::sse(body, Split::Whole)]).await;
    assert_eq!(c.text, "Hi");
    let error = c.expect_error();
    assert_eq!(error.category, warden_core::provider::ErrorCategory::RateLimited);
    assert_eq!(error.status, Some(429));
}

/// llama-cpp-python answers a request its schema refuses (here the assistant turn's
/// `"content": null`) with HTTP 500 and a body that says so ("7 validation errors: …"): the
/// request itself is wrong, so sending it again cannot help and it is not retried.
#[tokio::test]
async fn a_500_whose_body_says_the_request_was_invalid_is_not_retried() {
    let reply = || Reply::http(fixture("openai_compat/llama_cpp_python_http_500_content_null.http"));
    let (c, requests) = run(KIND, vec![reply(), reply(), reply()]).await;
    let error = c.expect_error();
    assert_eq!(requests.len(), 1, "sent once: {:?}", c.retries);
    assert!(c.retries.is_empty());
    assert_eq!(error.category, warden_core::provider::ErrorCategory::BadRequest, "{error:?}");
    assert_eq!(error.status, Some(500));
    assert!(
        error.message.contains("validation errors"),
        "the server's own words are kept: {}",
        error.message
    );
}

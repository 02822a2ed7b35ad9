//! Ollama `/api/chat`, `/api/tags`, `/api/show` against the wire fixtures in `warden-testkit/wire/ollama/`.

use serde_json::Value;
use warden_core::provider::{ChatRequest, ErrorCategory, ProviderKind};
use warden_protocol::{ContentBlock, Message, Role, StopReason, ToolResultBlock};

use super::common::*;
use crate::support::collect::Collected;
use crate::support::server::{Reply, Split, TestServer, ALL_SPLITS};
use crate::support::{fixture, fixture_json};

const KIND: ProviderKind = ProviderKind::Ollama;
const STREAMS: [&str; 3] = ["a_chat_text", "b_chat_tool_calls", "c_chat_error_midstream"];

async fn stream_fixture(name: &str, split: Split) -> Collected {
    run(KIND, vec![Reply::ndjson(fixture(&format!("ollama/{name}.ndjson")), split)]).await.0
}

#[tokio::test]
async fn every_stream_fixture_in_every_split() {
    for name in STREAMS {
        let expected = fixture_json(&format!("ollama/{name}.expected.json"));
        for split in ALL_SPLITS {
            let label = format!("{name} {split:?}");
            let c = stream_fixture(name, split).await;
            assert_eq!(c.text, expected["text"].as_str().unwrap(), "{label}");
            let calls = expected["tool_calls"].as_array().unwrap();
            assert_eq!(c.calls.len(), calls.len(), "{label}");
            for (got, want) in c.calls.iter().zip(calls) {
                assert_eq!(got.id, want["id"].as_str().unwrap(), "{label}");
                assert_eq!(got.name, want["name"].as_str().unwrap(), "{label}");
                assert_eq!(got.input.as_ref(), Some(&want["arguments"]), "{label}");
            }
            if expected["error"].is_null() {
                assert!(c.error.is_none(), "{label}: {:?}", c.error);
                let want_stop = if calls.is_empty() { StopReason::EndTurn } else { StopReason::ToolUse };
                assert_eq!(c.stop_reason, Some(want_stop), "{label}");
                let usage = c.usage.unwrap();
                assert_eq!(
                    u64::from(usage.input_tokens),
                    expected["usage"]["prompt_eval_count"].as_u64().unwrap()
                );
                assert_eq!(u64::from(usage.output_tokens), expected["usage"]["eval_count"].as_u64().unwrap());
            } else {
                let error = c.expect_error();
                assert!(
                    error.message.contains(expected["error"].as_str().unwrap()),
                    "{label}: {}",
                    error.message
                );
            }
        }
    }
}

#[tokio::test]
async fn truncated_streams_are_invalid_responses() {
    for name in ["a_chat_text", "b_chat_tool_calls"] {
        let body = fixture(&format!("ollama/{name}.ndjson"));
        assert_truncations_fail(KIND, &body, |b| Reply::ndjson(b, Split::Whole)).await;
    }
}

#[tokio::test]
async fn a_complete_last_object_without_its_newline_is_accepted() {
    let mut body = fixture("ollama/a_chat_text.ndjson");
    assert_eq!(body.pop(), Some(b'\n'));
    let (c, _) = run(KIND, vec![Reply::ndjson(body, Split::Whole)]).await;
    assert_eq!(c.stop_reason, Some(StopReason::EndTurn));
}

#[tokio::test]
async fn missing_ids_are_generated() {
    let body = b"{\"message\":{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":[{\"function\":{\"name\":\"a\",\"arguments\":{\"x\":1}}},{\"function\":{\"name\":\"b\",\"arguments\":{}}}]},\"done\":false}\n{\"done\":true,\"done_reason\":\"stop\"}\n".to_vec();
    let (c, _) = run(KIND, vec![Reply::ndjson(body, Split::Whole)]).await;
    assert_eq!(c.calls.len(), 2);
    assert!(c.calls.iter().all(|k| k.id.starts_with("call_") && k.id.len() == 13));
    assert_ne!(c.calls[0].id, c.calls[1].id);
    assert_eq!(c.calls[0].raw, "{\"x\":1}");
}

#[tokio::test]
async fn request_with_tools_matches_the_fixture() {
    let expected = fixture_json("ollama/request_chat_tools.json");
    let request = ChatRequest {
        model: "llama3.2".into(),
        messages: vec![Message::user_text(expected["messages"][0]["content"].as_str().unwrap())],
        tools: tools_from(&expected["tools"]),
        ..ChatRequest::default()
    };
    let (_, requests) = run_with(
        KIND,
        vec![Reply::ndjson(fixture("ollama/a_chat_text.ndjson"), Split::Whole)],
        |_| {},
        request,
    )
    .await;
    assert_eq!((requests[0].method.as_str(), requests[0].path.as_str()), ("POST", "/api/chat"));
    assert_eq!(requests[0].body, expected);
}

#[tokio::test]
async fn follow_up_sends_argument_objects_and_tool_name_results() {
    let expected = fixture_json("ollama/request_followup_tool_results.json");
    let first = stream_fixture("b_chat_tool_calls", Split::Bytewise).await;
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
        Message::user_text(expected["messages"][0]["content"].as_str().unwrap()),
        assistant_message(&first),
        Message {
            role: Role::User,
            content: vec![
                result(&first.calls[0].id, "get_weather", "22°C, clear", false),
                // Already says it failed: not marked a second time.
                result(&first.calls[1].id, "get_time", "error: clock service unavailable", true),
            ],
        },
    ];
    let request = ChatRequest { model: "llama3.2".into(), messages: history, ..ChatRequest::default() };
    let (_, requests) = run_with(
        KIND,
        vec![Reply::ndjson(fixture("ollama/a_chat_text.ndjson"), Split::Whole)],
        |_| {},
        request,
    )
    .await;
    assert_eq!(requests[0].body, expected);
}

#[tokio::test]
async fn list_models_uses_show_capabilities_and_context_length() {
    let show = fixture("ollama/show_llama3.2.json");
    let mut replies = vec![Reply::json(fixture("ollama/tags.json"))];
    // One /api/show per model without listed capabilities (3 in tags.json). The embedding model
    // gets a show answer without "tools".
    replies.push(Reply::show(Reply::json(show.clone())));
    replies.push(Reply::show(Reply::json(show)));
    replies.push(Reply::show(Reply::json(
        br#"{"capabilities":["embedding"],"model_info":{"bert.context_length":2048}}"#.to_vec(),
    )));
    let server = TestServer::start(replies).await;
    let models = provider(KIND, &server.url).list_models().await.unwrap();
    assert_eq!(models.len(), 3);
    let requests = server.requests();
    assert_eq!(requests[0].path, "/api/tags");
    let shows: Vec<&Value> = requests[1..].iter().map(|r| &r.body["model"]).collect();
    assert_eq!(shows.len(), 3);
    assert!(requests[1..].iter().all(|r| r.method == "POST" && r.path == "/api/show"));
    let tools: Vec<Option<bool>> = models.iter().map(|m| m.supports_tools).collect();
    assert_eq!(tools.iter().filter(|t| **t == Some(true)).count(), 2);
    assert_eq!(tools.iter().filter(|t| **t == Some(false)).count(), 1);
    assert!(models.iter().any(|m| m.context_window == Some(131072)));
}

#[tokio::test]
async fn list_models_trusts_listed_capabilities_without_show() {
    let server = TestServer::start(vec![Reply::json(fixture("ollama/tags_with_capabilities.json"))]).await;
    let models = provider(KIND, &server.url).list_models().await.unwrap();
    assert_eq!(server.requests().len(), 1, "no /api/show needed");
    assert_eq!(models[0].id, "qwen3:8b");
    assert_eq!((models[0].supports_tools, models[0].context_window), (Some(true), Some(40960)));
    assert_eq!((models[1].supports_tools, models[1].context_window), (Some(false), Some(2048)));
}

#[tokio::test]
async fn model_not_found_is_a_bad_request_with_advice() {
    let body = br#"{"error":"model 'nope' not found"}"#;
    let raw = format!(
        "HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
        body.len()
    );
    let mut bytes = raw.into_bytes();
    bytes.extend_from_slice(body);
    let (c, requests) = run(KIND, vec![Reply::http(bytes)]).await;
    let error = c.expect_error();
    assert_eq!(error.category, ErrorCategory::BadRequest);
    assert_eq!(requests.len(), 1);
    assert!(
        error.message.contains("model 'nope' not found") && error.message.contains("Settings"),
        "{}",
        error.message
    );
}

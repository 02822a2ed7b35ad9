//! Every optional field of every wire, sent as `null`, is read as absent: servers that serialize
//! their whole response model write `null` for what they leave out (llama-cpp-python starts every
//! streamed tool call with `"tool_calls": null`), and a field that is `null` must never stop a turn.

use serde_json::json;
use warden_core::provider::ProviderKind;

use super::common::*;
use crate::support::fixture;
use crate::support::server::{Reply, Split};

fn sse(events: &[serde_json::Value]) -> Vec<u8> {
    let mut out: String = events.iter().map(|e| format!("data: {e}\n\n")).collect();
    out.push_str("data: [DONE]\n\n");
    out.into_bytes()
}

/// llama-cpp-python 0.3.36 (`chatml-function-calling`), recorded: the chunk that opens a streamed
/// tool call says `"tool_calls": null`, and so does every chunk of its text-only answers.
#[tokio::test]
async fn llama_cpp_python_tool_call_with_null_tool_calls_is_read() {
    let body = fixture("openai_compat/llama_cpp_python_tool_call.sse");
    let text = String::from_utf8_lossy(&body);
    assert!(text.contains("\"tool_calls\": null"), "the recording holds the null that broke the turn");
    for split in [Split::Whole, Split::Bytewise, Split::Random(3)] {
        let (c, _) = run(ProviderKind::OpenAi, vec![Reply::sse(body.clone(), split)]).await;
        assert!(c.error.is_none(), "{split:?}: {:?}", c.error);
        assert_eq!(c.calls.len(), 1, "{split:?}: {c:?}");
        assert_eq!(c.calls[0].name, "file_read");
        assert_eq!(c.calls[0].input, Some(json!({"path": "file.txt"})), "{split:?}");
        assert_eq!(c.stop_reason, Some(warden_protocol::StopReason::ToolUse));
    }
}

#[tokio::test]
async fn openai_nulls_everywhere_are_absent() {
    let body = sse(&[
        json!({"id": null, "model": null, "object": "chat.completion.chunk", "created": null,
            "choices": [{"index": 0, "delta": {"role": "assistant", "content": null, "reasoning_content": null,
                "reasoning": null, "tool_calls": null, "function_call": null, "refusal": null},
                "finish_reason": null, "logprobs": null}],
            "usage": null, "error": null, "system_fingerprint": null}),
        json!({"id": "c", "choices": [{"index": 0, "delta": {"content": "Hi", "tool_calls": null}}]}),
        json!({"id": "c", "choices": [{"index": 0, "delta": {"content": null, "tool_calls": [
            {"index": 0, "id": "call_1", "type": "function", "function": {"name": "f", "arguments": null}}]}}]}),
        json!({"id": "c", "choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": null, "id": null, "type": null, "function": {"name": null, "arguments": "{\"a\":1}"}}]}}]}),
        json!({"id": "c", "choices": null, "usage": {"prompt_tokens": 4, "completion_tokens": null,
            "total_tokens": null, "prompt_tokens_details": null}}),
        json!({"id": "c", "choices": [{"index": 0, "delta": null, "finish_reason": "tool_calls"}]}),
    ]);
    let (c, _) = run(ProviderKind::OpenAi, vec![Reply::sse(body, Split::Whole)]).await;
    assert!(c.error.is_none(), "{:?}", c.error);
    assert_eq!(c.text, "Hi");
    assert_eq!(c.calls.len(), 1, "{c:?}");
    assert_eq!((c.calls[0].id.as_str(), c.calls[0].raw.as_str()), ("call_1", "{\"a\":1}"));
    let usage = c.usage.expect("usage with one count given");
    assert_eq!((usage.input_tokens, usage.output_tokens), (4, 0));
}

#[tokio::test]
async fn anthropic_nulls_everywhere_are_absent() {
    let event = |name: &str, data: serde_json::Value| format!("event: {name}\ndata: {data}\n\n");
    let body = [
        event("message_start", json!({"type": "message_start", "index": null, "message": {"id": "msg_1",
            "model": null, "content": [], "stop_reason": null, "stop_sequence": null, "stop_details": null,
            "usage": {"input_tokens": 5, "output_tokens": null, "cache_creation_input_tokens": null,
                "cache_read_input_tokens": null}}, "delta": null, "usage": null})),
        event("content_block_start", json!({"type": "content_block_start", "index": 0,
            "content_block": {"type": "text", "text": "", "citations": null}})),
        event("content_block_delta", json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "text_delta", "text": "Hi", "thinking": null, "partial_json": null, "signature": null}})),
        event("content_block_stop", json!({"type": "content_block_stop", "index": 0})),
        event("ping", json!({"type": "ping", "index": null})),
        event("message_delta", json!({"type": "message_delta", "index": null,
            "delta": {"stop_reason": "end_turn", "stop_sequence": null, "type": null},
            "usage": {"input_tokens": null, "output_tokens": 7}})),
        event("message_stop", json!({"type": "message_stop", "error": null})),
    ]
    .concat()
    .into_bytes();
    let (c, _) = run(ProviderKind::Anthropic, vec![Reply::sse(body, Split::Whole)]).await;
    assert!(c.error.is_none(), "{:?}", c.error);
    assert_eq!(c.text, "Hi");
    let usage = c.usage.expect("usage");
    assert_eq!((usage.input_tokens, usage.output_tokens), (5, 7));
}

#[tokio::test]
async fn ollama_nulls_everywhere_are_absent() {
    let lines = [
        json!({"model": null, "created_at": null, "message": {"role": "assistant", "content": "Hi",
            "thinking": null, "tool_calls": null, "images": null}, "done": false, "done_reason": null,
            "error": null}),
        json!({"model": "m", "message": {"role": "assistant", "content": null, "tool_calls": [
            {"id": null, "function": {"index": null, "name": "f", "arguments": null}}]}, "done": null}),
        json!({"model": "m", "message": null, "done": true, "done_reason": null,
            "prompt_eval_count": null, "eval_count": 3, "total_duration": null}),
    ];
    let body: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let (c, _) = run(ProviderKind::Ollama, vec![Reply::ndjson(body.into_bytes(), Split::Whole)]).await;
    assert!(c.error.is_none(), "{:?}", c.error);
    assert_eq!(c.text, "Hi");
    assert_eq!(c.calls.len(), 1, "{c:?}");
    assert_eq!((c.calls[0].name.as_str(), c.calls[0].input.clone()), ("f", Some(json!({}))));
}

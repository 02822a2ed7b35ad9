//! The text tool protocol over a real provider and a real server.

use futures::StreamExt;
use warden_core::provider::{build_provider, ChatRequest, ProviderKind};
use warden_protocol::{DangerLevel, Message, StopReason, ToolCategory, ToolDefinition};

use super::common::*;
use crate::support::collect::collect;
use crate::support::server::{Reply, Split, TestServer, ALL_SPLITS};

fn ndjson_text(pieces: &[&str]) -> Vec<u8> {
    let mut body = String::new();
    for piece in pieces {
        let line = serde_json::json!({"model": "m", "message": {"role": "assistant", "content": piece}, "done": false});
        body.push_str(&format!("{line}\n"));
    }
    body.push_str(
        "{\"model\":\"m\",\"done\":true,\"done_reason\":\"stop\",\"prompt_eval_count\":1,\"eval_count\":2}\n",
    );
    body.into_bytes()
}

#[tokio::test]
async fn tool_blocks_from_a_model_without_native_tools() {
    let body = ndjson_text(&[
        "Let me check.\n``",
        "`to",
        "ol\n{\"name\": \"list_dir\", ",
        "\"args\": {\"path\": \".\"}}\n`",
        "``\nOK",
    ]);
    for split in ALL_SPLITS {
        let server = TestServer::start(vec![Reply::ndjson(body.clone(), split)]).await;
        let mut s = settings(&server.url);
        s.native_tools = false;
        let provider = build_provider(ProviderKind::Ollama, s);
        let request = ChatRequest {
            model: "m".into(),
            messages: vec![Message::user_text("what is here?")],
            tools: vec![ToolDefinition {
                name: "list_dir".into(),
                description: "List a directory.".into(),
                input_schema: serde_json::json!({"type": "object", "properties": {"path": {"type": "string"}}}),
                category: ToolCategory::FileRead,
                danger: DangerLevel::Safe,
                parallel: true,
            }],
            ..ChatRequest::default()
        };
        let c = collect(provider.stream(request)).await;
        assert!(c.error.is_none());
        assert_eq!(c.text, "Let me check.\n\nOK");
        assert_eq!(c.calls.len(), 1);
        assert_eq!(c.calls[0].name, "list_dir");
        assert_eq!(c.calls[0].input, Some(serde_json::json!({"path": "."})));
        assert_eq!(c.stop_reason, Some(StopReason::ToolUse));
        let sent = &server.requests()[0].body;
        assert!(sent.get("tools").is_none(), "no native tools are sent");
        let system = sent["messages"][0]["content"].as_str().unwrap();
        assert!(
            sent["messages"][0]["role"] == "system"
                && system.contains("list_dir")
                && system.contains("```tool")
        );
    }
}

#[tokio::test]
async fn errors_pass_through_the_wrapper() {
    let server =
        TestServer::start(vec![Reply::ndjson(b"{\"message\":{\"content\":\"a\"}}\n".to_vec(), Split::Whole)])
            .await;
    let mut s = settings(&server.url);
    s.native_tools = false;
    let chunks: Vec<_> = build_provider(ProviderKind::Ollama, s).stream(simple_request("m")).collect().await;
    assert!(chunks.last().unwrap().is_err(), "ended early is still an error through the wrapper");
}

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
                conversation_only: false,
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

/// A block the model wrote that cannot be read, recorded from SmolLM2-135M on llama-cpp-python
/// (`openai_compat/llama_cpp_python_text_tools_malformed.sse`: a ```` ```tool ```` block holding
/// a JSON object without `name`, then code, cut by the token limit): the history keeps the model's
/// text as written, the call fails with the parser's reason, and the next request shows the model
/// its own block and that reason, not a tidied call it never made.
#[tokio::test]
async fn a_malformed_block_is_kept_as_written_and_answered_with_the_parsers_reason() {
    use std::sync::Arc;
    use warden_core::agent::{Session, SessionConfig, ToolEnvironment};
    use warden_core::sandbox::Workspace;
    use warden_core::scope::Scope;
    use warden_core::tool::{ToolRegistry, ToolsConfig};

    let recorded = crate::support::fixture("openai_compat/llama_cpp_python_text_tools_malformed.sse");
    let mut written = String::new();
    for line in String::from_utf8_lossy(&recorded).lines() {
        let Some(data) = line.strip_prefix("data: {").map(|rest| format!("{{{rest}")) else { continue };
        let chunk: serde_json::Value = serde_json::from_str(&data).unwrap();
        written.push_str(chunk["choices"][0]["delta"]["content"].as_str().unwrap_or_default());
    }
    let block = &written[written.find("```tool").unwrap()..];
    let server = TestServer::start(vec![
        Reply::sse(recorded, Split::Random(9)),
        Reply::sse(
            warden_testkit::scripted::openai(&[warden_testkit::scripted::text("Sorry.")], 10),
            Split::Whole,
        ),
    ])
    .await;
    let mut s = settings(&format!("{}/v1", server.url));
    s.native_tools = false;
    let provider = build_provider(ProviderKind::OpenAi, s);
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let mut config = SessionConfig::new("conv-1", "smollm2");
    config.scope = Scope::read_only();
    let workspace =
        Workspace::new(project.path(), home.path().join("storage"), config.scope.clone()).unwrap();
    let (session, mut events) = Session::new(
        config,
        provider,
        Arc::new(ToolRegistry::with_core_tools(ToolsConfig::default())),
        ToolEnvironment::new(workspace),
    );
    session.send("Use the file_read tool to read README.md.".to_owned()).await.unwrap();
    let mut results = Vec::new();
    while let Ok(event) = events.try_recv() {
        if let warden_protocol::Event::ToolResult(result) = event {
            results.push(result);
        }
    }
    assert_eq!(results.len(), 1, "{results:?}");
    let reason = &results[0].result;
    assert!(
        reason.contains("could not be read") && reason.contains("not valid JSON (trailing characters"),
        "the parser's reason: {reason}"
    );
    assert!(!reason.contains("expected value at line 1 column 1"), "{reason}");

    // The history holds the block as the model wrote it.
    let history = session.history();
    let answer = serde_json::to_string(&history[1]).unwrap();
    let escaped = serde_json::to_string(block).unwrap();
    assert!(answer.contains(&escaped[1..escaped.len() - 1]), "{answer}");
    // And so does the next request, with the reason.
    let next = &server.requests()[1].body;
    let sent: Vec<String> = next["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert!(sent.iter().any(|m| m.contains(block)), "the block as written: {sent:#?}");
    assert!(!sent.iter().any(|m| m.contains("\"args\": {}")), "no tidied call: {sent:#?}");
    assert!(sent.iter().any(|m| m.contains("could not be read")), "the reason: {sent:#?}");
}

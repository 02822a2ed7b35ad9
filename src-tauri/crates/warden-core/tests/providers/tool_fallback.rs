//! A model without native tool calling still gets tools, without a setting: the provider asks
//! Ollama's `/api/show` once per model, and falls back to the text protocol once when a server
//! refuses tools — against a real loopback server that counts what it was sent.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use warden_core::agent::{Session, SessionConfig, ToolEnvironment, TurnEnd};
use warden_core::provider::{build_provider, ChatRequest, ErrorCategory, Provider, ProviderKind};
use warden_core::sandbox::Workspace;
use warden_core::scope::Scope;
use warden_core::tool::{ToolRegistry, ToolsConfig};
use warden_protocol::{
    DangerLevel, Event, Message, StopReason, ToolApproval, ToolCategory, ToolDefinition, TrustLevel,
};
use warden_testkit::scripted::{self, text};

use super::common::*;
use crate::support::collect::{collect, Collected};
use crate::support::server::{Recorded, Reply, Split, TestServer};

const NO_NATIVE_TOOLS: &str =
    "This model has no native tool calling; Warden describes the tools in the prompt instead.";
const TOOLS_REFUSED: &str =
    "The server refused native tool calling for this model; Warden describes the tools in the prompt instead.";

/// An answer that calls `list_dir` the text-protocol way.
const TOOL_BLOCK_ANSWER: &str =
    "Let me look.\n```tool\n{\"name\": \"list_dir\", \"args\": {\"path\": \".\"}}\n```\n";

fn list_dir() -> ToolDefinition {
    ToolDefinition {
        name: "list_dir".into(),
        description: "List a folder.".into(),
        input_schema: json!({"type": "object", "properties": {"path": {"type": "string"}}}),
        category: ToolCategory::FileRead,
        danger: DangerLevel::Safe,
        parallel: true,
        conversation_only: false,
    }
}

fn request_with_tools(model: &str) -> ChatRequest {
    ChatRequest {
        model: model.to_owned(),
        system: Some("You are Warden.".into()),
        messages: vec![Message::user_text("what is here?")],
        tools: vec![list_dir()],
        max_tokens: 1024,
        ..ChatRequest::default()
    }
}

fn show(capabilities: &[&str]) -> Reply {
    Reply::show(Reply::json(json!({"capabilities": capabilities}).to_string().into_bytes()))
}

fn http_error(status: u16, reason: &str, body: &Value) -> Reply {
    let body = body.to_string();
    Reply::http(
        format!(
            "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
}

fn ollama_answer(t: &'static str) -> Reply {
    Reply::ndjson(scripted::ollama(&[text(t)], 10), Split::Random(5))
}

fn openai_answer(t: &'static str) -> Reply {
    Reply::sse(scripted::openai(&[text(t)], 10), Split::Random(5))
}

/// The chat requests the server got (the model lookups left out).
fn chats(server: &TestServer) -> Vec<Recorded> {
    server.requests().into_iter().filter(|r| r.path != "/api/show").collect()
}

fn shows(server: &TestServer) -> usize {
    let scripted = server.requests().iter().filter(|r| r.path == "/api/show").count();
    scripted + server.unscripted_shows().len()
}

/// The request went through the text protocol: no native tools, the tools in the system prompt.
fn assert_text_protocol(body: &Value) {
    assert!(body.get("tools").is_none(), "no native tools: {body}");
    let system = body["messages"][0]["content"].as_str().unwrap_or_default();
    assert_eq!(body["messages"][0]["role"], "system", "{body}");
    assert!(system.starts_with("You are Warden."), "{system}");
    assert!(system.contains("```tool") && system.contains("## list_dir"), "{system}");
}

fn assert_native(body: &Value) {
    assert_eq!(body["tools"][0]["function"]["name"], "list_dir", "native tools: {body}");
}

fn assert_list_dir_called(c: &Collected) {
    assert!(c.error.is_none(), "{:?}", c.error);
    assert_eq!(c.calls.len(), 1, "{c:?}");
    assert_eq!(c.calls[0].name, "list_dir");
    assert_eq!(c.calls[0].input, Some(json!({"path": "."})));
    assert_eq!(c.stop_reason, Some(StopReason::ToolUse));
}

#[tokio::test]
async fn an_ollama_model_without_the_tools_capability_gets_them_in_the_prompt() {
    let server = TestServer::start(vec![
        show(&["completion"]),
        ollama_answer(TOOL_BLOCK_ANSWER),
        ollama_answer("Done."),
    ])
    .await;
    let provider = build_provider(ProviderKind::Ollama, settings(&server.url));

    let first = collect(provider.stream(request_with_tools("gemma:2b"))).await;
    assert_list_dir_called(&first);
    assert_eq!(first.notices, [NO_NATIVE_TOOLS]);
    let requests = server.requests();
    assert_eq!(requests[0].path, "/api/show");
    assert_eq!(requests[0].body, json!({"model": "gemma:2b"}));
    assert_eq!(requests[1].path, "/api/chat");
    assert_text_protocol(&requests[1].body);

    // The rest of the session: no second lookup, no second notice, still the text protocol.
    let second = collect(provider.stream(request_with_tools("gemma:2b"))).await;
    assert!(second.error.is_none(), "{:?}", second.error);
    assert_eq!(second.text, "Done.");
    assert!(second.notices.is_empty(), "{:?}", second.notices);
    assert_eq!(shows(&server), 1);
    let chats = chats(&server);
    assert_eq!(chats.len(), 2);
    assert_text_protocol(&chats[1].body);
}

#[tokio::test]
async fn an_ollama_model_with_the_tools_capability_keeps_native_tools() {
    let server = TestServer::start(vec![
        show(&["completion", "tools"]),
        Reply::ndjson(
            scripted::ollama(&[scripted::tool("c1", "list_dir", json!({"path": "."}))], 10),
            Split::Whole,
        ),
        ollama_answer("Done."),
    ])
    .await;
    let provider = build_provider(ProviderKind::Ollama, settings(&server.url));
    let first = collect(provider.stream(request_with_tools("llama3.2"))).await;
    assert_list_dir_called(&first);
    assert!(first.notices.is_empty());
    let second = collect(provider.stream(request_with_tools("llama3.2"))).await;
    assert_eq!(second.text, "Done.");
    assert_eq!(shows(&server), 1, "one lookup per model");
    for chat in chats(&server) {
        assert_native(&chat.body);
    }
}

/// Ollama's own answer to tools for such a model (ollama/ollama#14795, #6027).
fn ollama_refusal(model: &str) -> Reply {
    http_error(
        400,
        "Bad Request",
        &json!({"error": format!("registry.ollama.ai/library/{model} does not support tools")}),
    )
}

#[tokio::test]
async fn ollama_refusing_tools_is_sent_again_once_through_the_text_protocol_and_remembered() {
    // Capabilities that claim tools (a wrong template), and no lookup answer at all (an older or
    // proxied server): both are taken as native until the server refuses.
    for lookup in [Some(show(&["completion", "tools"])), None] {
        let label = if lookup.is_some() { "claims tools" } else { "no /api/show" };
        let mut replies: Vec<Reply> = lookup.into_iter().collect();
        replies.extend([
            ollama_refusal("gemma:2b"),
            ollama_answer(TOOL_BLOCK_ANSWER),
            ollama_answer("Done."),
        ]);
        let server = TestServer::start(replies).await;
        let provider = build_provider(ProviderKind::Ollama, settings(&server.url));

        let first = collect(provider.stream(request_with_tools("gemma:2b"))).await;
        assert_list_dir_called(&first);
        assert_eq!(first.notices, [TOOLS_REFUSED], "{label}");
        assert!(first.retries.is_empty(), "{label}: the refusal is not shown as a retry");
        let chats_now = chats(&server);
        assert_eq!(chats_now.len(), 2, "{label}: exactly one resend");
        assert_native(&chats_now[0].body);
        assert_text_protocol(&chats_now[1].body);

        let second = collect(provider.stream(request_with_tools("gemma:2b"))).await;
        assert_eq!(second.text, "Done.", "{label}");
        assert!(second.notices.is_empty(), "{label}");
        let chats = chats(&server);
        assert_eq!(chats.len(), 3, "{label}: straight to the text protocol");
        assert_text_protocol(&chats[2].body);
        assert_eq!(shows(&server), 1, "{label}");
    }
}

#[tokio::test]
async fn the_memory_is_per_model() {
    let server = TestServer::start(vec![
        ollama_refusal("gemma:2b"),
        ollama_answer("From gemma."),
        Reply::ndjson(scripted::ollama(&[text("From qwen.")], 10), Split::Whole),
    ])
    .await;
    let provider = build_provider(ProviderKind::Ollama, settings(&server.url));
    let gemma = collect(provider.stream(request_with_tools("gemma:2b"))).await;
    assert_eq!(gemma.text, "From gemma.");
    let qwen = collect(provider.stream(request_with_tools("qwen3"))).await;
    assert_eq!(qwen.text, "From qwen.");
    assert!(qwen.notices.is_empty());
    let chats = chats(&server);
    assert_eq!(chats.len(), 3);
    assert_native(&chats[2].body);
    assert_eq!(server.unscripted_shows().len(), 2, "one lookup per model");
}

#[tokio::test]
async fn an_openai_compatible_server_refusing_tools_falls_back_once() {
    // vLLM without --enable-auto-tool-choice (vllm-project/vllm#9986), HTTP 400; llama.cpp without
    // --jinja (containers/ramalama#988, ggml-org/llama.cpp#10920), HTTP 500 — which is retried
    // unless it is recognised at once.
    let refusals = [
        http_error(
            400,
            "Bad Request",
            &json!({"object": "error", "message": "\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set", "type": "BadRequestError", "param": null, "code": 400}),
        ),
        http_error(
            500,
            "Internal Server Error",
            &json!({"error": {"code": 500, "message": "tools param requires --jinja flag", "type": "server_error"}}),
        ),
        http_error(
            500,
            "Internal Server Error",
            &json!({"error": {"code": 500, "message": "Unsupported param: tools", "type": "server_error"}}),
        ),
    ];
    for refusal in refusals {
        let server =
            TestServer::start(vec![refusal, openai_answer(TOOL_BLOCK_ANSWER), openai_answer("Done.")]).await;
        let provider = build_provider(ProviderKind::OpenAi, settings(&format!("{}/v1", server.url)));
        let first = collect(provider.stream(request_with_tools("local"))).await;
        assert_list_dir_called(&first);
        assert_eq!(first.notices, [TOOLS_REFUSED]);
        assert!(first.retries.is_empty(), "{:?}", first.retries);
        let second = collect(provider.stream(request_with_tools("local"))).await;
        assert_eq!(second.text, "Done.");
        let requests = server.requests();
        assert_eq!(requests.len(), 3, "one native request, then the text protocol only");
        assert_native(&requests[0].body);
        assert_text_protocol(&requests[1].body);
        assert_text_protocol(&requests[2].body);
    }
}

#[tokio::test]
async fn errors_that_do_not_name_tools_reach_the_caller_unchanged() {
    let cases = [
        (
            http_error(
                400,
                "Bad Request",
                &json!({"error": {"message": "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens.", "type": "invalid_request_error", "code": "context_length_exceeded"}}),
            ),
            ErrorCategory::BadRequest,
        ),
        (
            http_error(
                401,
                "Unauthorized",
                &json!({"error": {"message": "Incorrect API key provided", "type": "invalid_request_error", "code": "invalid_api_key"}}),
            ),
            ErrorCategory::Auth,
        ),
    ];
    for (reply, category) in cases {
        let server = TestServer::start(vec![reply.clone(), openai_answer("never sent")]).await;
        let url = format!("{}/v1", server.url);
        let provider = build_provider(ProviderKind::OpenAi, settings(&url));
        let c = collect(provider.stream(request_with_tools("local"))).await;
        let error = c.expect_error().clone();
        assert_eq!(error.category, category);
        assert!(c.notices.is_empty());
        assert_eq!(server.requests().len(), 1, "no second request");

        // Exactly what the provider without the fallback reports.
        let plain_server = TestServer::start(vec![reply]).await;
        let plain_url = format!("{}/v1", plain_server.url);
        let mut plain = settings(&plain_url);
        plain.native_tools = false;
        let text_only =
            collect(build_provider(ProviderKind::OpenAi, plain).stream(request_with_tools("local"))).await;
        let mut expected = text_only.expect_error().clone();
        expected.message = expected.message.replace(&plain_url, &url);
        assert_eq!(error, expected);
    }
}

#[tokio::test]
async fn the_text_protocol_failing_after_the_fallback_is_not_retried_again() {
    let server = TestServer::start(vec![
        ollama_refusal("gemma:2b"),
        http_error(400, "Bad Request", &json!({"error": "gemma:2b does not support tools"})),
    ])
    .await;
    let provider = build_provider(ProviderKind::Ollama, settings(&server.url));
    let c = collect(provider.stream(request_with_tools("gemma:2b"))).await;
    assert_eq!(c.expect_error().status, Some(400));
    assert_eq!(c.notices, [TOOLS_REFUSED]);
    assert_eq!(chats(&server).len(), 2, "one fallback, never a loop");
}

#[tokio::test]
async fn a_whole_turn_with_a_tool_call_works_through_the_fallback() {
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    std::fs::write(project.path().join("notes.md"), "hello").unwrap();
    let server = TestServer::start(vec![
        show(&["completion"]),
        ollama_answer(TOOL_BLOCK_ANSWER),
        ollama_answer("There is notes.md."),
    ])
    .await;
    let provider: Arc<dyn Provider> = build_provider(ProviderKind::Ollama, settings(&server.url));
    let mut config = SessionConfig::new("conv-1", "gemma:2b");
    config.trust = TrustLevel::Guided;
    config.scope = Scope::all();
    config.approval_timeout = Some(Duration::from_secs(10));
    let workspace =
        Workspace::new(project.path(), home.path().join("storage"), config.scope.clone()).unwrap();
    let (session, mut events) = Session::new(
        config,
        provider,
        Arc::new(ToolRegistry::with_core_tools(ToolsConfig::default())),
        ToolEnvironment::new(workspace),
    );
    let turn = {
        let session = session.clone();
        tokio::spawn(async move { session.send("what is here?").await })
    };
    tokio::pin!(turn);
    let mut seen = Vec::new();
    let end = loop {
        tokio::select! {
            biased;
            Some(event) = events.recv() => {
                if let Event::ToolConfirm(confirm) = &event {
                    let approval = ToolApproval { confirm_id: confirm.confirm_id.clone(), approved: true, reason: None, remember: None, always: None };
                    let _ = session.approve(approval);
                }
                seen.push(event);
            }
            joined = &mut turn => break joined.unwrap().unwrap(),
            () = tokio::time::sleep(Duration::from_secs(60)) => panic!("the turn did not end within 60 s"),
        }
    };
    while let Ok(event) = events.try_recv() {
        seen.push(event);
    }
    assert_eq!(end, TurnEnd::Completed);

    let notices: Vec<_> =
        seen.iter().filter_map(|e| if let Event::Notice(n) = e { Some(n) } else { None }).collect();
    assert_eq!(notices.len(), 1, "told once per session");
    assert_eq!(notices[0].text, NO_NATIVE_TOOLS);
    assert_eq!(notices[0].conversation_id, "conv-1");
    let first_start = seen
        .iter()
        .find_map(|e| if let Event::StreamStart(s) = e { Some(s.message_id.clone()) } else { None })
        .unwrap();
    assert_eq!(notices[0].message_id, first_start, "the notice belongs to the first message");

    let result = seen.iter().find_map(|e| if let Event::ToolResult(r) = e { Some(r) } else { None }).unwrap();
    assert_eq!(result.status, warden_protocol::ToolStatus::Success, "{}", result.result);
    assert!(result.result.contains("notes.md"), "{}", result.result);

    let chats = chats(&server);
    assert_eq!(chats.len(), 2);
    for chat in &chats {
        assert!(chat.body.get("tools").is_none(), "{}", chat.body);
    }
    // The call and its result went back as text the model can read.
    let history = chats[1].body["messages"].to_string();
    assert!(history.contains("```tool") && history.contains("Result of tool `list_dir`"), "{history}");
    assert!(history.contains("notes.md"), "{history}");
}

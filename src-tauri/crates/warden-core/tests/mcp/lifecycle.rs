//! A server's life: its process tree gone when the connection ends, a server killed mid-call, one
//! that never answers the handshake, one that crashes on every start, and a call stopped midway
//! (the server is told). Processes are looked for in `/proc`.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde_json::{json, Map, Value};
use warden_core::mcp::{connect, McpError, ServerSlot};
use warden_core::tool::OutputSink;
use warden_testkit::mcp::server_bin;

use super::*;

fn long_args(seconds: u64) -> Map<String, Value> {
    json!({"duration": seconds, "steps": seconds}).as_object().cloned().unwrap()
}

async fn wait_gone(pid: u32) {
    let started = Instant::now();
    while alive(pid) {
        assert!(started.elapsed() < Duration::from_secs(5), "process {pid} is still running");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn closing_a_connection_ends_the_servers_whole_process_tree() {
    let dir = project();
    // A shell that starts the server as its child: the tree, not just the leader, must end.
    let bin = server_bin("mcp-server-everything");
    // After the server, the shell sleeps: only killing the whole group ends it.
    let script = format!("'{}' stdio; sleep 600", bin.display());
    let spec = stdio("tree", "sh", &["-c", &script], BTreeMap::new());
    let connection = connect(&spec, root(&dir), None).await.unwrap();
    let pid = connection.pid().unwrap();
    assert!(alive(pid));
    let tree = children_of(pid);
    assert!(!tree.is_empty(), "the server runs as the shell's child");
    connection.close().await;
    wait_gone(pid).await;
    for pid in tree {
        wait_gone(pid).await;
    }
}

#[tokio::test]
async fn a_server_killed_mid_call_fails_the_call_and_is_started_again_at_once() {
    let dir = project();
    let slot = ServerSlot::new(everything_stdio(), root(&dir), None, Duration::from_secs(30));
    let first = slot.connection().await.unwrap();
    let pid = first.pid().unwrap();
    let call = first.call("trigger-long-running-operation", long_args(20), OutputSink::none());
    let kill = async {
        tokio::time::sleep(Duration::from_millis(500)).await;
        nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid as i32), nix::sys::signal::Signal::SIGKILL)
            .unwrap();
    };
    let started = Instant::now();
    let (result, ()) = tokio::join!(call, kill);
    assert_eq!(result.unwrap_err(), McpError::Closed);
    assert!(started.elapsed() < Duration::from_secs(10), "the call waited for a dead server");
    // Started again without waiting for a use: watched while it runs. It died young, so the
    // restart waits a second first.
    let started = Instant::now();
    loop {
        match slot.pid().await {
            Some(new) if new != pid => break,
            _ => {
                assert!(started.elapsed() < Duration::from_secs(20), "the dead server was not started again");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
    assert!(!alive(pid));
    let second = slot.connection().await.unwrap();
    assert_ne!(second.pid(), Some(pid));
    let echo = second
        .call("echo", json!({"message": "back"}).as_object().cloned().unwrap(), OutputSink::none())
        .await
        .unwrap();
    assert_eq!(text_of(&echo), "Echo: back");
}

#[tokio::test]
async fn a_server_that_never_answers_the_handshake_times_out_and_is_killed() {
    let dir = project();
    let marker = format!("warden-mcp-silent-{}", std::process::id());
    let spec = stdio("silent", "python3", &["-c", "import time; time.sleep(600)", &marker], BTreeMap::new());
    let slot = ServerSlot::new(spec, root(&dir), None, Duration::from_secs(2));
    let started = Instant::now();
    let error = slot.connection().await.err().unwrap();
    assert!(error.contains("did not start within 2 s"), "{error}");
    assert!(started.elapsed() < Duration::from_secs(10));
    let started = Instant::now();
    while !processes_with(&marker).is_empty() {
        assert!(started.elapsed() < Duration::from_secs(5), "the silent server still runs");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Asked again at once: not restarted in a loop, and it says when it tries again.
    let again = slot.connection().await.err().unwrap();
    assert!(again.contains("tries again in"), "{again}");
}

#[tokio::test]
async fn a_server_that_crashes_on_start_says_why_and_leaves_nothing() {
    let dir = project();
    let marker = format!("warden-mcp-crash-{}", std::process::id());
    let spec = stdio(
        "crash",
        "sh",
        &["-c", &format!("echo 'cannot find config {marker}' >&2; exit 3")],
        BTreeMap::new(),
    );
    let slot = ServerSlot::new(spec, root(&dir), None, Duration::from_secs(10));
    let error = slot.connection().await.err().unwrap();
    assert!(
        error.contains(&format!("cannot find config {marker}")),
        "the server's own words are missing: {error}"
    );
    let status = slot.status().await;
    assert!(matches!(status.state, warden_protocol::McpServerState::Failed { .. }), "{status:?}");
    for _ in 0..5 {
        assert!(slot.connection().await.is_err());
    }
    assert!(processes_with(&marker).is_empty());
}

#[tokio::test]
async fn a_stopped_call_tells_the_server_and_the_connection_goes_on() {
    let dir = project();
    // `tee` in front of the server keeps a copy of everything Warden sends it.
    let log = dir.path().join("sent.jsonl");
    let bin = server_bin("mcp-server-everything");
    let script = format!("tee '{}' | '{}' stdio", log.display(), bin.display());
    let spec = stdio("recorded", "sh", &["-c", &script], BTreeMap::new());
    let connection = connect(&spec, root(&dir), None).await.unwrap();
    let call = connection.call("trigger-long-running-operation", long_args(20), OutputSink::none());
    assert!(tokio::time::timeout(Duration::from_millis(800), call).await.is_err(), "the call ended early");
    let echo = connection.call(
        "echo",
        json!({"message": "still here"}).as_object().cloned().unwrap(),
        OutputSink::none(),
    );
    let echo = tokio::time::timeout(Duration::from_secs(10), echo).await.unwrap().unwrap();
    assert_eq!(text_of(&echo), "Echo: still here");
    // The notice goes out from the dropped call's own task: on a loaded machine it may reach the
    // server after the next call does. Wait for it (a few seconds at most).
    let cancellations = |sent: &str| -> Vec<Value> {
        sent.lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .filter(|m| m["method"] == "notifications/cancelled")
            .collect()
    };
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    let mut sent = std::fs::read_to_string(&log).unwrap();
    while cancellations(&sent).is_empty() && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
        sent = std::fs::read_to_string(&log).unwrap();
    }
    let cancelled = cancellations(&sent);
    assert_eq!(cancelled.len(), 1, "{sent}");
    let call_id = sent
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .find(|m| m["params"]["name"] == "trigger-long-running-operation")
        .map(|m| m["id"].clone())
        .unwrap();
    assert_eq!(cancelled[0]["params"]["requestId"], call_id);
    connection.close().await;
}

#[tokio::test]
async fn a_server_that_keeps_dying_is_started_again_less_and_less_often() {
    let dir = project();
    // Answers the handshake, then exits a moment later: every start "works", then it dies.
    let bin = server_bin("mcp-server-everything");
    let script = format!("timeout 1 '{}' stdio", bin.display());
    let slot = ServerSlot::new(
        stdio("flaky", "sh", &["-c", &script], BTreeMap::new()),
        root(&dir),
        None,
        Duration::from_secs(30),
    );
    let first = slot.connection().await.unwrap().pid().unwrap();
    // Watch the pids for 8 s: a restart per second would give about eight; the pauses (1 s, 2 s,
    // 4 s after each early death) give at most four.
    let mut seen = vec![first];
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(8) {
        if let Some(pid) = slot.pid().await {
            if !seen.contains(&pid) {
                seen.push(pid);
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(seen.len() >= 2, "it was started again: {seen:?}");
    assert!(seen.len() <= 4, "restarted in a loop: {} starts in 8 s", seen.len());
}

//! Background commands: handle lifecycle, reading from offsets, cancel, and death with the session.

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use warden_core::tool::BackgroundProcesses;
use warden_protocol::ToolErrorCode;

use super::common::*;

/// A generous limit for things that happen soon; the tests poll, so a fast machine waits little and
/// a loaded one still passes.
const SOON: Duration = Duration::from_secs(20);

/// Poll `check` until it gives a value or `SOON` passes.
async fn eventually<T>(what: &str, mut check: impl FnMut() -> Option<T>) -> T {
    let deadline = tokio::time::Instant::now() + SOON;
    loop {
        if let Some(value) = check() {
            return value;
        }
        assert!(tokio::time::Instant::now() < deadline, "{what} did not happen within {SOON:?}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The pid a command wrote to `file`, once it is there.
async fn pid_from(file: &std::path::Path) -> i32 {
    eventually("the pid file", || std::fs::read_to_string(file).ok()?.trim().parse().ok()).await
}

/// Read a background command's output until it has ended (the status line says how).
async fn until_ended(env: &TestEnv, handle: &str, from: u64) -> warden_core::tool::ToolOutput {
    let deadline = tokio::time::Instant::now() + SOON;
    loop {
        let out = env.call("command_output", json!({"handle": handle, "from": from})).await;
        if meta(&out, "running") == &json!(false) {
            return out;
        }
        assert!(tokio::time::Instant::now() < deadline, "{handle} did not end within {SOON:?}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn a_background_command_runs_and_its_output_is_read_from_offsets() {
    let env = TestEnv::new();
    let out =
        env.call("bash", json!({"command": "echo start; sleep 0.3; echo end", "background": true})).await;
    assert_ok(&out);
    let handle = meta(&out, "handle").as_str().unwrap_or_default().to_owned();
    assert_eq!(handle, "bg-1");
    let mut first = env.call("command_output", json!({"handle": handle})).await;
    let deadline = tokio::time::Instant::now() + SOON;
    while !first.content.starts_with("start") && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
        first = env.call("command_output", json!({"handle": handle})).await;
    }
    assert_ok(&first);
    assert!(first.content.starts_with("start\n"), "{}", first.content);
    let next = meta(&first, "next_offset").as_u64().unwrap_or(0);
    let second = until_ended(&env, &handle, next).await;
    assert!(second.content.starts_with("end\n"), "{}", second.content);
    assert!(second.content.contains("exited with code 0"), "{}", second.content);
    assert_eq!(meta(&second, "running"), &json!(false));
    let limited = env.call("command_output", json!({"handle": handle, "from": 0, "limit": 3})).await;
    assert!(limited.content.starts_with("sta") && !limited.content.starts_with("start"));
    assert_eq!(meta(&limited, "next_offset"), &json!(3));
}

#[tokio::test]
async fn cancel_command_kills_the_group_and_unknown_handles_are_named() {
    let env = TestEnv::new();
    let pid_file = env.path("bg.pid");
    let command = format!("sleep 300 & echo $! > {}; wait", pid_file.display());
    let out = env.call("bash", json!({"command": command, "background": true})).await;
    let handle = meta(&out, "handle").as_str().unwrap_or_default().to_owned();
    let pid = pid_from(&pid_file).await;
    assert!(alive(pid));
    assert_ok(&env.call("cancel_command", json!({"handle": handle})).await);
    eventually("the grandchild's death after cancel_command", || (!alive(pid)).then_some(())).await;
    let status = env.call("command_output", json!({"handle": handle})).await;
    assert!(status.content.contains("cancelled"), "{}", status.content);
    let out = env.call("cancel_command", json!({"handle": "bg-99"})).await;
    assert_code(&out, ToolErrorCode::ValidationError);
    assert!(out.content.contains("bg-99") && out.content.contains("bg-1"));
}

#[tokio::test]
async fn background_commands_die_with_the_session() {
    let env = TestEnv::new();
    let processes = Arc::new(BackgroundProcesses::new());
    let ctx = env.ctx.clone().with_processes(processes.clone());
    let pid_file = env.path("session.pid");
    let command = format!("sleep 300 & echo $! > {}; wait", pid_file.display());
    assert_ok(&env.call_with("bash", json!({"command": command, "background": true}), ctx.clone()).await);
    let pid = pid_from(&pid_file).await;
    assert!(alive(pid));
    drop(ctx);
    drop(processes);
    eventually("the background grandchild's death with its session", || (!alive(pid)).then_some(())).await;
}

#[tokio::test]
async fn background_output_keeps_only_the_most_recent_bytes() {
    let config = warden_core::tool::ToolsConfig { background_buffer_bytes: 1000, ..Default::default() };
    let env = TestEnv::with(warden_core::scope::Scope::all(), config);
    let out = env.call("bash", json!({"command": "seq 1 10000", "background": true})).await;
    let handle = meta(&out, "handle").as_str().unwrap_or_default().to_owned();
    let read = until_ended(&env, &handle, 0).await;
    assert!(read.content.contains("older bytes were dropped"), "{}", read.content);
    assert!(read.content.contains("10000\n"));
    // Every byte `seq 1 10000` prints was counted, though only the last 1,000 are kept.
    let printed: usize = (1..=10000).map(|n: u32| n.to_string().len() + 1).sum();
    assert_eq!(meta(&read, "end_offset"), &json!(printed));
}

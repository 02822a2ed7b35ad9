//! Background commands: handle lifecycle, reading from offsets, cancel, and death with the session.

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use warden_core::tool::BackgroundProcesses;
use warden_protocol::ToolErrorCode;

use super::common::*;

#[tokio::test]
async fn a_background_command_runs_and_its_output_is_read_from_offsets() {
    let env = TestEnv::new();
    let out =
        env.call("bash", json!({"command": "echo start; sleep 0.3; echo end", "background": true})).await;
    assert_ok(&out);
    let handle = meta(&out, "handle").as_str().unwrap_or_default().to_owned();
    assert_eq!(handle, "bg-1");
    let mut first = env.call("command_output", json!({"handle": handle})).await;
    for _ in 0..50 {
        if first.content.starts_with("start") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        first = env.call("command_output", json!({"handle": handle})).await;
    }
    assert_ok(&first);
    assert!(first.content.starts_with("start\n"), "{}", first.content);
    tokio::time::sleep(Duration::from_millis(700)).await;
    let next = meta(&first, "next_offset").as_u64().unwrap_or(0);
    let second = env.call("command_output", json!({"handle": handle, "from": next})).await;
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
    tokio::time::sleep(Duration::from_millis(300)).await;
    let pid: i32 = std::fs::read_to_string(&pid_file).expect("pid").trim().parse().expect("pid");
    assert!(alive(pid));
    assert_ok(&env.call("cancel_command", json!({"handle": handle})).await);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!alive(pid), "grandchild survived cancel_command");
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
    tokio::time::sleep(Duration::from_millis(300)).await;
    let pid: i32 = std::fs::read_to_string(&pid_file).expect("pid").trim().parse().expect("pid");
    assert!(alive(pid));
    drop(ctx);
    drop(processes);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!alive(pid), "a background grandchild outlived its session");
}

#[tokio::test]
async fn background_output_keeps_only_the_most_recent_bytes() {
    let config = warden_core::tool::ToolsConfig { background_buffer_bytes: 1000, ..Default::default() };
    let env = TestEnv::with(warden_core::scope::Scope::all(), config);
    let out = env.call("bash", json!({"command": "seq 1 10000", "background": true})).await;
    let handle = meta(&out, "handle").as_str().unwrap_or_default().to_owned();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let read = env.call("command_output", json!({"handle": handle})).await;
    assert!(read.content.contains("older bytes were dropped"), "{}", read.content);
    assert!(read.content.contains("10000\n"));
    assert_eq!(meta(&read, "end_offset"), &json!(48894));
}

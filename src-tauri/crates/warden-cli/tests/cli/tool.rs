//! `warden tool`: one tool through the registry, sandbox and policy; exit 0 / 1 / 2.

use super::process::{command, Dirs};

async fn run(dirs: &Dirs, args: &[&str]) -> (i32, serde_json::Value, String) {
    let mut cmd = command(dirs, args);
    cmd.stdin(std::process::Stdio::null());
    let output = cmd.output().await.unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let value = serde_json::from_str(stdout.trim()).unwrap_or(serde_json::Value::Null);
    (output.status.code().unwrap_or(-1), value, String::from_utf8_lossy(&output.stderr).into_owned())
}

#[tokio::test]
async fn a_read_succeeds_with_its_metadata() {
    let dirs = Dirs::new();
    std::fs::write(dirs.path("notes.txt"), "one\ntwo\n").unwrap();
    let (code, out, _) = run(&dirs, &["tool", "file_read", r#"{"path": "notes.txt"}"#, "--json"]).await;
    assert_eq!(code, 0);
    assert_eq!(out["status"], "success");
    assert_eq!(out["result"].as_str().unwrap(), "one\ntwo\n");
    assert_eq!(out["metadata"]["sha256"].as_str().unwrap().len(), 64);
}

#[tokio::test]
async fn tool_errors_exit_1_and_usage_errors_exit_2() {
    let dirs = Dirs::new();
    let (code, out, _) = run(&dirs, &["tool", "file_read", r#"{"path": "missing.txt"}"#, "--json"]).await;
    assert_eq!((code, out["status"].as_str()), (1, Some("error")));
    let (code, out, _) =
        run(&dirs, &["tool", "file_read", r#"{"path": "../../etc/passwd"}"#, "--json"]).await;
    assert_eq!((code, out["code"].as_str()), (1, Some("SANDBOX_VIOLATION")));
    let (code, out, _) = run(&dirs, &["tool", "file_read", r#"{"path": 7}"#, "--json"]).await;
    assert_eq!((code, out["code"].as_str()), (1, Some("VALIDATION_ERROR")));
    for args in [
        &["tool", "no_such_tool", "{}"][..],
        &["tool", "file_read", "{not json"],
        &["tool", "file_read", "[1]"],
    ] {
        let (code, _, stderr) = run(&dirs, args).await;
        assert_eq!(code, 2, "{args:?}: {stderr}");
    }
}

#[tokio::test]
async fn the_policy_applies_scope_trust_approval_and_blocklist() {
    let dirs = Dirs::new();
    // Not in scope by default (read-only set).
    let (code, out, _) = run(&dirs, &["tool", "bash", r#"{"command": "touch a"}"#, "--json"]).await;
    assert_eq!((code, out["code"].as_str()), (1, Some("PERMISSION_DENIED")));
    // In scope but rejected.
    let (code, out, _) = run(
        &dirs,
        &["tool", "bash", r#"{"command": "touch a"}"#, "--allow", "bash", "--approve", "none", "--json"],
    )
    .await;
    assert_eq!((code, out["code"].as_str()), (1, Some("USER_REJECTED")));
    assert!(!dirs.path("a").exists());
    // Approved: it runs, and its output is the result.
    let (code, out, _) = run(
        &dirs,
        &[
            "tool",
            "bash",
            r#"{"command": "touch a && echo made"}"#,
            "--allow",
            "bash",
            "--approve",
            "all",
            "--json",
        ],
    )
    .await;
    assert_eq!((code, out["result"].as_str()), (0, Some("made\n")));
    assert!(dirs.path("a").exists());
    // Blocked whatever the trust level.
    let (code, out, _) = run(
        &dirs,
        &["tool", "bash", r#"{"command": "rm -rf ~"}"#, "--allow", "bash", "--trust", "autonomous", "--json"],
    )
    .await;
    assert_eq!((code, out["code"].as_str()), (1, Some("BLOCKED_COMMAND")));
}

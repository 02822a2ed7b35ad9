//! "Always" in a remote session: the rule the remote engine keeps in the session's memory comes
//! home to this machine's settings (the project's rules under its `host:/path`), and the next
//! remote session is sent it and runs the same kind of call unasked. This side's settings are
//! sealed with the keychain, so this runs under dbus-run-session (scripts/test.sh).

use serde_json::{json, Value};
use warden_testkit::scripted::{anthropic, text, tool};
use warden_testkit::server::{Reply, Split, TestServer};

use super::process::{command, exec_args, find, with_keychain, Dirs, Warden};
use super::remote_side::{remote_user, RemoteProject, RunDir};

fn answer(parts: &[warden_testkit::scripted::Part]) -> Reply {
    Reply::sse(anthropic(parts, 10), Split::Random(5))
}

/// One remote conversation whose model runs `command_line` with bash, each confirmation answered
/// with `answer_with` (none: stdin closed, so it is not run).
async fn remote_conversation(
    dirs: &Dirs,
    target: &str,
    transport: &str,
    command_line: &str,
    answer_with: impl Fn(&Value) -> Option<Value>,
) -> Vec<Value> {
    let server = TestServer::start(vec![
        answer(&[tool("toolu_1", "bash", json!({ "command": command_line }))]),
        answer(&[text("Done.")]),
    ])
    .await;
    let args = ["--remote", target, "--transport", transport, "--allow", "all", "go"];
    let mut warden = Warden::spawn(with_keychain(command(dirs, &exec_args(&server, &args))));
    warden.answer_until_turn_ends(answer_with).await;
    let (code, lines, stderr) = warden.finish().await;
    assert_eq!(code, 0, "stderr: {stderr}");
    assert!(!stderr.contains("not kept here"), "{stderr}");
    lines
}

#[tokio::test]
#[ignore = "needs the Secret Service: scripts/test.sh runs it under dbus-run-session"]
async fn always_in_a_remote_session_is_kept_here_and_sent_to_the_next_one_keychain() {
    let user = remote_user();
    let project = RemoteProject::new(user, &[]);
    let run = RunDir::new(user);
    let transport = run.runuser(user, 5);
    let target = project.target("build-box");
    let dirs = Dirs::new();

    let first = remote_conversation(&dirs, &target, &transport, "touch one --no-create", |confirm| {
        assert_eq!(confirm["suggestedRule"], json!({"tool": "bash", "pattern": "touch *"}), "{confirm}");
        Some(json!({"confirmId": confirm["confirmId"], "approved": true, "remember": "always"}))
    })
    .await;
    let result = &find(&first, "chat:tool-result")[0]["payload"];
    assert_eq!(result["metadata"]["ruleKept"], "allow bash: touch * (project)", "{result}");

    // Kept here, as the rules of the remote project, named by host and path.
    let list = ["rules", "list", "--json", "--project", &target];
    let listed = with_keychain(command(&dirs, &list)).output().await.unwrap();
    let listed: Value = serde_json::from_slice(&listed.stdout).unwrap_or_default();
    let kept =
        listed.as_array().and_then(|all| all.iter().find(|r| r["rule"]["pattern"] == "touch *")).cloned();
    assert_eq!(kept.as_ref().map(|r| r["scope"].clone()), Some(json!("project")), "{listed}");

    // The next session there is sent it: another `touch` runs unasked.
    let second = remote_conversation(&dirs, &target, &transport, "touch two", |confirm| {
        panic!("asked again: {confirm}")
    })
    .await;
    assert!(find(&second, "chat:tool-confirm").is_empty());
    assert_eq!(find(&second, "chat:tool-result")[0]["payload"]["status"], "success");
}

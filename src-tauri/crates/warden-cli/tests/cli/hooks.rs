//! `warden hooks` and `warden exec` with a project's own hooks: shown with their exact commands,
//! not run before `approve`, then run at their points with `chat:hook` events.

use warden_testkit::scripted::{anthropic, text};
use warden_testkit::server::{Reply, Split, TestServer};

use super::process::{command, exec_args, find, Dirs, Warden};

fn answer() -> Reply {
    Reply::sse(anthropic(&[text("ok")], 10), Split::Random(5))
}

fn project_hooks(dirs: &Dirs) {
    let file = serde_json::json!({"hooks": {
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo 'The build is green.'"}]}],
        "SessionEnd": [{"hooks": [{"type": "command", "command": "touch \"$CLAUDE_PROJECT_DIR/ended\""}]}]
    }});
    std::fs::create_dir_all(dirs.path(".claude")).unwrap();
    std::fs::write(dirs.path(".claude/settings.json"), file.to_string()).unwrap();
}

async fn warden(dirs: &Dirs, args: &[&str]) -> (i32, String, String) {
    let output = command(dirs, args).output().await.unwrap();
    let out = String::from_utf8_lossy(&output.stdout).into_owned();
    (output.status.code().unwrap_or(-1), out, String::from_utf8_lossy(&output.stderr).into_owned())
}

#[tokio::test]
async fn a_project_s_hooks_are_shown_approved_by_digest_and_then_run() {
    let dirs = Dirs::new();
    project_hooks(&dirs);

    let server = TestServer::start(vec![answer()]).await;
    let (code, lines, stderr) = Warden::spawn(command(&dirs, &exec_args(&server, &["hi"]))).finish().await;
    assert_eq!(code, 0, "{stderr}");
    assert!(find(&lines, "chat:hook").is_empty(), "not run before approval");
    assert!(!dirs.path("ended").exists());

    let (code, shown, stderr) = warden(&dirs, &["hooks", "show"]).await;
    assert_eq!(code, 0, "{stderr}");
    assert!(shown.contains("UserPromptSubmit: echo 'The build is green.'"), "{shown}");
    assert!(shown.contains("not approved yet"), "{shown}");
    let (_, json, _) = warden(&dirs, &["hooks", "show", "--json"]).await;
    let digest =
        serde_json::from_str::<serde_json::Value>(&json).unwrap()["digest"].as_str().unwrap().to_owned();
    let (code, _, stderr) = warden(&dirs, &["hooks", "approve", "--digest", "0000"]).await;
    assert_eq!(code, 1, "a digest of other hooks is refused: {stderr}");
    let (code, _, stderr) = warden(&dirs, &["hooks", "approve", "--digest", &digest]).await;
    assert_eq!(code, 0, "{stderr}");

    let server = TestServer::start(vec![answer()]).await;
    let (code, lines, stderr) = Warden::spawn(command(&dirs, &exec_args(&server, &["hi"]))).finish().await;
    assert_eq!(code, 0, "{stderr}");
    let hooks: Vec<&str> =
        find(&lines, "chat:hook").iter().map(|l| l["payload"]["hookEvent"].as_str().unwrap()).collect();
    assert_eq!(hooks, ["UserPromptSubmit", "SessionEnd"]);
    let sent = server.requests()[0].body["messages"][0]["content"].to_string();
    assert!(sent.contains("Context from a hook:\\nThe build is green."), "{sent}");
    assert!(dirs.path("ended").exists(), "SessionEnd ran when exec finished");
}

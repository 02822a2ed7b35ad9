//! `warden exec "/name args"`: a custom slash command and a skill from the folders users bring
//! (the project's `.claude/`, the user's `~/.agents`), as scripts meet them.

use warden_testkit::scripted::{anthropic, text};
use warden_testkit::server::{Reply, Split, TestServer};

use super::process::{command, exec_args, names, Dirs, Warden};

fn answer(parts: &[warden_testkit::scripted::Part]) -> Reply {
    Reply::sse(anthropic(parts, 10), Split::Random(5))
}

fn write(path: &std::path::Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn folders() -> Dirs {
    let dirs = Dirs::new();
    write(
        &dirs.path(".claude/commands/greet.md"),
        "---\ndescription: Greet someone\n---\nSay hello to $ARGUMENTS.",
    );
    write(
        &dirs.home.path().join(".agents/skills/tone/SKILL.md"),
        "---\nname: tone\ndescription: How to word answers.\n---\nAnswer in one short sentence.",
    );
    dirs
}

#[tokio::test]
async fn a_project_command_is_sent_as_its_body_and_the_user_s_skills_are_named() {
    let server = TestServer::start(vec![answer(&[text("Hello, Bob.")])]).await;
    let dirs = folders();
    let warden = Warden::spawn(command(&dirs, &exec_args(&server, &["/greet Bob"])));
    let (code, _, stderr) = warden.finish().await;
    assert_eq!(code, 0, "stderr: {stderr}");
    let request = &server.requests()[0].body;
    assert_eq!(request["messages"][0]["content"], "Say hello to Bob.");
    let system = request["system"].as_str().unwrap();
    assert!(system.contains("- tone: How to word answers."), "{system}");
    assert!(!system.contains("one short sentence"), "only the description, never the body");
}

#[tokio::test]
async fn a_skill_invoked_by_name_is_read_through_its_tool_with_events() {
    let server = TestServer::start(vec![answer(&[text("Done.")])]).await;
    let dirs = folders();
    let warden = Warden::spawn(command(&dirs, &exec_args(&server, &["/tone greet Bob"])));
    let (code, lines, stderr) = warden.finish().await;
    assert_eq!(code, 0, "stderr: {stderr}");
    assert_eq!(
        names(&lines),
        [
            "chat:stream-start",
            "chat:tool-start",
            "chat:tool-result",
            "chat:stream-end",
            "chat:stream-start",
            "chat:text-delta",
            "chat:stream-end"
        ],
    );
    assert_eq!(lines[1]["payload"]["toolName"], "skill");
    assert_eq!(lines[2]["payload"]["status"], "success");
    let request = &server.requests()[0].body;
    assert_eq!(request["messages"][0]["content"], "Use the skill `tone` for this: greet Bob");
    assert!(request["messages"][2].to_string().contains("one short sentence"));
}

#[tokio::test]
async fn a_message_that_only_looks_like_a_command_is_sent_as_typed() {
    let server = TestServer::start(vec![answer(&[text("ok")])]).await;
    let dirs = folders();
    let warden = Warden::spawn(command(&dirs, &exec_args(&server, &["/usr/bin/env is missing"])));
    let (code, _, stderr) = warden.finish().await;
    assert_eq!(code, 0, "stderr: {stderr}");
    assert_eq!(server.requests()[0].body["messages"][0]["content"], "/usr/bin/env is missing");
}

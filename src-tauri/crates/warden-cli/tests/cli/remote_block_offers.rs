//! What a failed or swept command's block offers in a remote conversation, done there: a path of
//! that machine's home the box may be let read (checked against that box), and a git hook a boxed
//! command wrote, moved aside there and put back there when the user asks.

use serde_json::{json, Value};
use warden_testkit::scripted::{anthropic, text, tool};
use warden_testkit::server::{Reply, Split, TestServer};

use super::raw_link::autonomous_session;
use super::remote_side::{remote_user, RemoteProject, RunDir};

#[tokio::test]
async fn a_remote_blocks_offers_are_checked_and_done_there() {
    let user = remote_user();
    let project = RemoteProject::new(user, &[]);
    let run = RunDir::new(user);
    let hook = "git init -q sub && printf '#!/bin/sh\\necho HOOKED\\n' > sub/.git/hooks/pre-commit";
    let server = TestServer::start(vec![
        Reply::sse(anthropic(&[tool("t1", "bash", json!({ "command": hook }))], 10), Split::Random(4)),
        Reply::sse(anthropic(&[text("Done.")], 10), Split::Random(4)),
    ])
    .await;
    let (mut link, id, settings) = autonomous_session(&run, user, &project, &server.url).await;

    // The hook a boxed command wrote is moved aside there, and the block is told.
    let send = json!({"method": "send", "params": {"conversationId": id, "content": "make a repository"}});
    assert_eq!(link.request(send).await["ok"]["kind"], "done");
    let mut result = Value::Null;
    loop {
        let frame = link.read().await;
        if frame["type"] == "turn_ended" {
            break;
        }
        if frame["type"] == "event" && frame["event"]["event"] == "chat:tool-result" {
            result = frame["event"]["payload"].clone();
        }
    }
    let written = project.path.join("sub/.git/hooks/pre-commit");
    assert!(!written.exists(), "the hook stayed: {result}");
    let kept = &result["report"]["gitAside"][0];
    let (from, aside) =
        (kept["from"].as_str().unwrap_or_else(|| panic!("{result}")), kept["aside"].as_str().unwrap());
    // Put back there when the user asks; a place outside the project is refused.
    let outside = json!({"method": "git_aside_restore", "params": {"project": project.path, "from": "/tmp/pre-commit", "aside": aside}});
    assert_eq!(link.request(outside).await["error"]["usage"], true);
    let back = json!({"method": "git_aside_restore", "params": {"project": project.path, "from": from, "aside": aside}});
    assert_eq!(link.request(back).await["ok"]["kind"], "done");
    assert!(std::fs::read_to_string(&written).unwrap().contains("HOOKED"));

    // A path of that home the box left out may be offered; one not of the home may not.
    let notes = user.home.join(".0-notes-offered");
    std::fs::create_dir_all(&notes).unwrap();
    let offer = |path: &str| json!({"method": "offer_read", "params": {"project": project.path, "settings": settings, "path": path}});
    assert_eq!(link.request(offer(&notes.to_string_lossy())).await["ok"]["kind"], "done");
    let refused = link.request(offer("/etc/shadow")).await;
    assert_eq!(refused["error"]["usage"], true, "{refused}");
    assert!(refused["error"]["message"].as_str().unwrap_or("").contains("cannot be let read"), "{refused}");

    assert_eq!(link.request(json!({"method": "end"})).await["ok"]["kind"], "done");
    assert_eq!(link.finish().await, Some(0));
}

//! A remote project's own hooks and `.mcp.json`, approved from here: read there (what they hold
//! and their digests), approved by digest in this side's settings, and taken up by the session
//! already open there between turns (`resettle`), which goes on from its history.

use serde_json::{json, Value};
use warden_testkit::mcp::server_bin;
use warden_testkit::scripted::{anthropic, text, tool};
use warden_testkit::server::{Reply, Split, TestServer};

use super::raw_link::{open_request, RawLink};
use super::remote_side::{remote_user, RemoteProject, RunDir};

fn answer(words: &'static str) -> Reply {
    Reply::sse(anthropic(&[text(words)], 10), Split::Random(4))
}

/// A project there with hooks of its own and an `.mcp.json`.
fn project_with_files(user: &super::remote_side::RemoteUser) -> RemoteProject {
    let hooks = json!({"hooks": {
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "id -u > \"$CLAUDE_PROJECT_DIR/hooked\"; echo 'The build is green.'"}]}]
    }});
    let servers =
        json!({"mcpServers": {"proj": {"command": server_bin("mcp-server-everything"), "args": ["stdio"]}}});
    let command = "---\ndescription: Ship it there.\n---\nDeploy the project.";
    RemoteProject::new(
        user,
        &[
            (".mcp.json", &servers.to_string()),
            (".claude/settings.json", &hooks.to_string()),
            (".claude/commands/deploy.md", command),
        ],
    )
}

#[tokio::test]
async fn a_remote_projects_hooks_and_servers_approved_here_run_there_from_the_next_message() {
    let user = remote_user();
    let project = project_with_files(user);
    let run = RunDir::new(user);
    let server = TestServer::start(vec![answer("Ferns."), answer("Moss.")]).await;
    let mut link = RawLink::start(&run.runuser(user, 5)).await;
    assert_eq!(link.hello(env!("CARGO_PKG_VERSION")).await["type"], "welcome");
    let open = open_request(&project, &server.url);
    let id = open.session.conversation_id.clone();
    let (mut settings, session) = (open.settings.clone(), open.session.clone());
    let opened = link.request(json!({"method": "open", "params": open})).await;
    assert_eq!(opened["ok"]["kind"], "opened", "{opened}");

    // Not approved: the hook does not run.
    assert_eq!(link.turn(&id, "what grows here?").await, "completed");
    assert!(!project.path.join("hooked").exists(), "a hook ran before its approval");

    // What waits for an answer, read there.
    let asked =
        json!({"method": "project_offers", "params": {"project": project.path, "settings": settings}});
    let offers = link.request(asked).await;
    let offers = &offers["ok"]["value"];
    assert_eq!(offers["hooks"]["state"], "new", "{offers}");
    assert!(offers["hooks"]["commands"].to_string().contains("id -u"), "{offers}");
    assert!(offers["mcp"]["servers"]["proj"].is_object(), "{offers}");
    assert_eq!(offers["mcp"]["approved"], Value::Null, "{offers}");
    // Its own slash commands, read there (the composer's `/` over its conversation).
    let asked = json!({"method": "conventions", "params": {"project": project.path, "settings": settings}});
    let found = link.request(asked).await;
    let commands = found["ok"]["value"]["commands"].as_array().unwrap_or_else(|| panic!("{found}"));
    let deploy = commands.iter().find(|c| c["name"] == "deploy").unwrap_or_else(|| panic!("{found}"));
    assert_eq!(deploy["description"], "Ship it there.", "{found}");

    // Approved here by digest; the session there takes the settings up between turns.
    let path = project.path.to_string_lossy().into_owned();
    let hooks_digest = offers["hooks"]["digest"].as_str().unwrap().to_owned();
    let mcp_digest = offers["mcp"]["digest"].as_str().unwrap().to_owned();
    settings
        .project_hooks
        .insert(path.clone(), warden_protocol::ProjectHooksChoice { approved_digest: hooks_digest });
    settings
        .project_mcp
        .insert(path.clone(), warden_protocol::ProjectMcpChoice { digest: mcp_digest, approved: true });
    let mut elsewhere = session.clone();
    elsewhere.project = "/tmp".to_owned();
    let wrong = link
        .request(json!({"method": "resettle", "params": {"settings": settings, "session": elsewhere}}))
        .await;
    assert_eq!(wrong["error"]["usage"], true, "another project is refused: {wrong}");
    let resettled = link
        .request(json!({"method": "resettle", "params": {"settings": settings, "session": session}}))
        .await;
    assert_eq!(resettled["ok"]["kind"], "done", "{resettled}");

    // The next message runs the hook there, as the remote user, and goes on from the history.
    assert_eq!(link.turn(&id, "and on the rocks?").await, "completed");
    let hooked = std::fs::read_to_string(project.path.join("hooked")).expect("the approved hook ran there");
    assert_eq!(hooked.trim(), user.uid.to_string());
    let sent = server.requests()[1].body["messages"].to_string();
    assert!(sent.contains("what grows here?") && sent.contains("Ferns."), "the history goes on: {sent}");
    assert!(sent.contains("The build is green."), "the hook's context is sent: {sent}");
    // The project's server runs there now.
    let status = link.request(json!({"method": "mcp_status", "params": {"project": project.path}})).await;
    let listed = status["ok"]["value"].as_array().unwrap_or_else(|| panic!("{status}"));
    let proj = listed.iter().find(|s| s["name"] == "proj").unwrap_or_else(|| panic!("{status}"));
    assert_eq!(proj["state"], "connected", "{status}");

    assert_eq!(link.request(json!({"method": "end"})).await["ok"]["kind"], "done");
    assert_eq!(link.finish().await, Some(0));
}

#[tokio::test]
async fn a_trust_level_tightened_here_holds_for_the_remote_session_from_its_next_message() {
    let user = remote_user();
    let project = RemoteProject::new(user, &[]);
    let run = RunDir::new(user);
    let write = |file: &str| json!({"command": format!("echo hi > {file}")});
    let server = TestServer::start(vec![
        Reply::sse(anthropic(&[tool("t1", "bash", write("a.txt"))], 10), Split::Random(4)),
        answer("Done."),
        Reply::sse(anthropic(&[tool("t2", "bash", write("b.txt"))], 10), Split::Random(4)),
        answer("Not done."),
    ])
    .await;
    let mut link = RawLink::start(&run.runuser(user, 5)).await;
    assert_eq!(link.hello(env!("CARGO_PKG_VERSION")).await["type"], "welcome");
    let mut open = open_request(&project, &server.url);
    open.session.trust = warden_protocol::TrustLevel::Autonomous;
    let id = open.session.conversation_id.clone();
    let (settings, mut session) = (open.settings.clone(), open.session.clone());
    let opened = link.request(json!({"method": "open", "params": open})).await;
    assert_eq!(opened["ok"]["kind"], "opened", "{opened}");

    // Autonomous: the command in the box runs unasked.
    let send = json!({"method": "send", "params": {"conversationId": id, "content": "write a"}});
    assert_eq!(link.request(send).await["ok"]["kind"], "done");
    assert_eq!(link.confirm_or_end().await, None, "Autonomous asked");
    assert!(project.path.join("a.txt").exists());

    // Supervised from now on: the same kind of call asks, and a no keeps it from running.
    session.trust = warden_protocol::TrustLevel::Supervised;
    let resettled = link
        .request(json!({"method": "resettle", "params": {"settings": settings, "session": session}}))
        .await;
    assert_eq!(resettled["ok"]["kind"], "done", "{resettled}");
    let send = json!({"method": "send", "params": {"conversationId": id, "content": "write b"}});
    assert_eq!(link.request(send).await["ok"]["kind"], "done");
    let confirm = link.confirm_or_end().await.expect("Supervised did not ask");
    let no = json!({"confirmId": confirm["confirmId"], "approved": false});
    assert_eq!(link.request(json!({"method": "approve", "params": no})).await["ok"]["kind"], "done");
    assert_eq!(link.confirm_or_end().await, None);
    assert!(!project.path.join("b.txt").exists(), "ran without an answer");

    assert_eq!(link.request(json!({"method": "end"})).await["ok"]["kind"], "done");
    assert_eq!(link.finish().await, Some(0));
}

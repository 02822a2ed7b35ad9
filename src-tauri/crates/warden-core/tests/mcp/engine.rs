//! MCP tools on the one tool-call path: a model's turn (a real provider over loopback HTTP) and
//! `warden tool`'s `Engine::run_tool` call `mcp__everything__…` tools through the same policy,
//! approval and events as the built-in tools; the user's per-tool choices hold.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use warden_core::config::WardenHome;
use warden_core::engine::{Engine, SessionSpec};
use warden_core::secrets::{MemoryStore, SecretStore};
use warden_protocol::{
    Event, KeyName, McpServerConfig, McpToolChoice, ProviderId, ToolApproval, ToolCategory, ToolStatus,
    TrustLevel,
};
use warden_testkit::mcp::server_bin;
use warden_testkit::scripted::{text, tool};

use crate::agent::harness::Wire;
use crate::support::server::TestServer;

struct Place {
    _dirs: tempfile::TempDir,
    project: std::path::PathBuf,
    engine: Engine,
}

async fn place() -> Place {
    let dirs = tempfile::tempdir().unwrap();
    let project = std::fs::canonicalize(dirs.path()).unwrap().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let store = Arc::new(MemoryStore::new());
    store.set(KeyName::Anthropic, "test-key").await.unwrap();
    let engine = Engine::new(WardenHome::at(dirs.path().join("home")), store).unwrap();
    Place { _dirs: dirs, project, engine }
}

fn everything(tools: BTreeMap<String, McpToolChoice>) -> BTreeMap<String, McpServerConfig> {
    let config = McpServerConfig {
        command: Some(server_bin("mcp-server-everything").to_string_lossy().into_owned()),
        args: vec!["stdio".to_owned()],
        tools,
        ..McpServerConfig::default()
    };
    BTreeMap::from([("everything".to_owned(), config)])
}

fn spec(place: &Place, servers: BTreeMap<String, McpServerConfig>, base_url: Option<String>) -> SessionSpec {
    let mut spec = SessionSpec::new(place.project.clone());
    spec.provider = ProviderId::Anthropic;
    spec.base_url = base_url;
    spec.model = Some("test-model".to_owned());
    spec.trust = TrustLevel::Guided;
    spec.approval_timeout_secs = Some(20);
    spec.mcp_servers = servers;
    spec
}

#[tokio::test]
async fn a_models_turn_calls_an_mcp_tool_after_the_user_approves_it() {
    let place = place().await;
    let server = TestServer::start(vec![
        Wire::Anthropic
            .reply(&[tool("call-1", "mcp__everything__echo", json!({"message": "through the loop"}))], 10),
        Wire::Anthropic.reply(&[text("done")], 10),
    ])
    .await;
    let (session, mut events) = place
        .engine
        .start(spec(&place, everything(BTreeMap::new()), Some(server.url.clone())))
        .await
        .unwrap();
    let offered = session.tool_definitions();
    let echo = offered.iter().find(|d| d.name == "mcp__everything__echo").expect("the MCP tool is offered");
    assert_eq!(echo.category, ToolCategory::Mcp);
    assert_eq!(
        echo.danger,
        warden_protocol::DangerLevel::Dangerous,
        "annotations say read-only; Warden does not believe them"
    );
    let turn = {
        let session = session.clone();
        tokio::spawn(async move { session.send("go").await })
    };
    let mut asked = false;
    let mut started = None;
    // The engine names the server and the tool's own name on the block and the question.
    let origin = Some(warden_protocol::McpOrigin { server: "everything".into(), tool: "echo".into() });
    let result = loop {
        let event = tokio::time::timeout(Duration::from_secs(60), events.recv()).await.unwrap().unwrap();
        match event {
            Event::ToolStart(start) => started = Some(start.mcp),
            Event::ToolConfirm(confirm) => {
                assert_eq!(confirm.tool_name, "mcp__everything__echo");
                assert_eq!(confirm.mcp, origin);
                asked = true;
                session
                    .approve(ToolApproval {
                        confirm_id: confirm.confirm_id,
                        approved: true,
                        reason: None,
                        remember: None,
                        always: None,
                    })
                    .unwrap();
            }
            Event::ToolResult(result) => break result,
            _ => {}
        }
    };
    turn.await.unwrap().unwrap();
    assert!(asked, "Guided asks before a dangerous MCP tool");
    assert_eq!(started, Some(origin), "the tool-start names the server");
    assert_eq!(result.status, ToolStatus::Success, "{result:?}");
    assert_eq!(result.result, "Echo: through the loop");
    // The model's second request carries the MCP result back.
    let requests = server.requests();
    assert!(requests.last().unwrap().body.to_string().contains("Echo: through the loop"));
    place.engine.close_mcp_servers().await;
}

#[tokio::test]
async fn warden_tool_runs_an_mcp_tool_on_the_same_path_and_choices_hold() {
    let place = place().await;
    let choices = BTreeMap::from([
        ("get-sum".to_owned(), McpToolChoice::Allow),
        ("get-env".to_owned(), McpToolChoice::Deny),
    ]);
    // Allowed: runs without asking in Guided.
    let shot = place
        .engine
        .run_tool(
            spec(&place, everything(choices.clone()), None),
            "mcp__everything__get-sum",
            json!({"a": 1, "b": 2}),
            |_, _| {},
            |_| async { panic!("an allowed MCP tool must not ask") },
        )
        .await
        .unwrap();
    assert_eq!(shot.result.status, ToolStatus::Success, "{:?}", shot.result);
    assert!(shot.result.result.contains('3'));
    // Denied: not there at all.
    let denied = place
        .engine
        .run_tool(
            spec(&place, everything(choices.clone()), None),
            "mcp__everything__get-env",
            json!({}),
            |_, _| {},
            |_| async { panic!("a denied tool must not ask") },
        )
        .await;
    assert!(denied.is_err(), "a denied MCP tool must not exist for the session");
    // Input the server's schema refuses never reaches the server.
    let invalid = place
        .engine
        .run_tool(
            spec(&place, everything(choices), None),
            "mcp__everything__get-sum",
            json!({"a": "one"}),
            |_, _| {},
            |_| async { panic!("invalid input must not ask") },
        )
        .await
        .unwrap();
    assert_eq!(
        invalid.result.code,
        Some(warden_protocol::ToolErrorCode::ValidationError),
        "{:?}",
        invalid.result
    );
    place.engine.close_mcp_servers().await;
}

/// A server's tool is checkpointed like a command (`warden_core::tool::changes_files`): a stdio
/// server runs in the project's box, which may write the project, so what its call changed is
/// reported with the checkpoint that undoes it.
#[tokio::test]
async fn what_an_mcp_tool_changes_is_checkpointed_like_a_command() {
    let place = place().await;
    let config = McpServerConfig {
        command: Some(server_bin("mcp-server-filesystem").to_string_lossy().into_owned()),
        args: vec![place.project.to_string_lossy().into_owned()],
        tools: BTreeMap::from([("write_file".to_owned(), McpToolChoice::Allow)]),
        ..McpServerConfig::default()
    };
    let servers = BTreeMap::from([("files".to_owned(), config)]);
    let made = place.project.join("made.txt");
    let shot = place
        .engine
        .run_tool(
            spec(&place, servers, None),
            "mcp__files__write_file",
            json!({"path": made, "content": "made by a server"}),
            |_, _| {},
            |_| async { panic!("an allowed MCP tool must not ask") },
        )
        .await
        .unwrap();
    assert_eq!(shot.result.status, ToolStatus::Success, "{:?}", shot.result);
    assert_eq!(std::fs::read_to_string(&made).unwrap(), "made by a server");
    let changes = shot.result.report.changes.clone();
    let changes = changes.unwrap_or_else(|| panic!("no changes reported: {:?}", shot.result));
    assert!(changes.checkpoint_id.is_some(), "{changes:?}");
    assert_eq!(changes.files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(), ["made.txt"]);
    place.engine.close_mcp_servers().await;
}

#[tokio::test]
async fn a_settings_file_not_written_by_warden_starts_no_mcp_server() {
    let dirs = tempfile::tempdir().unwrap();
    let home = WardenHome::at(dirs.path().join("home"));
    let marker = dirs.path().join("started");
    let settings = json!({"mcpServers": {"planted": {"command": "sh", "args": ["-c", format!("touch '{}'", marker.display())]}}});
    std::fs::create_dir_all(home.settings_path().parent().unwrap()).unwrap();
    std::fs::write(home.settings_path(), settings.to_string()).unwrap();
    let store = Arc::new(MemoryStore::new());
    store.set(KeyName::Anthropic, "test-key").await.unwrap();
    let engine = Engine::new(home, store).unwrap();
    assert!(engine.settings().mcp_servers.is_empty());
    let project = std::fs::canonicalize(dirs.path()).unwrap().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let statuses = engine.mcp_statuses(&project, &BTreeMap::new()).await.unwrap();
    assert!(statuses.is_empty());
    assert!(!marker.exists(), "a planted server was started");
}

#[tokio::test]
async fn a_tool_set_to_ask_asks_even_in_autonomous() {
    let place = place().await;
    let mut spec = spec(&place, everything(BTreeMap::from([("echo".to_owned(), McpToolChoice::Ask)])), None);
    spec.trust = TrustLevel::Autonomous;
    let asked = std::sync::Mutex::new(None);
    let shot = place
        .engine
        .run_tool(
            spec,
            "mcp__everything__echo",
            json!({"message": "ok"}),
            |_, _| {},
            |confirm| {
                *asked.lock().unwrap() = confirm.reason.clone();
                async move {
                    ToolApproval {
                        confirm_id: String::new(),
                        approved: true,
                        reason: None,
                        remember: None,
                        always: None,
                    }
                }
            },
        )
        .await
        .unwrap();
    assert_eq!(shot.result.status, ToolStatus::Success);
    let reason = asked.into_inner().unwrap().expect("an `ask` tool asks in Autonomous");
    assert!(reason.contains("You chose to be asked"), "{reason}");
    place.engine.close_mcp_servers().await;
}

#[tokio::test]
async fn a_projects_own_mcp_json_is_used_only_once_approved_and_again_after_it_changes() {
    let place = place().await;
    let marker = place.project.join("started-by-mcp-json");
    let file = place.project.join(".mcp.json");
    let write = |extra: &str| {
        let servers = json!({"mcpServers": {
            "everything": {"command": server_bin("mcp-server-everything"), "args": ["stdio"]},
            "planted": {"command": "sh", "args": ["-c", format!("touch '{}'{extra}", marker.display())]},
        }});
        std::fs::write(&file, servers.to_string()).unwrap();
    };
    write("");
    let names = |session: &warden_core::agent::Session| -> Vec<String> {
        session.tool_definitions().into_iter().map(|d| d.name).filter(|n| n.starts_with("mcp__")).collect()
    };

    // Opened, not approved: offered, nothing started.
    let offer = place.engine.project_mcp_offer(&place.project).unwrap().unwrap();
    assert_eq!(offer.approved, None);
    assert_eq!(offer.servers.len(), 2);
    let (session, _events) = place.engine.start(spec(&place, BTreeMap::new(), None)).await.unwrap();
    assert!(names(&session).is_empty());
    assert!(!marker.exists(), "a server of an unapproved .mcp.json was started");

    // Declined: still nothing.
    place.engine.choose_project_mcp(&place.project, &offer.digest, false).unwrap();
    let (session, _events) = place.engine.start(spec(&place, BTreeMap::new(), None)).await.unwrap();
    assert!(names(&session).is_empty());

    // Approved (what the user saw): its servers are used.
    place.engine.choose_project_mcp(&place.project, &offer.digest, true).unwrap();
    let (session, _events) = place.engine.start(spec(&place, BTreeMap::new(), None)).await.unwrap();
    assert!(names(&session).contains(&"mcp__everything__echo".to_owned()), "{:?}", names(&session));
    place.engine.close_mcp_servers().await;
    std::fs::remove_file(&marker).ok();

    // Changed afterwards (a pull that edits it): offered again, not used.
    write(" # changed");
    let offer = place.engine.project_mcp_offer(&place.project).unwrap().unwrap();
    assert_eq!(offer.approved, None);
    let (session, _events) = place.engine.start(spec(&place, BTreeMap::new(), None)).await.unwrap();
    assert!(names(&session).is_empty());
    assert!(!marker.exists(), "a changed .mcp.json was used without asking");
}

#[tokio::test]
async fn an_entry_names_a_secret_kept_in_the_keychain_instead_of_holding_it() {
    let place = place().await;
    place.engine.keep_mcp_secret("test-token", "kept-in-the-keychain-42").await.unwrap();
    let mut servers = everything(BTreeMap::new());
    if let Some(entry) = servers.get_mut("everything") {
        entry.env.insert("SERVICE_TOKEN".to_owned(), "keychain:test-token".to_owned());
    }
    let shot = place
        .engine
        .run_tool(
            spec(&place, servers.clone(), None),
            "mcp__everything__get-env",
            json!({}),
            |_, _| {},
            |c| async move {
                ToolApproval {
                    confirm_id: c.confirm_id,
                    approved: true,
                    reason: None,
                    remember: None,
                    always: None,
                }
            },
        )
        .await
        .unwrap();
    assert!(
        shot.result.result.contains("kept-in-the-keychain-42"),
        "the server got the secret: {}",
        shot.result.result
    );
    assert!(!std::fs::read_to_string(place.engine.home().settings_path())
        .unwrap_or_default()
        .contains("kept-in-the-keychain"));
    place.engine.close_mcp_servers().await;

    // A secret that was never kept: the server is not started, and the reason says how to fix it.
    if let Some(entry) = servers.get_mut("everything") {
        entry.env.insert("SERVICE_TOKEN".to_owned(), "keychain:never-kept".to_owned());
    }
    let statuses = place.engine.mcp_statuses(&place.project, &servers).await.unwrap();
    let error = format!("{:?}", statuses[0].state);
    assert!(error.contains("warden mcp secret never-kept"), "{error}");
}

#[tokio::test]
async fn an_mcp_tools_image_reaches_an_anthropic_model_as_an_image() {
    let place = place().await;
    let server = TestServer::start(vec![
        Wire::Anthropic.reply(&[tool("call-1", "mcp__everything__get-tiny-image", json!({}))], 10),
        Wire::Anthropic.reply(&[text("a logo")], 10),
    ])
    .await;
    let allowed = BTreeMap::from([("get-tiny-image".to_owned(), McpToolChoice::Allow)]);
    let (session, mut events) =
        place.engine.start(spec(&place, everything(allowed), Some(server.url.clone()))).await.unwrap();
    let turn = tokio::spawn(async move { session.send("show me").await });
    let mut live_images = Vec::new();
    while let Some(event) = tokio::time::timeout(Duration::from_secs(60), events.recv()).await.unwrap() {
        if let Event::ToolResult(ref result) = event {
            live_images = result.images.clone();
        }
        if matches!(event, Event::StreamEnd(ref end) if end.stop_reason == warden_protocol::StopReason::EndTurn)
        {
            break;
        }
    }
    turn.await.unwrap().unwrap();
    // The window shows the image as the result comes, not only once the conversation is reopened.
    assert_eq!(live_images.len(), 1, "the live result carries the server's image");
    assert_eq!(live_images[0].media_type, "image/png");
    let requests = server.requests();
    let result = requests[1].body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["content"].as_array().cloned().unwrap_or_default())
        .find(|b| b["type"] == "tool_result")
        .unwrap();
    let parts = result["content"].as_array().expect("text and image parts");
    assert_eq!(parts[0]["type"], "text");
    assert_eq!(parts[1]["type"], "image");
    assert_eq!(parts[1]["source"]["media_type"], "image/png");
    assert!(parts[1]["source"]["data"].as_str().unwrap().len() > 100, "the image's bytes went to the model");
    place.engine.close_mcp_servers().await;
}

/// `tests/mcp/servers/changing-tools.mjs`, every tool allowed.
fn changing_tools() -> BTreeMap<String, McpServerConfig> {
    let script = warden_testkit::mcp::servers_dir().join("servers/changing-tools.mjs");
    let allowed = ["unlock", "lock", "unlocked"].map(|t| (t.to_owned(), McpToolChoice::Allow));
    let config = McpServerConfig {
        command: Some(server_bin("node").to_string_lossy().into_owned()),
        args: vec![script.to_string_lossy().into_owned()],
        tools: BTreeMap::from(allowed),
        ..McpServerConfig::default()
    };
    BTreeMap::from([("changing".to_owned(), config)])
}

/// The names of the tools a recorded request to the model offered.
fn offered_in(request: &serde_json::Value) -> Vec<String> {
    request["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["name"].as_str().map(str::to_owned))
        .collect()
}

#[tokio::test]
async fn a_tool_a_server_adds_mid_conversation_is_offered_in_the_next_request_and_a_removed_one_is_not() {
    let place = place().await;
    let server = TestServer::start(vec![
        Wire::Anthropic.reply(&[tool("call-1", "mcp__changing__unlock", json!({}))], 10),
        Wire::Anthropic.reply(&[tool("call-2", "mcp__changing__unlocked", json!({"message": "hi"}))], 10),
        Wire::Anthropic.reply(&[tool("call-3", "mcp__changing__lock", json!({}))], 10),
        Wire::Anthropic.reply(&[text("done")], 10),
        // A second message of the same conversation, after the server took the tool away.
        Wire::Anthropic.reply(&[text("still here")], 10),
    ])
    .await;
    let (session, mut events) =
        place.engine.start(spec(&place, changing_tools(), Some(server.url.clone()))).await.unwrap();
    let names: Vec<String> = session.tool_definitions().into_iter().map(|d| d.name).collect();
    assert!(names.contains(&"mcp__changing__unlock".to_owned()), "{names:?}");
    assert!(!names.contains(&"mcp__changing__unlocked".to_owned()), "not offered before `unlock`");

    let drain = tokio::spawn(async move {
        let mut results = Vec::new();
        while let Some(event) = events.recv().await {
            if let Event::ToolResult(result) = event {
                results.push(result);
            }
        }
        results
    });
    session.send("open up").await.unwrap();
    session.send("and now?").await.unwrap();
    let offered: Vec<Vec<String>> = server.requests().iter().map(|r| offered_in(&r.body)).collect();
    assert_eq!(offered.len(), 5);
    let has = |i: usize| offered[i].contains(&"mcp__changing__unlocked".to_owned());
    assert!(!has(0), "the first request: not yet");
    assert!(has(1), "the request after `unlock` offers the new tool: {:?}", offered[1]);
    assert!(has(2), "still there while the server offers it");
    assert!(!has(3), "the request after `lock` no longer offers it: {:?}", offered[3]);
    assert!(!has(4), "nor does the next message's");
    assert!(offered[4].contains(&"file_read".to_owned()), "the built-in tools stay");

    place.engine.close_mcp_servers().await;
    drop(session);
    let results = drain.await.unwrap();
    let unlocked = results.iter().find(|r| r.tool_id == "call-2").expect("the new tool was called");
    assert_eq!(unlocked.status, ToolStatus::Success, "{unlocked:?}");
    assert_eq!(unlocked.result, "unlocked: hi");
}

/// Answers every sampling request as told, keeping what the user was shown; fills in no forms.
struct AnswersSampling {
    allow: bool,
    shown: std::sync::Mutex<Vec<String>>,
}

#[async_trait::async_trait]
impl warden_core::mcp::Elicitor for AnswersSampling {
    async fn elicit(&self, _: &str, _: &str, _: &serde_json::Value) -> warden_core::mcp::Elicitation {
        warden_core::mcp::Elicitation::Decline
    }

    async fn allow_sampling(&self, server: &str, request: &str) -> bool {
        self.shown.lock().unwrap().push(format!("{server}: {request}"));
        self.allow
    }
}

/// server-everything with sampling on as the entry says, its sampling tool allowed.
fn everything_sampling(sampling: bool) -> BTreeMap<String, McpServerConfig> {
    let mut servers =
        everything(BTreeMap::from([("trigger-sampling-request".to_owned(), McpToolChoice::Allow)]));
    servers.values_mut().for_each(|config| config.sampling = sampling);
    servers
}

/// One message whose model calls server-everything's sampling tool; the tool's result.
async fn sample_through(place: &Place, server: &TestServer, sampling: bool) -> warden_protocol::ToolResult {
    let (session, mut events) = place
        .engine
        .start(spec(place, everything_sampling(sampling), Some(server.url.clone())))
        .await
        .unwrap();
    let turn = tokio::spawn(async move { session.send("ask it").await });
    let result = loop {
        match tokio::time::timeout(Duration::from_secs(60), events.recv()).await.unwrap().unwrap() {
            Event::ToolResult(result) => break result,
            _ => continue,
        }
    };
    turn.await.unwrap().unwrap();
    result
}

fn sampling_call() -> warden_testkit::scripted::Part {
    tool(
        "call-1",
        "mcp__everything__trigger-sampling-request",
        json!({"prompt": "name a colour", "maxTokens": 50}),
    )
}

#[tokio::test]
async fn a_server_allowed_to_sample_gets_the_users_model_once_the_user_allows_the_request() {
    let place = place().await;
    let asker = Arc::new(AnswersSampling { allow: true, shown: Default::default() });
    place.engine.set_mcp_elicitor(asker.clone());
    let server = TestServer::start(vec![
        Wire::Anthropic.reply(&[sampling_call()], 10),
        // The server's sampling request, answered by the same model.
        Wire::Anthropic.reply(&[text("teal")], 10),
        Wire::Anthropic.reply(&[text("done")], 10),
    ])
    .await;
    let result = sample_through(&place, &server, true).await;
    assert_eq!(result.status, ToolStatus::Success, "{result:?}");
    assert!(result.result.contains("teal"), "the model's answer went back to the server: {}", result.result);

    let shown = asker.shown.lock().unwrap().clone();
    assert_eq!(shown.len(), 1, "the user was asked once: {shown:?}");
    assert!(shown[0].starts_with("everything: ") && shown[0].contains("name a colour"), "{shown:?}");
    assert!(shown[0].contains("You are a helpful test server."), "the server's instructions are shown");

    let requests = server.requests();
    assert_eq!(requests.len(), 3);
    let sampled = &requests[1].body;
    assert_eq!(sampled["system"], "You are a helpful test server.");
    assert_eq!(sampled["max_tokens"], 50);
    assert!(
        sampled.get("tools").is_none_or(|t| t.as_array().is_some_and(Vec::is_empty)),
        "no tools: {sampled}"
    );
    assert!(sampled["messages"].to_string().contains("name a colour"));
    assert!(!sampled["messages"].to_string().contains("ask it"), "the conversation is not sent with it");
    place.engine.close_mcp_servers().await;
}

#[tokio::test]
async fn a_declined_sampling_request_reaches_no_model_and_a_server_not_allowed_is_not_offered_it() {
    let place = place().await;
    let asker = Arc::new(AnswersSampling { allow: false, shown: Default::default() });
    place.engine.set_mcp_elicitor(asker.clone());
    let server = TestServer::start(vec![
        Wire::Anthropic.reply(&[sampling_call()], 10),
        Wire::Anthropic.reply(&[text("ok")], 10),
    ])
    .await;
    let result = sample_through(&place, &server, true).await;
    assert_eq!(asker.shown.lock().unwrap().len(), 1);
    assert!(result.result.contains("declined"), "{result:?}");
    assert_eq!(server.requests().len(), 2, "nothing was sent to the model for the server");
    place.engine.close_mcp_servers().await;

    // Without `"sampling": true` Warden does not offer sampling, so server-everything does not
    // even have its sampling tool.
    let (session, _events) =
        place.engine.start(spec(&place, everything_sampling(false), Some(server.url.clone()))).await.unwrap();
    let names: Vec<String> = session.tool_definitions().into_iter().map(|d| d.name).collect();
    assert!(names.contains(&"mcp__everything__echo".to_owned()), "{names:?}");
    assert!(!names.iter().any(|n| n.contains("sampling")), "{names:?}");
    place.engine.close_mcp_servers().await;
}

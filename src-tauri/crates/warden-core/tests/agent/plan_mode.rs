//! Plan mode through the engine: the model is offered only the tools that read (and `bash` in a
//! read-only box without the network), its turn ends with the plan it proposes, and the plan the
//! user approved becomes the task list before the work starts.

use serde_json::json;
use warden_core::agent::SendMode;
use warden_protocol::{Event, TrustLevel};

use super::harness::Wire;
use super::through_engine::{place, start_session, tool_names, tool_results, write};
use super::wire::{text, tool};
use crate::support::server::TestServer;

/// Send `prompt` as `mode` says, approving every confirmation; the turn's events.
async fn send(
    session: &warden_core::agent::Session,
    events: &mut tokio::sync::mpsc::UnboundedReceiver<Event>,
    prompt: &str,
    mode: SendMode,
) -> Vec<Event> {
    let turn = session.send_as(prompt, Vec::new(), mode).await.unwrap();
    assert_eq!(turn, warden_core::agent::TurnEnd::Completed);
    let mut seen = Vec::new();
    while let Ok(event) = events.try_recv() {
        seen.push(event);
    }
    seen
}

fn plan_input() -> serde_json::Value {
    json!({ "plan": "Fix the parser.\n\nIt drops the last token.", "steps": ["Add a failing test", "Fix the loop bound"] })
}

#[tokio::test]
async fn planning_offers_only_reading_tools_commands_cannot_write_and_the_turn_ends_with_the_plan() {
    let place = place().await;
    write(&place.project.join("src/parser.rs"), "fn parse() {}\n");
    let server = TestServer::start(vec![
        Wire::Anthropic.reply(&[tool("t1", "bash", json!({ "command": "echo planned > planned.txt" }))], 10),
        Wire::Anthropic.reply(&[tool("t2", "propose_plan", plan_input())], 10),
        Wire::Anthropic.reply(&[text("never asked")], 10),
    ])
    .await;
    let engine = place.engine();
    let (session, mut events) = start_session(&engine, &place.project, &server, TrustLevel::Guided).await;
    let seen =
        send(&session, &mut events, "plan the fix", SendMode { plan: true, ..SendMode::default() }).await;

    let requests = server.requests();
    assert_eq!(requests.len(), 2, "the turn ends with the proposed plan");
    let mut offered = tool_names(&requests[0].body);
    offered.sort();
    assert_eq!(
        offered,
        ["bash", "file_info", "file_read", "list_dir", "propose_plan", "search_files", "search_in_files"]
    );
    assert!(requests[0].body["system"].as_str().unwrap().contains("# Plan mode"));
    let written = tool_results(&requests[1].body).pop().unwrap();
    assert!(written.contains("Read-only file system"), "{written}");
    assert!(!place.project.join("planned.txt").exists());
    assert!(
        !seen.iter().any(|e| matches!(e, Event::ToolConfirm(_))),
        "a command in the read-only box does not ask"
    );
    let proposed =
        seen.iter().find_map(|e| if let Event::Plan(p) = e { Some(p) } else { None }).expect("chat:plan");
    assert_eq!(proposed.steps, ["Add a failing test", "Fix the loop bound"]);
    assert!(proposed.plan.starts_with("Fix the parser."));
}

#[tokio::test]
async fn the_approved_plan_becomes_the_task_list_and_the_tools_come_back() {
    let place = place().await;
    let server = TestServer::start(vec![
        Wire::Anthropic.reply(&[tool("t1", "propose_plan", plan_input())], 10),
        Wire::Anthropic.reply(&[text("on it")], 10),
    ])
    .await;
    let engine = place.engine();
    let (session, mut events) = start_session(&engine, &place.project, &server, TrustLevel::Guided).await;
    send(&session, &mut events, "plan it", SendMode { plan: true, ..SendMode::default() }).await;
    let edited =
        vec!["Add a failing test".to_owned(), "Fix the loop bound".to_owned(), "Run the suite".to_owned()];
    let seen = send(
        &session,
        &mut events,
        "Carry out the approved plan.",
        SendMode { approved_plan: edited, ..SendMode::default() },
    )
    .await;

    let todo =
        seen.iter().find_map(|e| if let Event::Todo(t) = e { Some(t) } else { None }).expect("chat:todo");
    let texts: Vec<&str> = todo.items.iter().map(|i| i.text.as_str()).collect();
    assert_eq!(texts, ["Add a failing test", "Fix the loop bound", "Run the suite"]);
    let request = &server.requests()[1].body;
    assert!(tool_results(request).last().unwrap().contains("3"), "the model reads the list it was given");
    let offered = tool_names(request);
    assert!(
        offered.contains(&"file_write".to_owned()) && !offered.contains(&"propose_plan".to_owned()),
        "{offered:?}"
    );
}

#[tokio::test]
async fn outside_plan_mode_propose_plan_is_neither_offered_nor_run() {
    let place = place().await;
    let server = TestServer::start(vec![
        Wire::Anthropic.reply(&[tool("t1", "propose_plan", plan_input())], 10),
        Wire::Anthropic.reply(&[text("ok")], 10),
    ])
    .await;
    let engine = place.engine();
    let (session, mut events) = start_session(&engine, &place.project, &server, TrustLevel::Guided).await;
    let seen = send(&session, &mut events, "hi", SendMode::default()).await;
    let requests = server.requests();
    assert!(!tool_names(&requests[0].body).contains(&"propose_plan".to_owned()));
    assert!(tool_results(&requests[1].body).pop().unwrap().contains("plan mode only"));
    assert!(!seen.iter().any(|e| matches!(e, Event::Plan(_))));
}

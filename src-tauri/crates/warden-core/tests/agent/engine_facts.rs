//! Facts the engine owns and sends to the faces, so the window shows what the engine uses.

use std::sync::Arc;
use std::time::Duration;

use warden_core::config::WardenHome;
use warden_core::engine::{Engine, SessionSpec};
use warden_core::secrets::MemoryStore;
use warden_protocol::{Event, ProviderId, ToolCategory};

use super::harness::Wire;
use super::wire::{text, tool};
use crate::support::server::{Reply, TestServer};

/// Events of one turn, up to its end.
async fn turn_events(events: &mut tokio::sync::mpsc::UnboundedReceiver<Event>) -> Vec<Event> {
    let mut out = Vec::new();
    loop {
        let event = tokio::time::timeout(Duration::from_secs(30), events.recv())
            .await
            .expect("the turn went quiet for 30 s")
            .expect("the session closed");
        let end = matches!(&event, Event::StreamEnd(e) if e.stop_reason != warden_protocol::StopReason::ToolUse)
            || matches!(event, Event::Error(_));
        out.push(event);
        if end {
            return out;
        }
    }
}

/// A local model the engine's own table does not know: its context window comes from what the
/// server reports, and reaches the window on `chat:stream-start` (the gauge shows it).
#[tokio::test]
async fn a_local_model_budgets_with_the_window_its_server_reports_and_says_so() {
    let tags = br#"{"models":[{"name":"tiny-local:latest","capabilities":["completion","tools"],
        "details":{"context_length":4096}}]}"#;
    let server = TestServer::start(vec![
        Reply::json(tags.to_vec()),
        Wire::Ollama.reply(&[tool("t1", "list_dir", serde_json::json!({"path": "."}))], 10),
        Wire::Ollama.reply(&[text("done")], 10),
    ])
    .await;
    let dirs = tempfile::tempdir().unwrap();
    let project = std::fs::canonicalize(dirs.path()).unwrap().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let engine = Engine::new(WardenHome::at(dirs.path().join("home")), Arc::new(MemoryStore::new())).unwrap();
    let mut spec = SessionSpec::new(project);
    spec.provider = ProviderId::Ollama;
    spec.base_url = Some(server.url.clone());
    spec.model = Some("tiny-local".to_owned());
    let (session, mut events) = engine.start(spec).await.unwrap();
    assert_eq!(session.config().context_window, Some(4096));
    let turn = tokio::spawn(async move { session.send("list").await });
    let events = turn_events(&mut events).await;
    turn.await.unwrap().unwrap();
    let starts: Vec<Option<u32>> = events
        .iter()
        .filter_map(|e| if let Event::StreamStart(s) = e { Some(s.context_window) } else { None })
        .collect();
    assert_eq!(starts, [Some(4096), Some(4096)]);
    // The tool block's kind comes from the tool's definition, not from its name.
    let categories: Vec<_> = events
        .iter()
        .filter_map(|e| if let Event::ToolStart(s) = e { Some(s.category) } else { None })
        .collect();
    assert_eq!(categories, [Some(ToolCategory::FileRead)]);
}

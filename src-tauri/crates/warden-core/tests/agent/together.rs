//! Behaviours no single-conversation test shows: two conversations running at once in one process
//! (approvals reach only their own conversation, cancelling one leaves the other alone), and a
//! conversation that moves to another provider mid-way (what one wire recorded — thinking with its
//! signature, tool calls and results — goes to the next wire in that wire's own shape).

use std::time::Duration;

use serde_json::{json, Value};
use warden_core::agent::TurnEnd;
use warden_protocol::{ToolErrorCode, ToolStatus, TrustLevel};

use super::harness::{answer, Harness, Wire};
use super::wire::{text, tool, Part};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_conversations_at_once_keep_their_approvals_and_cancels_apart() {
    let a_replies = vec![
        Wire::Anthropic
            .reply(&[tool("a1", "file_write", json!({"path": "a.txt", "content": "from A\n"}))], 10),
        Wire::Anthropic.reply(&[text("A is done")], 10),
    ];
    let b_replies = vec![
        Wire::OpenAi.reply(&[tool("b1", "bash", json!({"command": "echo $$ > b.pid; exec sleep 30"}))], 10),
        Wire::OpenAi.reply(&[text("never")], 10),
    ];
    let mut a = Harness::new(Wire::Anthropic, a_replies, |c| c.trust = TrustLevel::Guided).await;
    let mut b = Harness::new(Wire::OpenAi, b_replies, |c| c.trust = TrustLevel::Guided).await;
    let (a_session, b_session) = (a.session.clone(), b.session.clone());

    // A's approver first tries to answer B's call on A's session, then on B's session tries A's:
    // neither lands; then each conversation answers its own.
    let cross_a = a_session.clone();
    let a_approver = Box::new(move |c: &warden_protocol::ToolConfirm| {
        assert!(cross_a.approve(answer("b1", true)).is_err(), "A accepted an answer for B's call");
        vec![answer(&c.confirm_id, true)]
    });
    let cross_b = b_session.clone();
    let b_approver = Box::new(move |c: &warden_protocol::ToolConfirm| {
        assert!(cross_b.approve(answer("a1", false)).is_err(), "B accepted an answer for A's call");
        vec![answer(&c.confirm_id, true)]
    });
    // Cancel B once its command runs; A is meanwhile asking, writing and answering.
    let pid_file = b.path("b.pid");
    let canceller = tokio::spawn(async move {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        while !pid_file.exists() && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        b_session.cancel();
    });
    let (run_a, run_b) = tokio::join!(a.run("write", a_approver), b.run("sleep", b_approver));
    canceller.await.expect("canceller");

    assert_eq!(run_a.end, TurnEnd::Completed, "cancelling B ended A");
    assert_eq!(run_a.results()[0].status, ToolStatus::Success);
    assert_eq!(std::fs::read_to_string(a.path("a.txt")).unwrap_or_default(), "from A\n");
    assert!(run_a.text().contains("A is done"));
    assert_eq!(run_b.end, TurnEnd::Cancelled);
    assert_eq!(run_b.results()[0].code, Some(ToolErrorCode::Cancelled), "{:?}", run_b.results()[0]);
    // Each conversation's events name only its own calls.
    assert!(run_a.confirms().iter().all(|c| c.tool_id == "a1"));
    assert!(run_b.confirms().iter().all(|c| c.tool_id == "b1"));
    assert!(!b.path("a.txt").exists() && !a.path("b.pid").exists());
}

/// Turn one on Anthropic with thinking, a tool call and its result; then the same history on
/// `next`, whose request must carry it in that wire's own shape.
async fn history_moves_to(next: Wire) -> Value {
    let first = vec![
        Wire::Anthropic.reply(
            &[
                Part::Thinking { text: "let me look", signature: "sig-abc" },
                tool("toolu_1", "file_read", json!({"path": "notes.txt"})),
            ],
            10,
        ),
        Wire::Anthropic.reply(&[text("It says hello.")], 10),
    ];
    let mut a = Harness::new(Wire::Anthropic, first, |_| {}).await;
    std::fs::write(a.path("notes.txt"), "hello\n").expect("notes");
    let run = a.run("read notes", Box::new(|c| vec![answer(&c.confirm_id, true)])).await;
    assert_eq!(run.end, TurnEnd::Completed);
    let history = a.session.history();

    let mut b = Harness::new(next, vec![next.reply(&[text("Still hello.")], 10)], |_| {}).await;
    b.session = b.session.clone().with_history(history);
    let run = b.run("and now?", Box::new(|c| vec![answer(&c.confirm_id, true)])).await;
    assert_eq!(run.end, TurnEnd::Completed, "{:?}", run.events);
    let requests = b.requests();
    assert_eq!(requests.len(), 1);
    requests[0].body.clone()
}

#[tokio::test]
async fn a_conversation_moves_from_anthropic_to_openai() {
    let body = history_moves_to(Wire::OpenAi).await;
    let messages = body["messages"].as_array().expect("messages");
    let text = body.to_string();
    assert!(!text.contains("sig-abc") && !text.contains("\"thinking\""), "Anthropic thinking leaked: {text}");
    let call = messages.iter().find(|m| m["tool_calls"].is_array()).expect("the assistant's tool call");
    assert_eq!(call["tool_calls"][0]["id"], "toolu_1");
    assert_eq!(call["tool_calls"][0]["function"]["name"], "file_read");
    let result = messages.iter().find(|m| m["role"] == "tool").expect("the tool result");
    assert_eq!(result["tool_call_id"], "toolu_1");
    assert!(result["content"].as_str().unwrap_or_default().contains("hello"));
    assert_eq!(messages.last().expect("last")["content"], "and now?");
}

#[tokio::test]
async fn a_conversation_moves_from_anthropic_to_ollama() {
    let body = history_moves_to(Wire::Ollama).await;
    let messages = body["messages"].as_array().expect("messages");
    let text = body.to_string();
    assert!(!text.contains("sig-abc"), "Anthropic's signature leaked: {text}");
    let call = messages.iter().find(|m| m["tool_calls"].is_array()).expect("the assistant's tool call");
    assert_eq!(call["tool_calls"][0]["function"]["name"], "file_read");
    // Ollama addresses a result by the tool's name.
    let result = messages.iter().find(|m| m["role"] == "tool").expect("the tool result");
    assert_eq!(result["tool_name"], "file_read");
    assert!(result["content"].as_str().unwrap_or_default().contains("hello"));
}

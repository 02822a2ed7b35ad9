//! Approvals end to end: a rejection the model is told about, a confirmation with and without a
//! time limit, answers that release only their own call, and "Allow for this session" — its reach
//! (the same command prefix) and the calls it covers (those already queued in the turn).

use std::time::Duration;

use serde_json::json;
use warden_core::agent::TurnEnd;
use warden_protocol::{Remember, ToolApproval, ToolErrorCode, ToolStatus};

use super::harness::{answer, approve_all, Harness, Wire};
use super::scenarios::{code, tool_results_sent};
use super::wire::{text, tool};

#[tokio::test]
async fn a_rejected_write_does_not_happen_and_the_model_is_told_why() {
    let wire = Wire::Anthropic;
    let replies = vec![
        wire.reply(&[tool("w1", "file_write", json!({"path": "new.txt", "content": "x"}))], 10),
        wire.reply(&[text("Understood, I will not write it.")], 10),
    ];
    let mut h = Harness::new(wire, replies, |_| {}).await;
    let run = h
        .run(
            "write it",
            Box::new(|c| {
                vec![ToolApproval {
                    confirm_id: c.confirm_id.clone(),
                    approved: false,
                    reason: Some("not that file".into()),
                    remember: None,
                    always: None,
                }]
            }),
        )
        .await;
    assert!(!h.path("new.txt").exists());
    let confirm = run.confirms()[0];
    assert_eq!(confirm.tool_name, "file_write");
    assert!(matches!(confirm.preview, Some(warden_protocol::ApprovalPreview::Diff { .. })), "{confirm:?}");
    let result = run.results()[0];
    assert_eq!(code(result), Some(ToolErrorCode::UserRejected));
    assert!(result.result.contains("not that file"));
    // The rejection does not end the turn.
    assert_eq!(run.end, TurnEnd::Completed);
    assert!(!run.last_stream_end().partial);
    let sent = tool_results_sent(wire, &h.requests()[1].body);
    assert_eq!(sent[0].0, "w1");
    assert!(sent[0].2, "is_error: true");
}

/// The setting "no time limit": the confirmation says 0 (the window shows no countdown) and the
/// call waits for its answer.
#[tokio::test]
async fn without_a_time_limit_the_confirmation_says_so_and_waits_for_the_answer() {
    let wire = Wire::Anthropic;
    let replies = vec![
        wire.reply(&[tool("w1", "file_write", json!({"path": "new.txt", "content": "x"}))], 10),
        wire.reply(&[text("ok")], 10),
    ];
    let mut h = Harness::new(wire, replies, |c| c.approval_timeout = None).await;
    let run = h.run("write", approve_all()).await;
    assert_eq!(run.confirms()[0].timeout_secs, 0);
    assert_eq!(std::fs::read_to_string(h.path("new.txt")).unwrap(), "x");
}

#[tokio::test]
async fn an_unanswered_confirmation_times_out_and_nothing_runs() {
    let wire = Wire::Anthropic;
    let replies = vec![
        wire.reply(&[tool("w1", "file_write", json!({"path": "new.txt", "content": "x"}))], 10),
        wire.reply(&[text("ok")], 10),
    ];
    let mut h = Harness::new(wire, replies, |c| c.approval_timeout = Some(Duration::from_secs(1))).await;
    // An answer for another id must not release this call.
    let run = h.run("write", Box::new(|_| vec![answer("someone-else", true)])).await;
    assert!(!h.path("new.txt").exists());
    assert_eq!(run.confirms()[0].timeout_secs, 1);
    assert_eq!(code(run.results()[0]), Some(ToolErrorCode::ApprovalTimeout));
    assert_eq!(run.end, TurnEnd::Completed);
    // The saved history keeps why: a reopened conversation says "timed out", not "rejected".
    let kept: Vec<_> = h
        .session
        .history()
        .iter()
        .flat_map(|m| m.content.clone())
        .filter_map(|b| match b {
            warden_protocol::ContentBlock::ToolResult(r) => Some(r.code),
            _ => None,
        })
        .collect();
    assert_eq!(kept, vec![Some(ToolErrorCode::ApprovalTimeout.into())]);
}

#[tokio::test]
async fn the_first_answer_wins_and_each_answer_releases_only_its_call() {
    let wire = Wire::Anthropic;
    let replies = vec![
        wire.reply(
            &[
                tool("w1", "file_write", json!({"path": "one.txt", "content": "1"})),
                tool("w2", "file_write", json!({"path": "two.txt", "content": "2"})),
            ],
            10,
        ),
        wire.reply(&[text("ok")], 10),
    ];
    let mut h = Harness::new(wire, replies, |_| {}).await;
    // w1: rejected, then a late "yes" that must be ignored. w2: approved.
    let run = h
        .run(
            "write both",
            Box::new(|c| {
                if c.tool_id == "w1" {
                    vec![answer(&c.confirm_id, false), answer(&c.confirm_id, true)]
                } else {
                    vec![answer(&c.confirm_id, true)]
                }
            }),
        )
        .await;
    assert!(!h.path("one.txt").exists(), "the double answer did not flip the rejection");
    assert_eq!(std::fs::read_to_string(h.path("two.txt")).unwrap(), "2");
    let ids: Vec<_> = run.results().iter().map(|r| (r.tool_id.clone(), r.status)).collect();
    assert_eq!(ids, [("w1".to_owned(), ToolStatus::Error), ("w2".to_owned(), ToolStatus::Success)]);
    let w2 = &run.confirms()[1].confirm_id;
    assert!(h.session.approve(answer(w2, false)).is_err(), "an answer after the fact is refused");
}

#[tokio::test]
async fn allow_for_this_session_covers_the_same_command_prefix_only() {
    let wire = Wire::Anthropic;
    let replies = vec![
        wire.reply(&[tool("b1", "bash", json!({"command": "echo one"}))], 10),
        wire.reply(&[tool("b2", "bash", json!({"command": "echo two"}))], 10),
        wire.reply(&[tool("b3", "bash", json!({"command": "echo three && touch pwned"}))], 10),
        wire.reply(&[text("done")], 10),
    ];
    let mut h = Harness::new(wire, replies, |_| {}).await;
    let run = h
        .run(
            "echo things",
            Box::new(|c| {
                if c.tool_id == "b1" {
                    vec![ToolApproval {
                        confirm_id: c.confirm_id.clone(),
                        approved: true,
                        reason: None,
                        remember: Some(Remember::Session),
                        always: None,
                    }]
                } else {
                    vec![answer(&c.confirm_id, false)]
                }
            }),
        )
        .await;
    let asked: Vec<_> = run.confirms().iter().map(|c| c.tool_id.clone()).collect();
    assert_eq!(asked, ["b1", "b3"], "b2 is covered by the grant; the compound b3 is not");
    let statuses: Vec<_> = run.results().iter().map(|r| r.status).collect();
    assert_eq!(statuses, [ToolStatus::Success, ToolStatus::Success, ToolStatus::Error]);
    assert!(!h.path("pwned").exists());
    assert!(run.results()[1].result.contains("two"));
}

/// Two writes in one message: "Allow for this session" on the first covers the second, already
/// queued behind it in the same turn (before, it asked again and the grant applied only later).
#[tokio::test]
async fn a_session_grant_covers_the_calls_already_queued_in_the_same_turn() {
    let wire = Wire::Anthropic;
    let replies = vec![
        wire.reply(
            &[
                tool("w1", "file_write", json!({"path": "src/a.txt", "content": "a"})),
                tool("w2", "file_write", json!({"path": "src/b.txt", "content": "b"})),
            ],
            10,
        ),
        wire.reply(&[text("done")], 10),
    ];
    let mut h = Harness::new(wire, replies, |_| {}).await;
    let run = h
        .run(
            "write both",
            Box::new(|c| {
                vec![ToolApproval {
                    confirm_id: c.confirm_id.clone(),
                    approved: true,
                    reason: None,
                    remember: Some(Remember::Session),
                    always: None,
                }]
            }),
        )
        .await;
    let asked: Vec<_> = run.confirms().iter().map(|c| c.tool_id.clone()).collect();
    assert_eq!(asked, ["w1"], "the grant given for w1 covers w2");
    // The card said where it stood: the first of the message's two calls that ask.
    let queue = run.confirms()[0].queue;
    assert_eq!(queue, Some(warden_protocol::ApprovalQueue { position: 1, total: 2 }));
    assert_eq!(std::fs::read_to_string(h.path("src/b.txt")).unwrap(), "b");
}

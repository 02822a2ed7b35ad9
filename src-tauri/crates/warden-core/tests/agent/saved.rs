//! What a turn leaves in the conversation store: every message, each with when it was written,
//! and each answer with the model that wrote it (shown under it when the conversation is reopened).

use std::sync::Arc;

use serde_json::json;
use warden_core::agent::TurnEnd;
use warden_core::conversations::ConversationStore;
use warden_protocol::{Event, Role};

use super::harness::{approve_all, Harness, Wire};
use super::wire::{text, tool};

#[tokio::test]
async fn each_saved_answer_names_its_model_and_every_message_has_its_time() {
    let home = tempfile::tempdir().unwrap();
    let store = Arc::new(ConversationStore::open(&home.path().join("conversations.db")).unwrap());
    let saved = store.clone();
    let wire = Wire::Anthropic;
    let replies = vec![
        wire.reply(&[tool("r1", "file_read", json!({"path": "a.txt"}))], 100),
        wire.reply(&[text("It says alpha.")], 100),
    ];
    let mut h = Harness::new(wire, replies, move |c| c.store = Some(saved)).await;
    std::fs::write(h.path("a.txt"), "alpha").unwrap();
    let before = now_ms();
    let run = h.run("what is in a.txt?", approve_all()).await;
    assert_eq!(run.end, TurnEnd::Completed);

    let id = h.session.conversation_id();
    let messages = store.messages(id).unwrap();
    let stamps = store.message_stamps(id).unwrap();
    assert_eq!(messages.len(), 4, "question, call, result, answer");
    assert_eq!(stamps.len(), messages.len(), "one stamp per message, in the same order");
    for (message, stamp) in messages.iter().zip(&stamps) {
        let expected = (message.role == Role::Assistant).then(|| "test-model".to_owned());
        assert_eq!(stamp.model, expected, "{message:?}");
        assert!((before..=now_ms()).contains(&stamp.at_ms), "{stamp:?} not written during the turn");
    }
    assert!(stamps.windows(2).all(|w| w[0].at_ms <= w[1].at_ms), "in the order written: {stamps:?}");
    assert!(store.message_stamps("no-such-conversation").unwrap().is_empty());
}

/// A command's report (how it ended, the box it ran in) is saved with its result, so a reopened
/// conversation shows the block the live one showed; the model never receives it.
#[tokio::test]
async fn a_results_report_is_saved_with_it_and_never_sent_to_the_model() {
    let home = tempfile::tempdir().unwrap();
    let store = Arc::new(ConversationStore::open(&home.path().join("conversations.db")).unwrap());
    let saved = store.clone();
    let wire = Wire::Anthropic;
    let replies = vec![
        wire.reply(&[tool("b1", "bash", json!({"command": "echo out; exit 3"}))], 100),
        wire.reply(&[text("It failed.")], 100),
    ];
    let mut h = Harness::new(wire, replies, move |c| c.store = Some(saved)).await;
    let run = h.run("run it", approve_all()).await;
    assert_eq!(run.end, TurnEnd::Completed);
    let live = run.results()[0].report.clone();
    assert_eq!(live.command.map(|c| c.exit_code), Some(Some(3)), "{live:?}");

    let messages = store.messages(h.session.conversation_id()).unwrap();
    let kept = messages.iter().flat_map(|m| &m.content).find_map(|b| match b {
        warden_protocol::ContentBlock::ToolResult(r) => r.report.as_deref().cloned(),
        _ => None,
    });
    assert_eq!(kept, Some(live.clone()), "the saved result keeps the report the window was sent");
    let sent = serde_json::to_string(&h.requests()[1].body).unwrap();
    assert!(sent.contains("exit code 3"), "the model reads the result's text: {sent}");
    assert!(
        !sent.contains("exitCode") && !sent.contains("durationMs"),
        "the report went to the model: {sent}"
    );
}

/// What each answer cost is kept with it, so a reopened conversation's gauge reads what the live
/// one read (it was gone after a restart): the provider's count for each answer, none for the
/// user's messages and the tool results.
#[tokio::test]
async fn each_answer_keeps_what_it_cost() {
    let home = tempfile::tempdir().unwrap();
    let store = Arc::new(ConversationStore::open(&home.path().join("conversations.db")).unwrap());
    let saved = store.clone();
    let wire = Wire::Anthropic;
    let replies = vec![
        wire.reply(&[tool("b1", "system_info", json!({}))], 1200),
        wire.reply(&[text("Here it is.")], 1500),
    ];
    let mut h = Harness::new(wire, replies, move |c| c.store = Some(saved)).await;
    let run = h.run("what time is it", approve_all()).await;
    assert_eq!(run.end, TurnEnd::Completed);
    let stamps = store.message_stamps(h.session.conversation_id()).unwrap();
    let inputs: Vec<Option<u32>> = stamps.iter().map(|s| s.usage.map(|u| u.input_tokens)).collect();
    assert_eq!(inputs, [None, Some(1200), None, Some(1500)], "{stamps:?}");
    assert!(stamps[3].usage.is_some_and(|u| u.output_tokens > 0), "{stamps:?}");
}

fn now_ms() -> u64 {
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
    u64::try_from(since.as_millis()).unwrap()
}

/// Messages that could not be saved are kept, said to be unsaved (`chat:saving`), and saved in
/// their order as soon as the store takes messages again, so the store never holds a gap.
#[tokio::test]
async fn messages_that_could_not_be_saved_are_reported_and_saved_in_order_once_the_store_works_again() {
    let home = tempfile::tempdir().unwrap();
    let db = home.path().join("conversations.db");
    let store = Arc::new(ConversationStore::open(&db).unwrap());
    let saved = store.clone();
    let wire = Wire::Anthropic;
    let replies = vec![wire.reply(&[text("One.")], 100), wire.reply(&[text("Two.")], 100)];
    let mut h = Harness::new(wire, replies, move |c| c.store = Some(saved)).await;
    // Another connection makes every new row fail, as a full disk would.
    let other = rusqlite::Connection::open(&db).unwrap();
    other
        .execute_batch("CREATE TRIGGER no_room BEFORE INSERT ON messages BEGIN SELECT RAISE(ABORT, 'no room left'); END;")
        .unwrap();

    let first = h.run("first", approve_all()).await;
    let id = h.session.conversation_id().to_owned();
    let told: Vec<_> =
        first.events.iter().filter_map(|e| if let Event::Saving(s) = e { Some(s) } else { None }).collect();
    assert_eq!(told.len(), 1, "said once, not for every message: {told:?}");
    assert!(
        !told[0].saved && told[0].reason.as_deref().is_some_and(|r| r.contains("no room left")),
        "{told:?}"
    );
    assert!(store.messages(&id).unwrap().is_empty(), "nothing was saved");

    other.execute_batch("DROP TRIGGER no_room;").unwrap();
    let second = h.run("second", approve_all()).await;
    let told: Vec<_> =
        second.events.iter().filter_map(|e| if let Event::Saving(s) = e { Some(s) } else { None }).collect();
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(told[0].saved && told[0].reason.is_none(), "{told:?}");
    assert_eq!(store.messages(&id).unwrap(), h.session.history(), "the whole conversation, in order");
    assert_eq!(h.session.history().len(), 4);
}

//! What a turn leaves in the conversation store: every message, each with when it was written,
//! and each answer with the model that wrote it (shown under it when the conversation is reopened).

use std::sync::Arc;

use serde_json::json;
use warden_core::agent::TurnEnd;
use warden_core::store::ConversationStore;
use warden_protocol::Role;

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

fn now_ms() -> u64 {
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
    u64::try_from(since.as_millis()).unwrap()
}

//! The saved conversations through the engine: a real store in a temporary home.

use std::path::Path;
use std::sync::Arc;

use warden_protocol::{ContentBlock, Message, Role};

use super::{ConversationError, Engine};
use crate::config::WardenHome;
use crate::secrets::MemoryStore;

struct Home {
    _dir: tempfile::TempDir,
    home: WardenHome,
    engine: Engine,
}

fn home() -> Home {
    let dir = tempfile::tempdir().unwrap();
    let home = WardenHome::at(dir.path());
    let engine = Engine::new(home.clone(), Arc::new(MemoryStore::new())).unwrap();
    Home { _dir: dir, home, engine }
}

impl Home {
    fn save(&self, id: &str, messages: &[Message]) {
        let store = self.engine.conversation_store().unwrap();
        for (seq, message) in messages.iter().enumerate() {
            store.put_message(id, Some(Path::new("/srv/app")), seq, message).unwrap();
        }
    }

    fn ids(&self) -> Vec<String> {
        self.engine.list_conversations(0, 50).unwrap().conversations.into_iter().map(|c| c.id).collect()
    }
}

fn assistant(text: &str) -> Message {
    Message { role: Role::Assistant, content: vec![ContentBlock::Text { text: text.into() }] }
}

#[test]
fn no_conversations_is_an_empty_list() {
    let h = home();
    let page = h.engine.list_conversations(0, 50).unwrap();
    assert!(page.conversations.is_empty());
    assert_eq!(page.next_offset, None);
}

#[test]
fn the_files_an_older_warden_kept_are_listed_from_the_first_use() {
    let h = home();
    let dir = h.home.conversations_dir();
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("legacy.json"),
        serde_json::to_vec(&[Message::user_text("From before")]).unwrap(),
    )
    .unwrap();
    let page = h.engine.list_conversations(0, 10).unwrap();
    assert_eq!(page.conversations[0].title, "From before");
    assert_eq!(h.engine.conversation_store().unwrap().messages("legacy").unwrap().len(), 1);
    assert!(dir.join("imported/legacy.json").is_file());
}

#[test]
fn a_rename_is_listed_and_an_empty_title_goes_back_to_the_message() {
    let h = home();
    h.save("a", &[Message::user_text("First question")]);
    h.engine.rename_conversation("a", "  My\nnotes  ").unwrap();
    assert_eq!(h.engine.conversation_summary("a").unwrap().title, "My notes");
    h.engine.rename_conversation("a", "   ").unwrap();
    assert_eq!(h.engine.conversation_summary("a").unwrap().title, "First question");
    assert!(matches!(h.engine.rename_conversation("nope", "x"), Err(ConversationError::NotFound(_))));
}

#[test]
fn a_deleted_conversation_comes_back_with_restore_and_a_missing_one_is_no_error() {
    let h = home();
    h.save("a", &[Message::user_text("hi")]);
    h.engine.delete_conversation("a").unwrap();
    assert!(h.ids().is_empty());
    h.engine.delete_conversation("a").unwrap();
    h.engine.restore_conversation("a").unwrap();
    assert_eq!(h.ids(), ["a"]);
    assert!(matches!(h.engine.restore_conversation("a"), Err(ConversationError::NotFound(_))));
}

#[test]
fn ids_that_are_not_plain_names_are_refused() {
    let h = home();
    for bad in ["../settings", "a/b", "", "..", "a.b", "c1.json"] {
        assert!(
            matches!(h.engine.rename_conversation(bad, "x"), Err(ConversationError::BadId(_))),
            "{bad:?}"
        );
        assert!(matches!(h.engine.delete_conversation(bad), Err(ConversationError::BadId(_))), "{bad:?}");
        assert!(matches!(h.engine.conversation_summary(bad), Err(ConversationError::BadId(_))), "{bad:?}");
    }
}

#[test]
fn a_rewind_drops_a_user_message_and_what_follows_and_keeps_the_title() {
    let h = home();
    let results = Message {
        role: Role::User,
        content: vec![ContentBlock::ToolResult(warden_protocol::ToolResultBlock {
            tool_use_id: "t1".into(),
            report: None,
            tool_name: "bash".into(),
            content: "ok".into(),
            is_error: false,
            code: None,
            images: Vec::new(),
        })],
    };
    let messages = [
        Message::user_text("first question"),
        assistant("answer one"),
        Message::user_text("second question"),
        assistant("calling a tool"),
        results,
        assistant("answer two"),
        Message::user_text("third question"),
        assistant("answer three"),
    ];
    h.save("c", &messages);
    h.engine.rename_conversation("c", "My title").unwrap();
    let store = h.engine.conversation_store().unwrap();

    // Tool results are not messages the user wrote: the second one is at index 2.
    let text = h.engine.rewind_conversation("c", 1).unwrap();
    assert_eq!(text, "second question");
    assert_eq!(store.messages("c").unwrap(), messages[..2].to_vec());
    assert_eq!(h.engine.conversation_summary("c").unwrap().title, "My title");

    // No such message, no such conversation, no such id: errors, nothing changed.
    assert!(matches!(h.engine.rewind_conversation("c", 5), Err(ConversationError::NotFound(_))));
    assert!(matches!(h.engine.rewind_conversation("none", 0), Err(ConversationError::NotFound(_))));
    assert!(matches!(h.engine.rewind_conversation("../x", 0), Err(ConversationError::BadId(_))));
    assert_eq!(store.messages("c").unwrap().len(), 2);
}

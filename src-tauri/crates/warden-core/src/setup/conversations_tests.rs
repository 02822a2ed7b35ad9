//! The conversation list, rename and delete against real files in a temporary home.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use warden_protocol::{ContentBlock, Message, Role};

use super::{ConversationError, Engine};
use crate::config::WardenHome;
use crate::history_file;
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
    /// A saved conversation whose file last changed `secs` after the epoch.
    fn save(&self, id: &str, messages: &[Message], secs: u64) -> std::path::PathBuf {
        let path = self.home.conversation_path(id).unwrap();
        history_file::save(&path, messages, Some(Path::new("/srv/app"))).unwrap();
        set_modified(&path, secs);
        path
    }

    fn ids(&self, offset: u32, limit: u32) -> Vec<String> {
        self.engine.list_conversations(offset, limit).conversations.into_iter().map(|c| c.id).collect()
    }
}

fn set_modified(path: &Path, secs: u64) {
    let time = SystemTime::UNIX_EPOCH + Duration::from_secs(secs);
    std::fs::File::options().write(true).open(path).unwrap().set_modified(time).unwrap();
}

fn assistant(text: &str) -> Message {
    Message { role: Role::Assistant, content: vec![ContentBlock::Text { text: text.into() }] }
}

#[test]
fn no_conversations_folder_is_an_empty_list() {
    let h = home();
    let page = h.engine.list_conversations(0, 50);
    assert!(page.conversations.is_empty());
    assert_eq!(page.next_offset, None);
}

#[test]
fn the_list_is_newest_first_with_titles_counts_and_projects() {
    let h = home();
    h.save("old", &[Message::user_text("  \n  Fix the build\nand more"), assistant("done")], 1_000);
    h.save("new", &[Message::user_text("Explain the parser")], 3_000);
    h.save("mid", &[], 2_000);

    let page = h.engine.list_conversations(0, 50);
    let ids: Vec<_> = page.conversations.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["new", "mid", "old"]);
    let old = &page.conversations[2];
    assert_eq!(old.title, "Fix the build");
    assert_eq!(old.message_count, 2);
    assert_eq!(old.updated_at_ms, 1_000_000);
    assert_eq!(old.project_root.as_deref(), Some("/srv/app"));
    assert_eq!(page.conversations[1].title, "New conversation");
    assert_eq!(page.next_offset, None);
}

#[test]
fn a_long_first_line_is_cut_to_sixty_characters() {
    let h = home();
    h.save("c", &[Message::user_text("x".repeat(100))], 1);
    let title = &h.engine.list_conversations(0, 1).conversations[0].title;
    assert_eq!(title.chars().count(), 60);
    assert!(title.ends_with('…'));
}

#[test]
fn pages_follow_each_other() {
    let h = home();
    for n in 0..5u64 {
        h.save(&format!("c{n}"), &[Message::user_text("hi")], 100 + n);
    }
    let first = h.engine.list_conversations(0, 2);
    assert_eq!(first.conversations.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), ["c4", "c3"]);
    assert_eq!(first.next_offset, Some(2));
    assert_eq!(h.ids(2, 2), ["c2", "c1"]);
    let last = h.engine.list_conversations(4, 2);
    assert_eq!(last.conversations.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), ["c0"]);
    assert_eq!(last.next_offset, None);
    assert!(h.ids(9, 2).is_empty());
}

#[test]
fn an_old_bare_array_file_is_listed() {
    let h = home();
    let path = h.home.conversation_path("legacy").unwrap();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, serde_json::to_vec(&[Message::user_text("From before titles")]).unwrap()).unwrap();
    let page = h.engine.list_conversations(0, 10);
    assert_eq!(page.conversations[0].title, "From before titles");
    assert_eq!(page.conversations[0].project_root, None);
}

#[test]
fn an_unreadable_file_is_skipped_and_kept_and_other_files_ignored() {
    let h = home();
    h.save("good", &[Message::user_text("hi")], 2_000);
    let bad = h.home.conversation_path("bad").unwrap();
    std::fs::write(&bad, "{ not json").unwrap();
    let dir = h.home.conversations_dir();
    std::fs::write(dir.join("kept.json.invalid"), "[").unwrap();
    std::fs::write(dir.join(".good.json.abc.tmp"), "[]").unwrap();
    std::fs::write(dir.join("not an id.json"), "[]").unwrap();
    std::fs::create_dir(dir.join("folder.json")).unwrap();

    assert_eq!(h.ids(0, 10), ["good"]);
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), "{ not json", "listing changes nothing");
}

#[test]
fn a_rename_is_listed_keeps_the_order_and_an_empty_title_goes_back_to_the_message() {
    let h = home();
    let path = h.save("a", &[Message::user_text("First question")], 1_000);
    h.save("b", &[Message::user_text("Second")], 2_000);

    h.engine.rename_conversation("a", "  My\nnotes  ").unwrap();
    let page = h.engine.list_conversations(0, 10);
    assert_eq!(page.conversations[1].id, "a", "a rename does not move it to the top");
    assert_eq!(page.conversations[1].title, "My notes");
    assert_eq!(history_file::load(&path).unwrap(), vec![Message::user_text("First question")]);

    h.engine.rename_conversation("a", "   ").unwrap();
    assert_eq!(h.engine.list_conversations(1, 1).conversations[0].title, "First question");
}

#[test]
fn a_later_save_keeps_the_title() {
    let h = home();
    let path = h.save("a", &[Message::user_text("First")], 1_000);
    h.engine.rename_conversation("a", "Named").unwrap();
    history_file::save(&path, &[Message::user_text("First"), assistant("answer")], None).unwrap();
    let listed = &h.engine.list_conversations(0, 1).conversations[0];
    assert_eq!((listed.title.as_str(), listed.message_count), ("Named", 2));
    assert_eq!(listed.project_root.as_deref(), Some("/srv/app"));
}

#[test]
fn delete_removes_the_file_and_a_missing_one_is_no_error() {
    let h = home();
    let path = h.save("a", &[Message::user_text("hi")], 1_000);
    h.engine.delete_conversation("a").unwrap();
    assert!(!path.exists());
    assert!(h.ids(0, 10).is_empty());
    h.engine.delete_conversation("a").unwrap();
}

#[test]
fn renaming_a_conversation_never_saved_is_not_found() {
    let h = home();
    assert!(matches!(h.engine.rename_conversation("nope", "x"), Err(ConversationError::NotFound(_))));
}

#[test]
fn ids_that_are_not_plain_names_are_refused() {
    let h = home();
    let outside = h.home.config_dir().join("settings.json");
    std::fs::write(&outside, "{}").unwrap();
    for bad in ["../settings", "a/b", "", "..", "a.b", "c1.json"] {
        assert!(
            matches!(h.engine.rename_conversation(bad, "x"), Err(ConversationError::BadId(_))),
            "{bad:?}"
        );
        assert!(matches!(h.engine.delete_conversation(bad), Err(ConversationError::BadId(_))), "{bad:?}");
    }
    assert!(outside.exists());
}

#[test]
fn a_rewind_drops_a_user_message_and_what_follows_and_keeps_the_title() {
    let h = home();
    let results = Message {
        role: Role::User,
        content: vec![ContentBlock::ToolResult(warden_protocol::ToolResultBlock {
            tool_use_id: "t1".into(),
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
    let path = h.save("c", &messages, 1);
    h.engine.rename_conversation("c", "My title").unwrap();

    // Tool results are not messages the user wrote: the second one is at index 2.
    let text = h.engine.rewind_conversation("c", 1).unwrap();
    assert_eq!(text, "second question");
    assert_eq!(history_file::load(&path).unwrap(), messages[..2].to_vec());
    assert_eq!(h.engine.list_conversations(0, 10).conversations[0].title, "My title");

    // No such message, no such conversation, no such id: errors, nothing changed.
    assert!(matches!(h.engine.rewind_conversation("c", 5), Err(ConversationError::NotFound(_))));
    assert!(matches!(h.engine.rewind_conversation("none", 0), Err(ConversationError::NotFound(_))));
    assert!(matches!(h.engine.rewind_conversation("../x", 0), Err(ConversationError::BadId(_))));
    assert_eq!(history_file::load(&path).unwrap().len(), 2);
}

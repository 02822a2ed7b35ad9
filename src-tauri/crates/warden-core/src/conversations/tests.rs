use std::path::Path;

use warden_protocol::{ContentBlock, Message, Role, ToolImage, ToolResultBlock, ToolUse};

use super::*;

fn store(dir: &Path) -> ConversationStore {
    ConversationStore::open(&dir.join(STORE_FILE)).unwrap()
}

fn assistant(text: &str) -> Message {
    Message { role: Role::Assistant, content: vec![ContentBlock::Text { text: text.into() }] }
}

/// Every kind of block, with text that JSON must escape and a signature that must come back
/// byte for byte.
fn every_block() -> Vec<Message> {
    vec![
        Message::user_text("Fix the \"build\" — ünïcode, tabs\tand \\ slashes"),
        Message {
            role: Role::Assistant,
            content: vec![
                ContentBlock::Thinking {
                    thinking: "Let me look.\n".into(),
                    signature: Some("EqQBCkYIBxABGAIqQL+/9w==\u{0}trailing".into()),
                },
                ContentBlock::RedactedThinking { data: "c2VjcmV0".into() },
                ContentBlock::Text { text: "Reading it.".into() },
                ContentBlock::ToolUse(ToolUse {
                    id: "toolu_01".into(),
                    name: "file_read".into(),
                    input: serde_json::json!({"path": "src/main.rs", "offset": 1.5}),
                    raw_arguments: Some("{\"path\": \"src/main.rs\",  \"offset\": 1.5}".into()),
                    written: None,
                }),
            ],
        },
        Message {
            role: Role::User,
            content: vec![ContentBlock::ToolResult(ToolResultBlock {
                tool_use_id: "toolu_01".into(),
                report: None,
                tool_name: "file_read".into(),
                content: "fn main() { zanzibar(); }".into(),
                is_error: true,
                code: Some(warden_protocol::ToolErrorCode::UserRejected.into()),
                images: vec![ToolImage { media_type: "image/png".into(), data: "iVBORw0KGgo=".into() }],
            })],
        },
        assistant("Done."),
    ]
}

#[test]
fn every_block_comes_back_exactly_as_it_was_put() {
    let dir = tempfile::tempdir().unwrap();
    let messages = every_block();
    {
        let store = store(dir.path());
        for (seq, message) in messages.iter().enumerate() {
            store.put_message("c1", Some(Path::new("/srv/app")), seq, message).unwrap();
        }
    }
    // A new process's view: reopened from disk.
    let store = store(dir.path());
    assert_eq!(store.messages("c1").unwrap(), messages);
    let summary = store.summary("c1").unwrap().unwrap();
    assert_eq!(summary.title, "Fix the \"build\" — ünïcode, tabs\tand \\ slashes");
    assert_eq!((summary.message_count, summary.project_root.as_deref()), (4, Some("/srv/app")));
    assert!(store.messages("nothing").unwrap().is_empty());
}

#[test]
fn an_answer_keeps_the_model_it_was_saved_with_and_a_users_message_has_none() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = store(dir.path());
        store.put_message_by("c1", None, 0, &Message::user_text("hi"), None).unwrap();
        store.put_message_by("c1", None, 1, &assistant("hello"), Some("claude-sonnet-4-5")).unwrap();
        // Saved again without a model (a message that grew): the model it was written by stays.
        store.put_message_by("c1", None, 1, &assistant("hello there"), None).unwrap();
        store.put_message_by("c1", None, 2, &Message::user_text("and?"), None).unwrap();
        store.put_message_by("c1", None, 3, &assistant("gpt says"), Some("gpt-5")).unwrap();
    }
    let store = store(dir.path());
    let stamps = store.message_stamps("c1").unwrap();
    let models: Vec<_> = stamps.iter().map(|s| s.model.as_deref()).collect();
    assert_eq!(models, [None, Some("claude-sonnet-4-5"), None, Some("gpt-5")]);
    assert!(stamps.iter().all(|s| s.at_ms > 1_600_000_000_000), "{stamps:?}");
    assert!(store.truncate("c1", 1).unwrap());
    assert_eq!(store.message_stamps("c1").unwrap().len(), 1, "the dropped messages' stamps go with them");
}

#[test]
fn the_last_message_put_again_is_replaced_and_only_truncate_drops_messages() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path());
    store.put_message("c1", None, 0, &Message::user_text("first")).unwrap();
    store.put_message("c1", None, 1, &assistant("one")).unwrap();
    store.put_message("c1", None, 2, &assistant("two")).unwrap();
    store.put_message("c1", None, 2, &assistant("dos")).unwrap();
    let saved = vec![Message::user_text("first"), assistant("one"), assistant("dos")];
    assert_eq!(store.messages("c1").unwrap(), saved);
    // A write before the last message (a writer that never read the rest), or past the next
    // position, is refused and changes nothing.
    for seq in [1, 0, 4] {
        let refused = store.put_message("c1", None, seq, &assistant("uno"));
        assert!(
            matches!(refused, Err(StoreError::Diverged { position, saved: 3 }) if position == seq),
            "{seq}: {refused:?}"
        );
    }
    assert_eq!(store.messages("c1").unwrap(), saved);
    assert_eq!(store.summary("c1").unwrap().unwrap().message_count, 3);
    // The search index follows: the replaced words are gone.
    assert!(store.search("two", 10).unwrap().is_empty());
    assert_eq!(store.search("dos", 10).unwrap().len(), 1);
    assert!(store.truncate("c1", 1).unwrap());
    assert_eq!(store.messages("c1").unwrap(), vec![Message::user_text("first")]);
    assert!(store.search("one", 10).unwrap().is_empty());
    assert!(!store.truncate("c1", 5).unwrap());
}

#[test]
fn the_list_is_newest_first_a_page_at_a_time_and_a_rename_is_no_activity() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path());
    for n in 0..5 {
        store.put_message(&format!("c{n}"), None, 0, &Message::user_text(format!("question {n}"))).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let page = store.list(0, 2).unwrap();
    let ids: Vec<_> = page.conversations.iter().map(|c| c.id.as_str()).collect();
    assert_eq!((ids, page.next_offset), (vec!["c4", "c3"], Some(2)));
    let last = store.list(4, 2).unwrap();
    assert_eq!((last.conversations.len(), last.next_offset), (1, None));

    assert!(store.set_title("c0", Some("Named")).unwrap());
    assert_eq!(store.list(0, 1).unwrap().conversations[0].id, "c4", "a rename does not move it up");
    assert_eq!(store.summary("c0").unwrap().unwrap().title, "Named");
    assert!(store.set_title("c0", None).unwrap());
    assert_eq!(store.summary("c0").unwrap().unwrap().title, "question 0");
    assert!(!store.set_title("nothing", Some("x")).unwrap());
    assert_eq!(store.latest(None).unwrap().as_deref(), Some("c4"));
}

#[test]
fn a_projects_list_holds_only_its_own_conversations_a_page_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path());
    let (here, there) = (Path::new("/srv/app"), Path::new("/srv/app-other"));
    for n in 0..3 {
        store.put_message(&format!("a{n}"), Some(here), 0, &Message::user_text(format!("app {n}"))).unwrap();
        store
            .put_message(&format!("b{n}"), Some(there), 0, &Message::user_text(format!("other {n}")))
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    store.put_message("none", None, 0, &Message::user_text("no project")).unwrap();
    let ids = |page: &warden_protocol::ConversationPage| {
        page.conversations.iter().map(|c| c.id.clone()).collect::<Vec<_>>()
    };
    let first = store.list_in(Some(here), 0, 2).unwrap();
    assert_eq!((ids(&first), first.next_offset), (vec!["a2".to_owned(), "a1".to_owned()], Some(2)));
    let rest = store.list_in(Some(here), 2, 2).unwrap();
    assert_eq!((ids(&rest), rest.next_offset), (vec!["a0".to_owned()], None));
    assert_eq!(store.list_in(None, 0, 50).unwrap().conversations.len(), 7, "no project: every one");
    assert!(
        store.list_in(Some(Path::new("/srv")), 0, 50).unwrap().conversations.is_empty(),
        "not a prefix match"
    );
}

#[test]
fn a_deleted_conversation_is_gone_from_every_view_until_restored_and_purged_after() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path());
    store.put_message("c1", None, 0, &Message::user_text("zanzibar plans")).unwrap();
    assert!(store.delete("c1").unwrap());
    assert!(!store.delete("c1").unwrap());
    assert!(store.messages("c1").unwrap().is_empty());
    assert!(store.list(0, 10).unwrap().conversations.is_empty());
    assert!(store.search("zanzibar", 10).unwrap().is_empty());
    assert!(store.restore("c1").unwrap());
    assert_eq!(store.search("zanzibar", 10).unwrap().len(), 1);

    assert!(store.delete("c1").unwrap());
    assert_eq!(store.purge_deleted_before(now_ms() + 1).unwrap(), 1);
    assert!(!store.restore("c1").unwrap());
    store.put_message("c2", None, 0, &Message::user_text("gone at once")).unwrap();
    assert!(store.remove("c2").unwrap());
    assert!(!store.remove("c2").unwrap());
    assert!(!store.restore("c2").unwrap());
    let conn = lock(&store.reader);
    let left: i64 = conn.query_row("SELECT count(*) FROM messages", [], |r| r.get(0)).unwrap();
    assert_eq!(left, 0, "the messages went with it");
}

#[test]
fn search_finds_titles_and_any_words_of_messages_tool_results_included() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path());
    for (seq, message) in every_block().iter().enumerate() {
        store.put_message("tools", None, seq, message).unwrap();
    }
    store.put_message("named", None, 0, &Message::user_text("something else")).unwrap();
    store.set_title("named", Some("Zanzibar trip")).unwrap();

    let hits = store.search("zanzibar", 10).unwrap();
    let ids: Vec<_> = hits.iter().map(|h| h.conversation.id.as_str()).collect();
    assert_eq!(ids, vec!["named", "tools"], "the title match first");
    assert_eq!(hits[0].snippet, None);
    assert_eq!(hits[1].snippet.as_deref(), Some("fn main() { zanzibar(); }"));
    // A word's beginning finds it while typing; the case and accents do not matter.
    assert_eq!(store.search("ZANZ", 10).unwrap().len(), 2);
    assert_eq!(store.search("unicode build", 10).unwrap().len(), 1);
    // Every word must be there.
    assert!(store.search("zanzibar nowhere", 10).unwrap().is_empty());
    // FTS syntax is taken as words, never as an error.
    assert!(store.search("\"NEAR( AND *", 10).unwrap().is_empty());
    // Thinking is not searched.
    assert!(store.search("look", 10).unwrap().is_empty());
}

#[test]
fn a_file_that_is_not_a_database_is_kept_aside() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(STORE_FILE);
    std::fs::write(&path, b"this is not sqlite, it is something the user may want back").unwrap();
    let store = ConversationStore::open(&path).unwrap();
    store.put_message("c1", None, 0, &Message::user_text("hi")).unwrap();
    let aside = std::fs::read(dir.path().join(format!("{STORE_FILE}.invalid"))).unwrap();
    assert!(aside.starts_with(b"this is not sqlite"));
}

#[test]
fn an_older_layout_is_upgraded_with_its_conversations_and_a_newer_one_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(STORE_FILE);
    {
        // The first layout, as the first build with a store left it.
        let mut conn = rusqlite::Connection::open(&path).unwrap();
        schema::migrate_to(&mut conn, 1).unwrap();
        conn.execute(
            "INSERT INTO conversations (id, auto_title, created_at_ms, updated_at_ms, message_count) \
             VALUES ('old', 'Old question', 1, 1, 1)",
            [],
        )
        .unwrap();
        let body = serde_json::to_string(&Message::user_text("Old question")).unwrap();
        conn.execute(
            "INSERT INTO messages (conversation, seq, role, body, created_at_ms) VALUES (1, 0, 'user', ?1, 1)",
            [body],
        )
        .unwrap();
        let version: u32 = conn.pragma_query_value(None, "user_version", |r| r.get(0)).unwrap();
        assert_eq!(version, 1);
    }
    let store = ConversationStore::open(&path).unwrap();
    assert_eq!(store.messages("old").unwrap(), vec![Message::user_text("Old question")]);
    let compaction = Compaction {
        upto_seq: 0,
        trimmed_upto_seq: 1,
        summary: "s".into(),
        tokens_before: 9,
        tokens_after: 1,
    };
    assert!(store.add_compaction("old", &compaction).unwrap(), "the new layout's table is there");
    assert_eq!(store.latest_compaction("old").unwrap(), Some(compaction));
    drop(store);

    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1).unwrap();
    drop(conn);
    let refused = ConversationStore::open(&path).unwrap_err();
    assert!(matches!(refused, StoreError::Newer { .. }), "{refused}");
    assert!(refused.to_string().contains("newer Warden"));
}

#[test]
fn json_files_of_an_older_warden_are_imported_once_and_moved_aside_only_when_they_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("conversations");
    std::fs::create_dir_all(&files).unwrap();
    let messages = every_block();
    let object = serde_json::json!({"version": 1, "title": "Kept title", "projectRoot": "/srv/app", "messages": messages});
    std::fs::write(files.join("new-format.json"), serde_json::to_vec(&object).unwrap()).unwrap();
    let bare = vec![Message::user_text("bare array"), assistant("old answer")];
    std::fs::write(files.join("old_format.json"), serde_json::to_vec(&bare).unwrap()).unwrap();
    std::fs::write(files.join("broken.json"), b"{not json").unwrap();
    std::fs::write(files.join("not an id.json"), b"[]").unwrap();

    let store = store(dir.path());
    let is_id = |id: &str| id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    let report = import_json_files(&store, &files, is_id);
    assert_eq!(report.imported, 2);
    assert_eq!(report.kept, vec![files.join("broken.json")]);
    assert_eq!(store.messages("new-format").unwrap(), messages);
    let summary = store.summary("new-format").unwrap().unwrap();
    assert_eq!((summary.title.as_str(), summary.project_root.as_deref()), ("Kept title", Some("/srv/app")));
    assert_eq!(store.messages("old_format").unwrap(), bare);
    assert_eq!(store.summary("old_format").unwrap().unwrap().title, "bare array");
    assert!(files.join("imported/new-format.json").is_file() && !files.join("new-format.json").exists());
    assert!(files.join("broken.json").is_file(), "an unreadable file stays where it is");
    assert_eq!(store.search("zanzibar", 5).unwrap().len(), 1, "imported messages are searchable");

    // Once imported, a file put back is not imported over what the store has since.
    store.put_message("old_format", None, 2, &Message::user_text("continued")).unwrap();
    std::fs::copy(files.join("imported/old_format.json"), files.join("old_format.json")).unwrap();
    let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000);
    std::fs::File::options()
        .write(true)
        .open(files.join("old_format.json"))
        .unwrap()
        .set_modified(old)
        .unwrap();
    import_json_files(&store, &files, is_id);
    assert_eq!(store.messages("old_format").unwrap().len(), 3);
}

#[test]
fn a_word_as_typed_comes_before_words_it_begins() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path());
    store.put_message("exact", None, 0, &Message::user_text("one")).unwrap();
    store.put_message("exact", None, 1, &assistant("the parser is here")).unwrap();
    store.put_message("longer", None, 0, &Message::user_text("two")).unwrap();
    store.put_message("longer", None, 1, &assistant("the parsers are newer")).unwrap();
    let ids: Vec<_> = store.search("parser", 10).unwrap().into_iter().map(|h| h.conversation.id).collect();
    assert_eq!(ids, ["exact", "longer"], "the exact word first, though older");
    let ids: Vec<_> = store.search("pars", 10).unwrap().into_iter().map(|h| h.conversation.id).collect();
    assert_eq!(ids, ["longer", "exact"], "only prefixes: newest first");
}

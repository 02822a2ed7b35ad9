//! A saved conversation that cannot be read whole is never written to (issue 31, item 10): one
//! row a newer Warden wrote, or one damaged row, used to read as an empty history, and the next
//! message was then saved as message 0, dropping every row after it. Real SQLite files, a real
//! engine, a model on loopback.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rusqlite::{params, Connection, OpenFlags};
use tempfile::TempDir;
use warden_core::config::WardenHome;
use warden_core::conversations::ConversationStore;
use warden_core::engine::{Engine, SessionSpec};
use warden_core::secrets::{MemoryStore, SecretStore};
use warden_protocol::{ContentBlock, Event, KeyName, Message, ProviderId, ResultCode, Role};

use crate::agent::harness::Wire;
use crate::agent::wire::text;
use crate::support::server::TestServer;

const ID: &str = "conv-unreadable";

/// What a newer Warden could write: an answer with a block of a kind this build does not know.
const NEWER_ANSWER: &str = r#"{"role":"assistant","content":[{"type":"text","text":"Two sources."},{"type":"citation", "source": {"url": "https://example.org/a", "title": "A"}, "cited_text": "quoted"}]}"#;
/// A damaged row: the end of the message is missing.
const DAMAGED_ANSWER: &str = r#"{"role":"assistant","content":[{"type":"text","text":"Two sou"#;

struct Place {
    dirs: TempDir,
    project: PathBuf,
}

impl Place {
    fn new() -> Self {
        let dirs = tempfile::tempdir().unwrap();
        let project = std::fs::canonicalize(dirs.path()).unwrap().join("project");
        std::fs::create_dir_all(&project).unwrap();
        Self { dirs, project }
    }

    fn home(&self) -> WardenHome {
        WardenHome::at(self.dirs.path().join("home"))
    }

    fn db(&self) -> PathBuf {
        self.home().store_path()
    }

    /// A new engine on the same home: the view of a Warden started afresh.
    async fn engine(&self) -> Engine {
        let secrets = Arc::new(MemoryStore::new());
        secrets.set(KeyName::Anthropic, "test-key").await.unwrap();
        Engine::new(self.home(), secrets).unwrap()
    }

    fn spec(&self, server: &TestServer) -> SessionSpec {
        let mut spec = SessionSpec::new(self.project.clone());
        spec.provider = ProviderId::Anthropic;
        spec.base_url = Some(server.url.clone());
        spec.model = Some("claude-sonnet-4-5".to_owned());
        spec.save = true;
        spec
    }

    /// Four messages saved the ordinary way, the second then replaced by `body`.
    fn saved_with_second_row(&self, body: &str) -> Vec<String> {
        {
            let store = ConversationStore::open(&self.db()).unwrap();
            let messages = [
                Message::user_text("What do the docs say?"),
                answer("They say two things."),
                Message::user_text("Which sources?"),
                answer("Two sources."),
            ];
            for (seq, message) in messages.iter().enumerate() {
                store.put_message(ID, Some(&self.project), seq, message).unwrap();
            }
        }
        set_body(&self.db(), 1, body);
        bodies(&self.db())
    }
}

fn answer(text: &str) -> Message {
    Message { role: Role::Assistant, content: vec![ContentBlock::Text { text: text.into() }] }
}

/// The conversation's rows as the file holds them, by position.
fn bodies(db: &Path) -> Vec<String> {
    let conn = Connection::open_with_flags(db, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    let mut statement = conn
        .prepare(
            "SELECT m.body FROM messages m JOIN conversations c ON c.num = m.conversation \
             WHERE c.id = ?1 ORDER BY m.seq",
        )
        .unwrap();
    statement.query_map([ID], |row| row.get(0)).unwrap().collect::<Result<_, _>>().unwrap()
}

fn set_body(db: &Path, seq: i64, body: &str) {
    let conn = Connection::open(db).unwrap();
    let changed = conn
        .execute(
            "UPDATE messages SET body = ?3 WHERE seq = ?2 AND conversation = \
             (SELECT num FROM conversations WHERE id = ?1)",
            params![ID, seq, body],
        )
        .unwrap();
    assert_eq!(changed, 1);
}

/// Continues the conversation with one message, as `warden exec --resume` does; the error when
/// the engine refuses.
async fn continue_with(engine: &Engine, spec: SessionSpec, message: &str) -> Result<(), String> {
    let (session, _events) = engine.resume(spec, ID).await.map_err(|e| e.to_string())?;
    session.send(message).await.map_err(|e| e.to_string())?;
    Ok(())
}

#[tokio::test]
async fn a_row_from_a_newer_warden_is_kept_and_the_conversation_goes_on_after_it() {
    let place = Place::new();
    let before = place.saved_with_second_row(NEWER_ANSWER);
    let server = TestServer::start(vec![Wire::Anthropic.reply(&[text("Fine.")], 10)]).await;
    let engine = place.engine().await;

    let went_on = continue_with(&engine, place.spec(&server), "And now?").await;

    let after = bodies(&place.db());
    assert_eq!(after.get(..4), Some(&before[..]), "every old row is still there, byte for byte: {after:#?}");
    assert_eq!(went_on, Ok(()));
    assert_eq!(after.len(), 6, "the new question and its answer follow them: {after:#?}");
    // The model is sent the conversation whole, with a note in place of the block it cannot be given.
    let request = server.requests()[0].body.to_string();
    assert!(request.contains("What do the docs say?") && request.contains("Which sources?"), "{request}");
    assert!(!request.contains("cited_text"), "the unknown block is not sent as it is: {request}");
    assert!(request.contains("newer version of Warden"), "a note stands in for it: {request}");
}

#[tokio::test]
async fn a_damaged_row_stops_the_conversation_from_being_continued_and_nothing_is_written() {
    let place = Place::new();
    let before = place.saved_with_second_row(DAMAGED_ANSWER);
    let server = TestServer::start(vec![Wire::Anthropic.reply(&[text("Fine.")], 10)]).await;
    let engine = place.engine().await;

    let went_on = continue_with(&engine, place.spec(&server), "And now?").await;

    assert_eq!(bodies(&place.db()), before, "every old row is still there, and nothing else");
    let error = went_on.expect_err("a conversation that cannot be read whole is not continued");
    assert!(error.contains(ID) && error.contains("message 2"), "names the conversation and the row: {error}");
    assert!(server.requests().is_empty(), "no model was asked");
}

/// A user message a newer Warden wrote: a tool result with a code this build does not know, and a
/// block of a kind it does not know (spaces and an escape inside it, which a resave must keep).
const NEWER_RESULTS: &str = r#"{"role":"user","content":[{"type":"tool_result","toolUseId":"t1","toolName":"bash","content":"done","isError":true,"code":"QUOTA_SPENT_NEWER"},{"type":"citation", "source": {"url": "https://example.org/a"}, "cited_text": "caf\u00e9"}]}"#;

#[test]
fn a_block_and_a_code_of_a_newer_kind_are_read_and_saved_again_byte_for_byte() {
    let place = Place::new();
    let store = ConversationStore::open(&place.db()).unwrap();
    store.put_message(ID, None, 0, &Message::user_text("Run it.")).unwrap();
    store.put_message(ID, None, 1, &answer("Running.")).unwrap();
    store.put_message(ID, None, 2, &Message::user_text("placeholder")).unwrap();
    set_body(&place.db(), 2, NEWER_RESULTS);

    let messages = store.messages(ID).unwrap_or_else(|e| panic!("the conversation cannot be read: {e}"));
    assert_eq!(messages.len(), 3);
    let [ContentBlock::ToolResult(result), ContentBlock::Unknown(block)] = &messages[2].content[..] else {
        panic!("{:?}", messages[2]);
    };
    assert_eq!(result.code, Some(ResultCode::Newer("QUOTA_SPENT_NEWER".into())), "the code is kept");
    assert_eq!(block.kind(), "citation", "the block is kept, with its kind");
    // The user's next words join that message (consecutive user messages are one turn): it is saved
    // again, and what this build does not know goes back as it came.
    let mut grown = messages[2].clone();
    grown.content.push(ContentBlock::Text { text: "More.".into() });
    store.put_message(ID, None, 2, &grown).unwrap();
    let expected =
        format!("{},{{\"type\":\"text\",\"text\":\"More.\"}}]}}", &NEWER_RESULTS[..NEWER_RESULTS.len() - 2]);
    assert_eq!(bodies(&place.db())[2], expected);
}

/// Another connection holding the store's lock, as a second Warden in the middle of a long write
/// would, past the store's busy wait.
fn hold_the_lock(db: &Path) -> Connection {
    let conn = Connection::open(db).unwrap();
    conn.pragma_update(None, "locking_mode", "EXCLUSIVE").unwrap();
    conn.execute_batch("BEGIN EXCLUSIVE; UPDATE conversations SET updated_at_ms = updated_at_ms;").unwrap();
    conn
}

#[tokio::test]
async fn a_busy_store_fails_the_read_and_nothing_is_written() {
    let place = Place::new();
    let before =
        place.saved_with_second_row(&serde_json::to_string(&answer("They say two things.")).unwrap());
    let server = TestServer::start(vec![Wire::Anthropic.reply(&[text("Fine.")], 10)]).await;
    let engine = place.engine().await;

    let holder = hold_the_lock(&place.db());
    let refused = continue_with(&engine, place.spec(&server), "And now?").await;
    drop(holder);

    assert_eq!(bodies(&place.db()), before, "every old row is still there, and nothing else");
    let error = refused.expect_err("a conversation that could not be read is not continued");
    assert!(error.contains(ID) && error.contains("in use by another Warden"), "says why: {error}");
    assert!(server.requests().is_empty(), "no model was asked");
    // Once the store is free again, the conversation goes on from the whole of it.
    assert_eq!(continue_with(&engine, place.spec(&server), "And now?").await, Ok(()));
    let after = bodies(&place.db());
    assert_eq!((after.get(..4), after.len()), (Some(&before[..]), 6), "{after:#?}");
}

#[tokio::test]
async fn a_session_whose_store_cannot_be_opened_says_at_once_that_it_is_not_saved() {
    let place = Place::new();
    // A folder where the database file should be: the store cannot be opened.
    std::fs::create_dir_all(place.db()).unwrap();
    let server = TestServer::start(Vec::new()).await;
    let engine = place.engine().await;

    let (_session, mut events) = engine.start(place.spec(&server)).await.unwrap();

    match events.try_recv() {
        Ok(Event::Saving(saving)) => {
            assert!(!saving.saved, "{saving:?}");
            let reason = saving.reason.unwrap_or_default();
            assert!(reason.contains("could not open the conversation store"), "{reason}");
        }
        other => panic!("the first event says the conversation is not saved: {other:?}"),
    }
}

//! Open conversations follow the settings: a change of trust level applies to the next message
//! of a conversation that is already open, which keeps its history.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use serde_json::json;
use warden_core::config::WardenHome;
use warden_core::secrets::{MemoryStore, SecretStore};
use warden_protocol::{
    Event, KeyName, ProviderId, ProviderSettings, SessionGrant, Settings, ToolPermissions, TrustLevel,
};
use warden_testkit::scripted::{anthropic, text, tool};
use warden_testkit::server::{Reply, Split, TestServer};

use crate::bridge::EventSink;
use crate::state::AppState;
use warden_core::engine::Engine;

#[derive(Default)]
struct Recorder(Mutex<Vec<Event>>);

impl EventSink for Recorder {
    fn emit(&self, event: Event) {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).push(event);
    }
}

impl Recorder {
    fn events(&self) -> Vec<Event> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// The events `pick` takes, once there are `n` of them (events reach the window through the
    /// bridge's own task, so one can come just after the call that caused it returned).
    async fn wait_for<T>(&self, n: usize, pick: impl Fn(Event) -> Option<T>) -> Vec<T> {
        for _ in 0..500 {
            let found: Vec<T> = self.events().into_iter().filter_map(&pick).collect();
            if found.len() >= n {
                return found;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("fewer than {n} such events: {:?}", self.events().iter().map(Event::name).collect::<Vec<_>>());
    }

    /// Wait for the `n`-th final stream-end (one that is not `tool_use`).
    async fn turns_ended(&self, n: usize) {
        for _ in 0..500 {
            let ended = self
                .events()
                .iter()
                .filter(|e| matches!(e, Event::StreamEnd(end) if end.stop_reason != warden_protocol::StopReason::ToolUse))
                .count();
            if ended >= n {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("turn {n} did not end: {:?}", self.events().iter().map(Event::name).collect::<Vec<_>>());
    }
}

/// Settings naming the Anthropic provider at `server` (model `claude-test`) and `project` as the
/// project folder.
fn anthropic_settings(server: &TestServer, project: &std::path::Path) -> Settings {
    let mut settings = Settings::default();
    settings.providers.insert(
        ProviderId::Anthropic,
        ProviderSettings {
            base_url: Some(server.url.clone()),
            model: Some("claude-test".into()),
            ..Default::default()
        },
    );
    settings.project_dir = Some(std::fs::canonicalize(project).unwrap().to_string_lossy().into_owned());
    settings
}

/// The window's state with its Anthropic provider at `server`, `key` in the keychain, and a fresh
/// project and home (kept as long as the app is).
struct App {
    state: AppState,
    recorder: Arc<Recorder>,
    _home: tempfile::TempDir,
    _project: tempfile::TempDir,
}

impl App {
    async fn with_anthropic(server: &TestServer, key: &str) -> Self {
        let home = tempfile::tempdir().unwrap();
        let project = tempfile::tempdir().unwrap();
        let secrets = Arc::new(MemoryStore::new());
        secrets.set(KeyName::Anthropic, key).await.unwrap();
        let recorder = Arc::new(Recorder::default());
        let state =
            AppState::new(Engine::new(WardenHome::at(home.path()), secrets).unwrap(), recorder.clone());
        state.save_settings(anthropic_settings(server, project.path())).unwrap();
        Self { state, recorder, _home: home, _project: project }
    }
}

#[tokio::test]
async fn a_trust_change_reaches_an_open_conversation_with_its_history() {
    let server = TestServer::start(vec![
        Reply::sse(anthropic(&[text("Hello.")], 10), Split::Whole),
        Reply::sse(
            anthropic(&[tool("toolu_w", "file_write", json!({"path": "out.txt", "content": "x"}))], 10),
            Split::Whole,
        ),
        Reply::sse(anthropic(&[text("Written.")], 10), Split::Whole),
    ])
    .await;
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    let project_dir = std::fs::canonicalize(project.path()).unwrap().to_string_lossy().into_owned();
    let secrets = Arc::new(MemoryStore::new());
    secrets.set(KeyName::Anthropic, "sk-test").await.unwrap();
    let recorder = Arc::new(Recorder::default());
    let state = AppState::new(Engine::new(WardenHome::at(home.path()), secrets).unwrap(), recorder.clone());

    let mut settings = anthropic_settings(&server, project.path());
    settings.tool_permissions.insert(
        project_dir,
        ToolPermissions { allowed_tools: Some(vec!["file_write".into()]), ..Default::default() },
    );
    state.save_settings(settings.clone()).unwrap();

    state.send("c1".into(), "hi".into()).await.unwrap();
    recorder.turns_ended(1).await;

    // Guided would ask before file_write; the user switches to Autonomous mid-conversation.
    settings.trust_level = TrustLevel::Autonomous;
    state.save_settings(settings).unwrap();
    state.send("c1".into(), "write out.txt".into()).await.unwrap();
    recorder.turns_ended(2).await;

    assert!(!recorder.events().iter().any(|e| matches!(e, Event::ToolConfirm(_))), "nothing asked");
    assert_eq!(std::fs::read_to_string(project.path().join("out.txt")).unwrap(), "x");
    // The remade session carried the conversation on.
    let second = &server.requests()[1].body;
    assert_eq!(second["messages"][0]["content"], "hi", "{second}");
    assert_eq!(second["messages"].as_array().unwrap().len(), 3, "{second}");
    assert_eq!(state.history("c1").await.unwrap().len(), 6);
}

#[tokio::test]
async fn a_conversation_survives_a_restart_and_goes_on() {
    let server = TestServer::start(vec![
        Reply::sse(anthropic(&[text("First answer.")], 10), Split::Whole),
        Reply::sse(anthropic(&[text("Second answer.")], 10), Split::Whole),
    ])
    .await;
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    let secrets = Arc::new(MemoryStore::new());
    secrets.set(KeyName::Anthropic, "sk-test").await.unwrap();
    let settings = anthropic_settings(&server, project.path());

    let first = Arc::new(Recorder::default());
    let state =
        AppState::new(Engine::new(WardenHome::at(home.path()), secrets.clone()).unwrap(), first.clone());
    state.save_settings(settings).unwrap();
    state.send("c-restart".into(), "remember me".into()).await.unwrap();
    first.turns_ended(1).await;
    // The history is written right after the turn's last event.
    let saved = home.path().join("conversations/c-restart.json");
    for _ in 0..250 {
        if saved.exists() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    drop(state);

    // The app starts again: a new state over the same Warden home.
    let second = Arc::new(Recorder::default());
    let state = AppState::new(Engine::new(WardenHome::at(home.path()), secrets).unwrap(), second.clone());
    let history = state.history("c-restart").await.unwrap();
    assert_eq!(history.len(), 2, "{history:?}");
    assert_eq!(history[1].text(), "First answer.");
    state.send("c-restart".into(), "and now?".into()).await.unwrap();
    second.turns_ended(1).await;
    let messages = server.requests()[1].body["messages"].clone();
    assert_eq!(messages[0]["content"], "remember me", "{messages}");
    assert_eq!(messages.as_array().unwrap().len(), 3, "{messages}");
    // Ids that are not plain names never reach the disk.
    assert!(state.history("../settings").await.unwrap().is_empty());
}

/// Deleting a conversation removes its file and forgets its session; while a turn runs it is
/// refused (the turn's save would bring the file back).
#[tokio::test]
async fn a_conversation_is_deleted_only_when_no_turn_runs() {
    let server = TestServer::start(vec![
        Reply::sse(anthropic(&[text("Hello.")], 10), Split::Whole),
        Reply::Stall { content_type: "text/event-stream".into(), prefix: Vec::new() },
    ])
    .await;
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    let secrets = Arc::new(MemoryStore::new());
    secrets.set(KeyName::Anthropic, "sk-test").await.unwrap();
    let mut settings = Settings::default();
    settings.providers.insert(
        ProviderId::Anthropic,
        ProviderSettings {
            base_url: Some(server.url.clone()),
            model: Some("claude-test".into()),
            ..Default::default()
        },
    );
    settings.project_dir = Some(project.path().to_string_lossy().into_owned());
    let recorder = Arc::new(Recorder::default());
    let state = AppState::new(Engine::new(WardenHome::at(home.path()), secrets).unwrap(), recorder.clone());
    state.save_settings(settings).unwrap();

    state.send("c-del".into(), "hi".into()).await.unwrap();
    recorder.turns_ended(1).await;
    let listed = || async {
        for _ in 0..250 {
            if state.engine.list_conversations(0, 10).unwrap().conversations.len() == 1 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("the conversation was never listed");
    };
    listed().await;
    let summary = &state.engine.list_conversations(0, 10).unwrap().conversations[0];
    assert_eq!((summary.title.as_str(), summary.message_count), ("hi", 2));
    let canonical = std::fs::canonicalize(project.path()).unwrap();
    assert_eq!(summary.project_root.as_deref(), Some(canonical.to_string_lossy().as_ref()));

    state.send("c-del".into(), "and again".into()).await.unwrap();
    let refused = state.delete_conversation("c-del").await.unwrap_err();
    assert_eq!(refused.code, crate::error::CommandErrorCode::InvalidInput);
    assert!(state.engine.conversation_summary("c-del").is_ok());

    state.cancel("c-del".into()).await.unwrap();
    recorder.turns_ended(2).await;
    let mut deleted = false;
    for _ in 0..250 {
        if state.delete_conversation("c-del").await.is_ok() {
            deleted = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(deleted, "the delete was refused after the turn ended");
    assert!(state.engine.conversation_summary("c-del").is_err());
    assert!(state.history("c-del").await.unwrap().is_empty(), "the session was forgotten too");
    assert!(state.engine.list_conversations(0, 10).unwrap().conversations.is_empty());
}

/// After a 401 the user saves the right key in Settings: the conversation that failed goes on with
/// it (before, only new conversations got the new key).
#[tokio::test]
async fn a_key_fixed_after_a_401_reaches_the_open_conversation() {
    let rejected =
        br#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#;
    let mut unauthorized = format!(
        "HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        rejected.len()
    )
    .into_bytes();
    unauthorized.extend_from_slice(rejected);
    let server = TestServer::start(vec![
        Reply::http(unauthorized),
        Reply::sse(anthropic(&[text("Hello with the right key.")], 10), Split::Whole),
    ])
    .await;
    let App { state, recorder, .. } = &App::with_anthropic(&server, "sk-wrong").await;

    state.send("c1".into(), "hi".into()).await.unwrap();
    for _ in 0..500 {
        if recorder.events().iter().any(|e| matches!(e, Event::Error(_))) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(recorder.events().iter().any(|e| matches!(e, Event::Error(_))), "the wrong key failed");
    // Settings says the stored key was rejected, not merely "set".
    assert_eq!(anthropic_check(state).await, Some(false), "the 401 is the key's verdict");

    state.set_key(KeyName::Anthropic, "sk-right").await.unwrap();
    assert_eq!(anthropic_check(state).await, None, "a new key has no verdict until it is sent");
    // The failed turn may still be winding down (saving its history): a busy refusal is retried.
    let mut sent = state.send("c1".into(), "hi again".into()).await;
    for _ in 0..100 {
        if sent.is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        sent = state.send("c1".into(), "hi again".into()).await;
    }
    sent.unwrap();
    for _ in 0..500 {
        if recorder.events().iter().any(|e| matches!(e, Event::TextDelta(t) if t.delta.contains("right key")))
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let requests = server.requests();
    assert_eq!(requests.len(), 2, "{:?}", recorder.events().iter().map(Event::name).collect::<Vec<_>>());
    assert_eq!(requests[0].header("x-api-key"), Some("sk-wrong"));
    assert_eq!(requests[1].header("x-api-key"), Some("sk-right"), "the open conversation kept the old key");
    assert_eq!(anthropic_check(state).await, Some(true), "the fixed key is shown as accepted");
}

/// Whether the Anthropic key was accepted when it was last sent (`None`: not sent yet).
async fn anthropic_check(state: &AppState) -> Option<bool> {
    let status = state.engine.key_status().await;
    status.iter().find(|k| k.name == KeyName::Anthropic).and_then(|k| k.last_check).map(|c| c.accepted)
}

/// "Allow for this session" is listed for the conversation and can be revoked (the window's
/// header shows the list); a revoked grant is gone, and revoking it again says so.
#[tokio::test]
async fn session_grants_are_listed_and_revoked() {
    let server = TestServer::start(vec![
        Reply::sse(
            anthropic(&[tool("toolu_w", "file_write", json!({"path": "out.txt", "content": "x"}))], 10),
            Split::Whole,
        ),
        Reply::sse(anthropic(&[text("Written.")], 10), Split::Whole),
    ])
    .await;
    let App { state, recorder, .. } = &App::with_anthropic(&server, "sk-test").await;
    assert!(state.grants("c1").await.unwrap().is_empty(), "a conversation not open has none");

    state.send("c1".into(), "write out.txt".into()).await.unwrap();
    let asked = recorder.wait_for(1, |e| if let Event::ToolConfirm(c) = e { Some(c) } else { None }).await;
    let remember = Some(warden_protocol::Remember::Session);
    state.approve("c1".into(), asked[0].confirm_id.clone(), true, None, remember, None).await.unwrap();
    recorder.turns_ended(1).await;

    let granted = SessionGrant::Tool { name: "file_write".into() };
    assert_eq!(state.grants("c1").await.unwrap(), std::slice::from_ref(&granted));
    assert_eq!(serde_json::to_value(&granted).unwrap(), json!({"kind": "tool", "name": "file_write"}));
    state.revoke_grant("c1", &granted).await.unwrap();
    assert!(state.grants("c1").await.unwrap().is_empty());
    assert!(state.revoke_grant("c1", &granted).await.is_err(), "already revoked");
}

/// A window whose settings name the loopback provider `server`, with a Warden home and a project of
/// its own (kept alive by the returned folders) and a recorder of its events.
async fn window_on(server: &TestServer) -> (tempfile::TempDir, tempfile::TempDir, AppState, Arc<Recorder>) {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    let secrets = Arc::new(MemoryStore::new());
    secrets.set(KeyName::Anthropic, "sk-test").await.unwrap();
    let recorder = Arc::new(Recorder::default());
    let state = AppState::new(Engine::new(WardenHome::at(home.path()), secrets).unwrap(), recorder.clone());
    state.save_settings(anthropic_settings(server, project.path())).unwrap();
    (home, project, state, recorder)
}

/// "Compact now" from the window: the open conversation's older part is summarized, the window
/// hears `chat:compacted`, the next message is sent with the summary, and a reopened conversation
/// knows where the divider goes.
#[tokio::test]
async fn compact_now_summarizes_an_open_conversation_and_the_next_message_uses_it() {
    let server = TestServer::start(vec![
        Reply::sse(anthropic(&[text("The parser reads tokens one by one.")], 10), Split::Whole),
        Reply::sse(anthropic(&[text("The lexer splits text into tokens.")], 10), Split::Whole),
        Reply::sse(anthropic(&[text("SUMMARY: parser explained.")], 10), Split::Whole),
        Reply::sse(anthropic(&[text("Next.")], 10), Split::Whole),
    ])
    .await;
    let (_home, _project, state, recorder) = window_on(&server).await;

    state.send("c-compact".into(), "explain the parser".into()).await.unwrap();
    recorder.turns_ended(1).await;
    state.send("c-compact".into(), "and the lexer?".into()).await.unwrap();
    recorder.turns_ended(2).await;
    assert_eq!(state.engine.conversation_compaction("c-compact").unwrap(), None);
    state.compact("c-compact").await.unwrap();
    let compacted = recorder.wait_for(1, |e| if let Event::Compacted(c) = e { Some(c) } else { None }).await;
    assert_eq!(compacted.len(), 1);
    assert!(compacted[0].manual);
    assert_eq!(compacted[0].summarized_messages, 2);
    let info = state.engine.conversation_compaction("c-compact").unwrap().unwrap();
    assert_eq!(info.summarized_messages, 2);

    state.send("c-compact".into(), "next?".into()).await.unwrap();
    recorder.turns_ended(3).await;
    let sent = server.requests()[3].body["messages"].to_string();
    assert!(sent.contains("SUMMARY: parser explained.") && !sent.contains("one by one"), "{sent}");
    assert_eq!(state.history("c-compact").await.unwrap().len(), 6, "the window's history is whole");
}

/// A conversation open in the window that the terminal went on with (`warden exec --resume`
/// writes to the same store): the window's next message is sent with what the terminal added,
/// and the window's history shows it.
#[tokio::test]
async fn a_conversation_continued_elsewhere_is_reloaded_before_the_windows_next_message() {
    let server = TestServer::start(vec![
        Reply::sse(anthropic(&[text("Window answer.")], 10), Split::Whole),
        Reply::sse(anthropic(&[text("Window again.")], 10), Split::Whole),
    ])
    .await;
    let (home, _project, state, recorder) = window_on(&server).await;
    state.send("c-shared".into(), "from the window".into()).await.unwrap();
    recorder.turns_ended(1).await;

    // The terminal's turn, through a store connection of its own (as another process has).
    let elsewhere =
        warden_core::conversations::ConversationStore::open(&WardenHome::at(home.path()).store_path())
            .unwrap();
    let answer = |t: &str| warden_protocol::Message {
        role: warden_protocol::Role::Assistant,
        content: vec![warden_protocol::ContentBlock::Text { text: t.into() }],
    };
    elsewhere
        .put_message("c-shared", None, 2, &warden_protocol::Message::user_text("from the terminal"))
        .unwrap();
    elsewhere.put_message("c-shared", None, 3, &answer("Terminal answer.")).unwrap();

    state.send("c-shared".into(), "back in the window".into()).await.unwrap();
    recorder.turns_ended(2).await;
    let sent = server.requests()[1].body["messages"].clone();
    assert_eq!(sent.as_array().unwrap().len(), 5, "{sent}");
    assert_eq!(sent[2]["content"], "from the terminal");
    assert_eq!(sent[4]["content"], "back in the window");
    assert_eq!(state.history("c-shared").await.unwrap().len(), 6);
}

/// Two conversations whose model servers both number their calls from `call_0` (as some local
/// servers do): both wait for an approval of a `call_0`. Answering the first conversation's
/// releases its call only; the second keeps waiting and its file is not written.
#[tokio::test]
async fn an_answer_reaches_only_the_conversation_that_asked_although_call_ids_collide() {
    let write = |path: &str| {
        Reply::sse(
            anthropic(&[tool("call_0", "file_write", json!({"path": path, "content": "x"}))], 10),
            Split::Whole,
        )
    };
    let server = TestServer::start(vec![
        write("first.txt"),
        write("second.txt"),
        Reply::sse(anthropic(&[text("Written.")], 10), Split::Whole),
    ])
    .await;
    let (_home, project, state, recorder) = window_on(&server).await;
    let confirms = |n| recorder.wait_for(n, |e| if let Event::ToolConfirm(c) = e { Some(c) } else { None });

    state.send("c-first".into(), "write first.txt".into()).await.unwrap();
    confirms(1).await;
    state.send("c-second".into(), "write second.txt".into()).await.unwrap();
    let asked = confirms(2).await;
    assert_eq!((asked[0].tool_id.as_str(), asked[1].tool_id.as_str()), ("call_0", "call_0"));

    let first = asked.iter().find(|c| c.conversation_id == "c-first").unwrap();
    let misaddressed =
        state.approve("c-second".into(), first.confirm_id.clone(), true, None, None, None).await;
    assert!(misaddressed.is_err(), "an answer sent to the wrong conversation released {misaddressed:?}");
    state
        .approve(first.conversation_id.clone(), first.confirm_id.clone(), true, None, None, None)
        .await
        .unwrap();
    recorder.turns_ended(1).await;
    let ended: Vec<String> = recorder
        .events()
        .into_iter()
        .filter_map(|e| match e {
            Event::StreamEnd(end) if end.stop_reason != warden_protocol::StopReason::ToolUse => {
                Some(end.conversation_id)
            }
            _ => None,
        })
        .collect();
    assert_eq!(ended, ["c-first"]);
    assert!(project.path().join("first.txt").exists(), "the approved call ran");
    assert!(!project.path().join("second.txt").exists(), "the other conversation's call ran too");
    let results = recorder.events().into_iter().filter(|e| matches!(e, Event::ToolResult(_))).count();
    assert_eq!(results, 1, "only the answered call has a result");
}

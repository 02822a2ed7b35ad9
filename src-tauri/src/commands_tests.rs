//! The commands through Tauri's IPC on the mock runtime, with the app's real context (so the
//! capability and the ACL from build.rs apply): what the webview sends and what it gets back.

use std::sync::Arc;

use serde_json::{json, Value};
use tauri::test::{get_ipc_response, mock_builder, MockRuntime, INVOKE_KEY};
use tauri::webview::InvokeRequest;
use tauri::{Manager, WebviewWindow, WebviewWindowBuilder};
use warden_core::config::WardenHome;
use warden_core::secrets::{KeychainStore, MemoryStore, SecretStore};

use crate::bridge::EventSink;
use crate::state::AppState;
use warden_core::engine::Engine;

pub(crate) struct TestApp {
    _app: tauri::App<MockRuntime>,
    webview: WebviewWindow<MockRuntime>,
    pub(crate) home: tempfile::TempDir,
}

impl TestApp {
    pub(crate) fn new(secrets: Arc<dyn SecretStore>) -> Self {
        Self::with_home(secrets, tempfile::tempdir().unwrap())
    }

    fn with_home(secrets: Arc<dyn SecretStore>, home: tempfile::TempDir) -> Self {
        let builder =
            crate::with_events(tauri_specta::Builder::new().commands(crate::commands::collect_mock()));
        let app = mock_builder()
            .invoke_handler(builder.invoke_handler())
            .build(tauri::generate_context!())
            .unwrap();
        let sink: Arc<dyn EventSink> = Arc::new(app.handle().clone());
        app.manage(AppState::new(Engine::new(WardenHome::at(home.path()), secrets).unwrap(), sink));
        let webview = WebviewWindowBuilder::new(&app, "main", Default::default()).build().unwrap();
        Self { _app: app, webview, home }
    }

    pub(crate) fn invoke(&self, cmd: &str, args: Value) -> Result<Value, Value> {
        let request = InvokeRequest {
            cmd: cmd.into(),
            callback: tauri::ipc::CallbackFn(0),
            error: tauri::ipc::CallbackFn(1),
            url: "tauri://localhost".parse().unwrap(),
            body: tauri::ipc::InvokeBody::Json(args),
            headers: Default::default(),
            invoke_key: INVOKE_KEY.to_owned(),
        };
        get_ipc_response(&self.webview, request).map(|b| b.deserialize::<Value>().unwrap())
    }

    fn files_contain(&self, needle: &str) -> bool {
        fn walk(dir: &std::path::Path, needle: &str) -> bool {
            std::fs::read_dir(dir).unwrap().flatten().any(|e| {
                let p = e.path();
                if p.is_dir() {
                    walk(&p, needle)
                } else {
                    String::from_utf8_lossy(&std::fs::read(&p).unwrap()).contains(needle)
                }
            })
        }
        walk(self.home.path(), needle)
    }
}

fn is_set(status: &Value, name: &str) -> bool {
    status.as_array().unwrap().iter().any(|k| k["name"] == name && k["isSet"] == true)
}

#[test]
fn a_key_goes_in_and_only_its_status_comes_back() {
    let app = TestApp::new(Arc::new(MemoryStore::new()));
    let before = app.invoke("keys_status", json!({})).unwrap();
    assert!(!is_set(&before, "anthropic"));

    let set = app.invoke("keys_set", json!({"name": "anthropic", "value": "sk-ant-ipc-test"})).unwrap();
    assert_eq!(set, Value::Null, "keys_set answers nothing, least of all the key");
    let after = app.invoke("keys_status", json!({})).unwrap();
    assert!(is_set(&after, "anthropic"));
    assert!(!after.to_string().contains("sk-ant-ipc-test"));

    app.invoke("keys_delete", json!({"name": "anthropic"})).unwrap();
    assert!(!is_set(&app.invoke("keys_status", json!({})).unwrap(), "anthropic"));
}

#[test]
fn errors_are_typed_with_a_code_and_a_message() {
    let app = TestApp::new(Arc::new(MemoryStore::new()));
    let empty = app.invoke("keys_set", json!({"name": "openai", "value": "  "})).unwrap_err();
    assert_eq!(empty["code"], "INVALID_INPUT");
    assert!(empty["message"].as_str().unwrap().contains("empty"));

    let unknown = app
        .invoke(
            "chat_tool_approve",
            json!({"conversationId": "c-nope", "confirmId": "q-nope", "approved": true}),
        )
        .unwrap_err();
    assert_eq!(unknown["code"], "UNKNOWN_TOOL");

    let blank = app.invoke("chat_send", json!({"conversationId": "c1", "content": " "})).unwrap_err();
    assert_eq!(blank["code"], "INVALID_INPUT");
}

#[test]
fn settings_round_trip_through_the_settings_file() {
    let app = TestApp::new(Arc::new(MemoryStore::new()));
    let mut settings = app.invoke("settings_get", json!({})).unwrap();
    assert_eq!(settings["trustLevel"], "guided");
    settings["trustLevel"] = json!("supervised");
    settings["projectDir"] = json!("/tmp/some-project");
    app.invoke("settings_set", json!({"settings": settings})).unwrap();
    let again = app.invoke("settings_get", json!({})).unwrap();
    assert_eq!(again["trustLevel"], "supervised");
    assert!(app.files_contain("supervised"), "saved to the settings file");
}

/// Settings → Permissions: a rule added through the window's command is listed with its scope,
/// decides the call the try-out box checks, and once removed decides nothing; a rule that does
/// not parse is refused with why.
#[test]
fn permission_rules_are_added_checked_and_removed_through_the_window() {
    let app = TestApp::new(Arc::new(MemoryStore::new()));
    let project = tempfile::tempdir().unwrap();
    let mut settings = app.invoke("settings_get", json!({})).unwrap();
    settings["projectDir"] = json!(project.path().display().to_string());
    app.invoke("settings_set", json!({"settings": settings})).unwrap();
    let rule =
        json!({"effect": "deny", "tool": "bash", "pattern": "git push *", "origin": {"kind": "typed"}});
    app.invoke("rules_add", json!({"scope": "user", "rule": rule})).unwrap();
    let listed = app.invoke("rules_list", json!({})).unwrap();
    assert_eq!(listed[0]["scope"], "user", "{listed}");
    assert_eq!(listed[0]["rule"]["pattern"], "git push *", "{listed}");
    let check = |command: &str| {
        app.invoke("rules_check", json!({"tool": "bash", "input": {"command": command}})).unwrap()
    };
    let refused = check("git push --force");
    assert_eq!(refused["decision"], "deny", "{refused}");
    assert!(refused["rule"].as_str().unwrap_or_default().contains("git push *"), "{refused}");
    assert_eq!(check("git status")["decision"], "ask");
    assert_eq!(app.invoke("rules_remove", json!({"scope": "user", "rule": rule})).unwrap(), json!(true));
    assert_eq!(check("git push --force")["decision"], "ask");
    let bad = json!({"effect": "allow", "tool": "bash", "pattern": "a && b"});
    let refused = app.invoke("rules_add", json!({"scope": "project", "rule": bad})).unwrap_err();
    assert_eq!(refused["code"], "INVALID_INPUT");
    assert!(refused["message"].as_str().unwrap_or_default().contains("not a command pattern"), "{refused}");
}

#[test]
fn history_of_a_conversation_that_never_started_is_empty_and_cancel_is_a_no_op() {
    let app = TestApp::new(Arc::new(MemoryStore::new()));
    assert_eq!(app.invoke("chat_history", json!({"conversationId": "fresh"})).unwrap(), json!([]));
    assert_eq!(app.invoke("chat_cancel", json!({"conversationId": "fresh"})).unwrap(), Value::Null);
}

#[test]
fn the_webview_may_not_call_a_plugin_it_was_not_granted() {
    let app = TestApp::new(Arc::new(MemoryStore::new()));
    let refused = app.invoke("plugin:dialog|open", json!({"options": {}})).unwrap_err();
    assert!(refused.to_string().contains("not allowed"), "{refused}");
}

/// Against the real Secret Service: run under dbus-run-session with an unlocked gnome-keyring
/// (`cargo test -p warden-desktop -- --ignored keychain --test-threads=1`).
#[test]
#[ignore = "needs a Secret Service session (tests/e2e/run.sh and the test script provide one)"]
fn keychain_keys_set_stores_in_the_keychain_and_nothing_on_disk() {
    let service = format!("dev.warden.test.desktop.{}", std::process::id());
    let store = KeychainStore::new(service.clone());
    let app = TestApp::new(Arc::new(store));
    let secret = format!("sk-ant-desktop-{}", std::process::id());
    app.invoke("keys_set", json!({"name": "anthropic", "value": secret})).unwrap();
    app.invoke("settings_set", json!({"settings": {"trustLevel": "guided"}})).unwrap();
    assert!(is_set(&app.invoke("keys_status", json!({})).unwrap(), "anthropic"));

    let looked_up = std::process::Command::new("secret-tool")
        .args(["lookup", "service", &service, "username", "anthropic"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&looked_up.stdout).trim(), secret);
    assert!(!app.files_contain(&secret), "the key must not be written under WARDEN_HOME");

    app.invoke("keys_delete", json!({"name": "anthropic"})).unwrap();
    assert!(!is_set(&app.invoke("keys_status", json!({})).unwrap(), "anthropic"));
}

/// A settings file that is not JSON at all is kept aside, the defaults are used, and the window is
/// told where the file went.
#[test]
fn an_unreadable_settings_file_is_kept_aside_and_the_window_says_so() {
    let secrets: Arc<dyn SecretStore> = Arc::new(MemoryStore::new());
    let app = TestApp::new(secrets.clone());
    let path = app.home.path().join("settings.json");
    std::fs::write(&path, b"{ this is not json").unwrap();
    let later = TestApp::with_home(secrets, app.home);
    let integrity = later.invoke("settings_integrity", json!({})).unwrap();
    assert_eq!(integrity["trusted"], true, "{integrity}");
    let notice = integrity["notice"].as_str().unwrap_or_default();
    assert!(notice.contains("could not be read") && notice.contains("settings.json.invalid"), "{notice}");
    assert_eq!(
        std::fs::read(later.home.path().join("settings.json.invalid")).unwrap(),
        b"{ this is not json"
    );
    assert_eq!(later.invoke("settings_get", json!({})).unwrap()["trustLevel"], "guided");
}

/// Review #9, finding 9: a command rewrote `settings.json` to widen the agent's scope. The window
/// learns the file is not Warden's, gets the safe settings, and can accept the file.
#[test]
fn settings_written_by_another_program_are_reported_and_can_be_accepted() {
    let secrets: Arc<dyn SecretStore> = Arc::new(MemoryStore::new());
    let app = TestApp::new(secrets.clone());
    assert_eq!(
        app.invoke("settings_integrity", json!({})).unwrap(),
        json!({"trusted": true, "problem": null, "notice": null})
    );
    let mut settings = app.invoke("settings_get", json!({})).unwrap();
    settings["trustLevel"] = json!("supervised");
    app.invoke("settings_set", json!({"settings": settings.clone()})).unwrap();

    // What `bash` did: a plain write of the file.
    settings["trustLevel"] = json!("autonomous");
    settings["toolPermissions"] =
        json!({"/p": {"allowedTools": ["bash"], "writeGlobs": [], "bashTimeoutSecs": 60}});
    let path = app.home.path().join("settings.json");
    std::fs::write(&path, serde_json::to_vec_pretty(&settings).unwrap()).unwrap();

    // A later start of the window (the engine loads the settings when it starts).
    let later = TestApp::with_home(secrets, app.home);
    let integrity = later.invoke("settings_integrity", json!({})).unwrap();
    assert_eq!(integrity["trusted"], false);
    assert!(integrity["problem"].as_str().unwrap().contains("not written by Warden"), "{integrity}");
    let used = later.invoke("settings_get", json!({})).unwrap();
    assert_eq!(used["trustLevel"], "guided", "the safe default, not the file's");
    assert_eq!(used["toolPermissions"], json!({}));

    later.invoke("settings_accept_file", json!({})).unwrap();
    assert_eq!(later.invoke("settings_integrity", json!({})).unwrap()["trusted"], true);
    assert_eq!(later.invoke("settings_get", json!({})).unwrap()["trustLevel"], "autonomous");
}

/// Saves a conversation as a session would, through a connection of its own to the app's store.
fn save_conversation(app: &TestApp, id: &str, messages: &[warden_protocol::Message]) {
    let home = WardenHome::at(app.home.path());
    let store = warden_core::conversations::ConversationStore::open(&home.store_path()).unwrap();
    for (seq, message) in messages.iter().enumerate() {
        store.put_message(id, None, seq, message).unwrap();
    }
}

/// The conversation list is the engine's: what is saved under Warden's home, whatever the window
/// remembers.
#[test]
fn saved_conversations_are_listed_renamed_and_deleted() {
    let app = TestApp::new(Arc::new(MemoryStore::new()));
    let history = [warden_protocol::Message::user_text("Tidy the README\nplease")];
    save_conversation(&app, "conv-1", &history);

    let page = app.invoke("chat_list", json!({"offset": 0, "limit": 50})).unwrap();
    assert_eq!(page["nextOffset"], Value::Null);
    let listed = &page["conversations"][0];
    assert_eq!((listed["id"].as_str(), listed["title"].as_str()), (Some("conv-1"), Some("Tidy the README")));
    assert_eq!(listed["messageCount"], 1);
    assert!(listed["updatedAtMs"].as_u64().unwrap() > 0);

    app.invoke("chat_rename", json!({"conversationId": "conv-1", "title": "Docs"})).unwrap();
    let page = app.invoke("chat_list", json!({"offset": 0, "limit": 50})).unwrap();
    assert_eq!(page["conversations"][0]["title"], "Docs");

    let bad = app.invoke("chat_rename", json!({"conversationId": "../settings", "title": "x"})).unwrap_err();
    assert_eq!(bad["code"], "INVALID_INPUT");
    let missing = app.invoke("chat_rename", json!({"conversationId": "conv-2", "title": "x"})).unwrap_err();
    assert_eq!(missing["code"], "INVALID_INPUT");

    let found = app.invoke("chat_search", json!({"query": "readme", "limit": 10})).unwrap();
    assert_eq!(found[0]["conversation"]["id"], "conv-1", "{found}");
    assert_eq!(found[0]["snippet"], "Tidy the README please");
    assert_eq!(app.invoke("chat_search", json!({"query": "nowhere", "limit": 10})).unwrap(), json!([]));

    app.invoke("chat_delete", json!({"conversationId": "conv-1"})).unwrap();
    let page = app.invoke("chat_list", json!({"offset": 0, "limit": 50})).unwrap();
    assert_eq!(page["conversations"], json!([]));
    assert_eq!(app.invoke("chat_history", json!({"conversationId": "conv-1"})).unwrap(), json!([]));
    // Undo.
    app.invoke("chat_restore", json!({"conversationId": "conv-1"})).unwrap();
    let page = app.invoke("chat_list", json!({"offset": 0, "limit": 50})).unwrap();
    assert_eq!(page["conversations"][0]["title"], "Docs");
    app.invoke("chat_delete", json!({"conversationId": "conv-1"})).unwrap();
    let bad = app.invoke("chat_delete", json!({"conversationId": "a/b"})).unwrap_err();
    assert_eq!(bad["code"], "INVALID_INPUT");
}

/// A saved conversation with a row that cannot be read opens read-only: what can be read is shown
/// with the row marked, nothing sends into it, and its rows stay as they were. A block of a kind a
/// newer Warden wrote is no such row: it reaches the window as it was stored.
#[test]
fn a_conversation_that_cannot_be_read_whole_is_shown_read_only_and_never_written() {
    let app = TestApp::new(Arc::new(MemoryStore::new()));
    let history = [
        warden_protocol::Message::user_text("one"),
        warden_protocol::Message::user_text("placeholder"),
        warden_protocol::Message::user_text("three"),
    ];
    save_conversation(&app, "conv-1", &history);
    let db = WardenHome::at(app.home.path()).store_path();
    let set_row = |seq: i64, body: &str| {
        rusqlite::Connection::open(&db)
            .unwrap()
            .execute("UPDATE messages SET body = ?2 WHERE seq = ?1", rusqlite::params![seq, body])
            .unwrap();
    };
    let rows = || -> Vec<String> {
        let conn = rusqlite::Connection::open(&db).unwrap();
        let mut statement = conn.prepare("SELECT body FROM messages ORDER BY seq").unwrap();
        statement.query_map([], |row| row.get(0)).unwrap().collect::<Result<_, _>>().unwrap()
    };

    let newer = r#"{"role":"assistant","content":[{"type":"citation", "url": "https://example.org"}]}"#;
    set_row(1, newer);
    let read = app.invoke("chat_history", json!({"conversationId": "conv-1"})).unwrap();
    assert_eq!(read[1]["content"][0], json!({"type": "citation", "url": "https://example.org"}), "{read}");

    set_row(1, r#"{"role":"assistant","content":[{"ty"#);
    let before = rows();
    let refused = app.invoke("chat_history", json!({"conversationId": "conv-1"})).unwrap_err();
    assert_eq!(refused["code"], "CONVERSATION_UNREADABLE", "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("message 2"), "{refused}");

    let shown = app.invoke("chat_history_read_only", json!({"conversationId": "conv-1"})).unwrap();
    let kinds: Vec<_> = shown["rows"].as_array().unwrap().iter().map(|r| r["kind"].clone()).collect();
    assert_eq!(kinds, [json!("read"), json!("unreadable"), json!("read")], "{shown}");
    assert_eq!(shown["rows"][2]["message"]["content"][0]["text"], "three");
    assert!(shown["reason"].as_str().unwrap().contains("message 2"), "{shown}");

    let send = json!({"conversationId": "conv-1", "content": "four", "images": null});
    assert_eq!(app.invoke("chat_send", send).unwrap_err()["code"], "CONVERSATION_UNREADABLE");
    let rewind = app.invoke("chat_rewind", json!({"conversationId": "conv-1", "userMessageIndex": 1}));
    assert!(rewind.is_err(), "{rewind:?}");
    assert_eq!(rows(), before, "nothing was written");
}

/// A reopened conversation shows when each message was written and which model answered.
#[test]
fn a_saved_conversation_gives_each_message_its_time_and_each_answer_its_model() {
    let app = TestApp::new(Arc::new(MemoryStore::new()));
    let home = WardenHome::at(app.home.path());
    let store = warden_core::conversations::ConversationStore::open(&home.store_path()).unwrap();
    let answer = warden_protocol::Message {
        role: warden_protocol::Role::Assistant,
        content: vec![warden_protocol::ContentBlock::Text { text: "Hello.".into() }],
    };
    store.put_message_by("conv-1", None, 0, &warden_protocol::Message::user_text("Hi"), None).unwrap();
    store.put_message_by("conv-1", None, 1, &answer, Some("claude-test")).unwrap();

    let stamps = app.invoke("chat_message_stamps", json!({"conversationId": "conv-1"})).unwrap();
    assert_eq!(stamps.as_array().map(Vec::len), Some(2), "{stamps}");
    assert_eq!((&stamps[0]["model"], &stamps[1]["model"]), (&Value::Null, &json!("claude-test")));
    assert!(stamps[1]["atMs"].as_u64().unwrap() > 1_600_000_000_000, "{stamps}");
    let none = app.invoke("chat_message_stamps", json!({"conversationId": "never-saved"})).unwrap();
    assert_eq!(none, json!([]));
    let bad = app.invoke("chat_message_stamps", json!({"conversationId": "../x"})).unwrap();
    assert_eq!(bad, json!([]), "not a conversation id: nothing read");
}

/// Rewinding drops a message the user wrote and everything after it, from the saved conversation
/// the next message continues; the dropped text comes back to be offered again.
#[test]
fn a_conversation_is_rewound_to_before_one_of_its_messages() {
    let app = TestApp::new(Arc::new(MemoryStore::new()));
    let assistant = |text: &str| warden_protocol::Message {
        role: warden_protocol::Role::Assistant,
        content: vec![warden_protocol::ContentBlock::Text { text: text.into() }],
    };
    let history = [
        warden_protocol::Message::user_text("one"),
        assistant("reply one"),
        warden_protocol::Message::user_text("two"),
        assistant("reply two"),
    ];
    save_conversation(&app, "conv-1", &history);

    let text = app.invoke("chat_rewind", json!({"conversationId": "conv-1", "userMessageIndex": 1})).unwrap();
    assert_eq!(text, "two");
    let left = app.invoke("chat_history", json!({"conversationId": "conv-1"})).unwrap();
    assert_eq!(left.as_array().unwrap().len(), 2, "{left}");
    assert_eq!(left[1]["content"][0]["text"], "reply one");

    let missing =
        app.invoke("chat_rewind", json!({"conversationId": "conv-1", "userMessageIndex": 1})).unwrap_err();
    assert_eq!(missing["code"], "INVALID_INPUT", "{missing}");
    let bad =
        app.invoke("chat_rewind", json!({"conversationId": "../x", "userMessageIndex": 0})).unwrap_err();
    assert_eq!(bad["code"], "INVALID_INPUT");
}

/// A link opens through the system's opener, with the address as given and without Warden's
/// credentials in the opener's environment; anything but a web address is refused and opens nothing.
#[test]
fn open_link_hands_only_web_addresses_to_the_opener_without_credentials() {
    // An opener that writes what it was given next to itself.
    let dir = tempfile::tempdir().unwrap();
    let opener = dir.path().join("opener.sh");
    let script = "#!/bin/sh\nrecord=\"$(dirname \"$0\")/opened\"\n{ echo \"url=$1\"; env; } > \"$record.tmp\"\nmv \"$record.tmp\" \"$record\"\n";
    std::fs::write(&opener, script).unwrap();
    std::fs::set_permissions(&opener, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    // Warden's environment as the user started it, in this test's own process and no other's.
    let opener = opener.to_string_lossy().into_owned();
    let warden_env =
        [("WARDEN_OPENER", opener.as_str()), ("OPEN_LINK_TEST_API_KEY", "sk-must-not-reach-the-browser")];
    if !warden_testkit::rerun_with_env(
        module_path!(),
        "open_link_hands_only_web_addresses_to_the_opener_without_credentials",
        &warden_env,
    ) {
        return;
    }
    // Here the opener is the first process's (this one's own is not used).
    let record =
        std::path::PathBuf::from(std::env::var_os("WARDEN_OPENER").unwrap()).with_file_name("opened");
    let app = TestApp::new(Arc::new(MemoryStore::new()));

    let refused = app.invoke("open_link", json!({"url": "file:///etc/passwd"})).unwrap_err();
    assert_eq!(refused["code"], "INVALID_INPUT", "{refused}");

    let url = "https://console.anthropic.com/settings/keys";
    app.invoke("open_link", json!({"url": url})).unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !record.exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let seen = std::fs::read_to_string(&record).unwrap();
    assert!(seen.starts_with(&format!("url={url}\n")), "{seen}");
    assert!(!seen.contains("sk-must-not-reach-the-browser"), "a credential reached the opener: {seen}");
}

#[test]
fn mcp_servers_are_pasted_checked_saved_and_reported() {
    let app = TestApp::new(Arc::new(MemoryStore::new()));
    let pasted = r#"{"mcpServers": {"broken": {"command": "/nonexistent/mcp-server"}}}"#;
    let servers = app.invoke("mcp_parse", json!({"json": pasted})).unwrap();
    assert_eq!(servers["broken"]["command"], "/nonexistent/mcp-server");
    let refused = app.invoke("mcp_parse", json!({"json": r#"{"mcpServers": {"x": {}}}"#})).unwrap_err();
    assert_eq!(refused["code"], "INVALID_INPUT");
    assert!(refused["message"].as_str().unwrap().contains("neither"));

    let mut settings = app.invoke("settings_get", json!({})).unwrap();
    settings["mcpServers"] = servers;
    app.invoke("settings_set", json!({"settings": settings.clone()})).unwrap();
    let statuses = app.invoke("mcp_status", json!({})).unwrap();
    assert_eq!(statuses[0]["name"], "broken");
    assert_eq!(statuses[0]["state"], "failed");
    assert!(statuses[0]["error"].as_str().unwrap().contains("/nonexistent/mcp-server"), "{statuses}");

    // An entry that could never start is not saved.
    settings["mcpServers"]["empty"] = json!({});
    let refused = app.invoke("settings_set", json!({"settings": settings})).unwrap_err();
    assert_eq!(refused["code"], "INVALID_INPUT");
    assert!(app.invoke("settings_get", json!({})).unwrap()["mcpServers"].get("empty").is_none());
}

/// A resource of a real MCP server (server-everything over stdio, in the box) read for the next
/// message: its text as the server gave it, a binary part named and not shown, and an unknown
/// server or address refused in words.
#[test]
fn an_mcp_resource_is_read_for_a_message() {
    let app = TestApp::new(Arc::new(MemoryStore::new()));
    let dir = tempfile::tempdir().unwrap();
    let project = std::fs::canonicalize(dir.path()).unwrap();
    let server = warden_testkit::mcp::server_bin("mcp-server-everything");
    let mut settings = app.invoke("settings_get", json!({})).unwrap();
    settings["projectDir"] = json!(project.to_string_lossy());
    settings["mcpServers"] = json!({"everything": {"command": server.to_string_lossy(), "args": ["stdio"]}});
    app.invoke("settings_set", json!({"settings": settings})).unwrap();

    let read = |uri: &str| app.invoke("mcp_read_resource", json!({"name": "everything", "uri": uri}));
    let text = read("demo://resource/dynamic/text/7").unwrap();
    assert_eq!((text["server"].as_str(), text["truncated"].as_bool()), (Some("everything"), Some(false)));
    let said = text["text"].as_str().unwrap();
    assert!(said.starts_with("Resource 7: This is a plaintext resource"), "{said}");
    let blob = read("demo://resource/dynamic/blob/7").unwrap();
    let said = blob["text"].as_str().unwrap();
    assert!(said.starts_with("[text/plain, ") && said.ends_with(" bytes, not shown]"), "{said}");

    let unknown = read("demo://resource/dynamic/text/none").unwrap_err();
    assert_eq!(unknown["code"], "PROVIDER", "{unknown}");
    assert!(unknown["message"].as_str().unwrap().contains("could not read the resource"), "{unknown}");
    let nobody = app.invoke("mcp_read_resource", json!({"name": "nobody", "uri": "x://y"})).unwrap_err();
    assert_eq!(nobody["code"], "INVALID_INPUT", "{nobody}");
}

/// The window learns which instruction files the model reads, and may open only those: a path the
/// webview makes up (another file of the project, one outside it) is refused and opens nothing.
#[test]
fn instructions_in_use_are_listed_and_only_they_may_be_opened() {
    let app = TestApp::new(Arc::new(MemoryStore::new()));
    let none = app.invoke("instructions_in_use", json!({})).unwrap();
    assert_eq!(none, json!({"files": [], "global": false}));

    let dir = tempfile::tempdir().unwrap();
    let project = std::fs::canonicalize(dir.path()).unwrap();
    std::fs::write(project.join("AGENTS.md"), "Run the tests.").unwrap();
    std::fs::write(project.join("notes.md"), "not instructions").unwrap();
    let mut settings = app.invoke("settings_get", json!({})).unwrap();
    settings["projectDir"] = json!(project.to_string_lossy());
    settings["globalInstructions"] = json!("Answer in French.");
    app.invoke("settings_set", json!({"settings": settings})).unwrap();

    let in_use = app.invoke("instructions_in_use", json!({})).unwrap();
    let agents = project.join("AGENTS.md").to_string_lossy().into_owned();
    assert_eq!(
        in_use,
        json!({"files": [{"path": agents, "relativePath": "AGENTS.md", "bytes": 14, "truncated": false}], "global": true})
    );
    for other in [project.join("notes.md").to_string_lossy().into_owned(), "/etc/passwd".to_owned()] {
        let refused = app.invoke("instructions_open", json!({"path": other})).unwrap_err();
        assert_eq!(refused["code"], "INVALID_INPUT", "{refused}");
    }
}

//! The checkpoint commands through Tauri's IPC, on a real project folder and its real store (git
//! runs): what the window lists, compares and restores, and how a refusal reaches it.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use warden_core::checkpoint::{CheckpointStore, Origin};
use warden_core::config::WardenHome;
use warden_core::sandbox::Workspace;
use warden_core::scope::Scope;
use warden_core::secrets::MemoryStore;

use crate::commands_tests::TestApp;

struct Project {
    app: TestApp,
    _dir: tempfile::TempDir,
    root: PathBuf,
    /// The store a session of the project records into (the commands open their own on it).
    store: CheckpointStore,
}

impl Project {
    /// The window's settings name a fresh project folder holding `a.txt`.
    fn new() -> Self {
        let app = TestApp::new(Arc::new(MemoryStore::new()));
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let mut settings = app.invoke("settings_get", json!({})).unwrap();
        settings["projectDir"] = json!(root.to_string_lossy());
        app.invoke("settings_set", json!({"settings": settings})).unwrap();
        let home = WardenHome::at(app.home.path());
        let workspace = Workspace::new(&root, home.project_dir(&root), Scope::read_only()).unwrap();
        let store = CheckpointStore::open(&home.checkpoints_dir(&root), Arc::new(workspace)).unwrap();
        let project = Self { app, _dir: dir, root, store };
        project.write("a.txt", "one\ntwo\n");
        project
    }

    fn write(&self, path: &str, text: &str) {
        let path = self.root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn read(&self, path: &str) -> Option<String> {
        std::fs::read_to_string(self.root.join(path)).ok()
    }

    /// What a tool call that changes files does: a checkpoint before, the change, the state after.
    /// The id of the checkpoint before.
    fn call(&self, tool_id: &str, change: impl FnOnce(&Self)) -> String {
        let origin = Origin {
            conversation_id: Some("conv-1".into()),
            message_id: Some("m1".into()),
            tool_id: Some(tool_id.into()),
            tool_name: Some("bash".into()),
        };
        let before = self.store.checkpoint(&origin).unwrap();
        change(self);
        self.store.after(&before, &origin).unwrap();
        before.id
    }

    fn invoke(&self, cmd: &str, args: Value) -> Result<Value, Value> {
        self.app.invoke(cmd, args)
    }
}

fn paths_of(changes: &Value) -> Vec<(String, String)> {
    changes
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["path"].as_str().unwrap().to_owned(), c["status"].as_str().unwrap().to_owned()))
        .collect()
}

#[test]
fn a_call_is_listed_compared_restored_and_the_restore_undone() {
    let p = Project::new();
    let id = p.call("t1", |p| {
        p.write("a.txt", "one\nTWO\n");
        p.write("src/b.txt", "new\n");
    });

    let listed = p.invoke("checkpoint_list", json!({"conversationId": "conv-1"})).unwrap();
    let first = &listed[0];
    assert_eq!((first["id"].as_str(), first["toolId"].as_str()), (Some(id.as_str()), Some("t1")), "{listed}");
    assert_eq!(first["filesChanged"], 2);
    assert_eq!(p.invoke("checkpoint_list", json!({"conversationId": "other"})).unwrap(), json!([]));

    let changes = p.invoke("checkpoint_changes", json!({"fromId": id})).unwrap();
    assert_eq!(
        paths_of(&changes),
        [("a.txt".into(), "modified".into()), ("src/b.txt".into(), "created".into())]
    );
    assert_eq!((changes[0]["added"].as_u64(), changes[0]["removed"].as_u64()), (Some(1), Some(1)));

    let patch = p.invoke("checkpoint_patch", json!({"fromId": id, "path": "a.txt"})).unwrap();
    let patch = patch.as_str().unwrap();
    assert!(patch.contains("-two") && patch.contains("+TWO"), "{patch}");
    assert!(!patch.contains("src/b.txt"), "one file's diff only: {patch}");

    let report = p
        .invoke("checkpoint_restore", json!({"id": id, "paths": [], "force": false, "stopRunning": true}))
        .unwrap();
    assert_eq!(report["restored"], json!(id));
    assert_eq!(p.read("a.txt").as_deref(), Some("one\ntwo\n"));
    assert_eq!(p.read("src/b.txt"), None);
    assert!(!p.root.join("src").exists(), "the folder the restore emptied goes too");
    assert_eq!(paths_of(&report["files"]).len(), 2);

    let undo = report["undoCheckpointId"].clone();
    p.invoke("checkpoint_restore", json!({"id": undo, "paths": [], "force": false, "stopRunning": true}))
        .unwrap();
    assert_eq!(p.read("a.txt").as_deref(), Some("one\nTWO\n"));
    assert_eq!(p.read("src/b.txt").as_deref(), Some("new\n"));
}

#[test]
fn one_file_is_reverted_and_the_others_are_left_alone() {
    let p = Project::new();
    let id = p.call("t1", |p| {
        p.write("a.txt", "changed\n");
        p.write("b.txt", "made\n");
    });
    let report = p
        .invoke(
            "checkpoint_restore",
            json!({"id": id, "paths": ["b.txt"], "force": false, "stopRunning": true}),
        )
        .unwrap();
    assert_eq!(paths_of(&report["files"]), [("b.txt".into(), "deleted".into())]);
    assert_eq!(p.read("b.txt"), None);
    assert_eq!(p.read("a.txt").as_deref(), Some("changed\n"));
}

/// A file edited outside Warden after its last checkpoint is not overwritten: the window gets a
/// typed refusal naming it, and restoring with `force` goes ahead.
#[test]
fn a_restore_over_outside_edits_is_refused_with_the_files_named_until_forced() {
    let p = Project::new();
    let id = p.call("t1", |p| p.write("a.txt", "by the agent\n"));
    p.write("a.txt", "by the user in an editor\n");

    let refused = p
        .invoke("checkpoint_restore", json!({"id": id, "paths": [], "force": false, "stopRunning": true}))
        .unwrap_err();
    assert_eq!(refused["code"], "CHANGED_OUTSIDE", "{refused}");
    assert_eq!(refused["paths"], json!(["a.txt"]));
    assert!(
        refused["message"].as_str().unwrap().contains("outside")
            || refused["message"].as_str().unwrap().contains("other than Warden")
    );
    assert_eq!(p.read("a.txt").as_deref(), Some("by the user in an editor\n"), "nothing written");

    p.invoke("checkpoint_restore", json!({"id": id, "paths": [], "force": true, "stopRunning": true}))
        .unwrap();
    assert_eq!(p.read("a.txt").as_deref(), Some("one\ntwo\n"));
}

/// While a turn holds the project, a restore waits a moment for it to end, then is refused with a
/// code the window can explain; a turn that ends meanwhile lets it through.
#[test]
fn a_restore_under_a_running_turn_is_refused_and_one_just_ending_goes_through() {
    let p = Project::new();
    let id = p.call("t1", |p| p.write("a.txt", "changed\n"));

    let turn = p.store.turn_guard().unwrap();
    let started = Instant::now();
    let refused = p
        .invoke("checkpoint_restore", json!({"id": id, "paths": [], "force": false, "stopRunning": true}))
        .unwrap_err();
    assert_eq!(refused["code"], "TURN_RUNNING", "{refused}");
    assert!(started.elapsed() >= Duration::from_secs(1), "it waited for the turn to end first");
    assert_eq!(p.read("a.txt").as_deref(), Some("changed\n"));

    let ending = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        drop(turn);
    });
    p.invoke("checkpoint_restore", json!({"id": id, "paths": [], "force": false, "stopRunning": true}))
        .unwrap();
    ending.join().unwrap();
    assert_eq!(p.read("a.txt").as_deref(), Some("one\ntwo\n"));
}

#[test]
fn an_unknown_checkpoint_or_an_unusable_project_is_a_typed_error() {
    let p = Project::new();
    let unknown = p.invoke("checkpoint_changes", json!({"fromId": "nosuchcheckpoint"})).unwrap_err();
    assert_eq!(unknown["code"], "INVALID_INPUT", "{unknown}");
    assert!(unknown["message"].as_str().unwrap().contains("nosuchcheckpoint"));
    let unknown = p
        .invoke("checkpoint_restore", json!({"id": "zzzz", "paths": [], "force": false, "stopRunning": true}))
        .unwrap_err();
    assert_eq!(unknown["code"], "INVALID_INPUT");
    assert_eq!(unknown.get("paths"), None, "no paths on an error about none");

    // A project folder that holds Warden's home is never opened (sessions refuse it too).
    let mut settings = p.invoke("settings_get", json!({})).unwrap();
    settings["projectDir"] = json!(p.app.home.path().to_string_lossy());
    p.invoke("settings_set", json!({"settings": settings})).unwrap();
    let refused = p.invoke("checkpoint_list", json!({})).unwrap_err();
    assert_eq!(refused["code"], "INVALID_INPUT", "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("overlap"), "{refused}");
}

#[test]
fn a_restore_plan_names_every_file_it_would_touch_and_touches_none() {
    let p = Project::new();
    let id = p.call("t1", |p| {
        p.write("a.txt", "one\nTWO\n");
        p.write("src/b.txt", "new\n");
    });
    let plan = p.invoke("checkpoint_restore_plan", json!({"id": id, "paths": []})).unwrap();
    assert_eq!(
        paths_of(&plan["files"]),
        [("a.txt".into(), "modified".into()), ("src/b.txt".into(), "deleted".into())],
        "{plan}"
    );
    assert_eq!(plan["running"], json!([]), "nothing runs in the project");
    assert_eq!(p.read("src/b.txt").as_deref(), Some("new\n"), "a plan touches nothing");
    let one = p.invoke("checkpoint_restore_plan", json!({"id": id, "paths": ["src"]})).unwrap();
    assert_eq!(paths_of(&one["files"]), [("src/b.txt".into(), "deleted".into())]);
}

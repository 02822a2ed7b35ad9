//! Checkpoints through the agent loop: a real provider over loopback scripts file tools and a
//! `bash` call on a real project (a git repository with binary, executable, empty and secret
//! files); every change is reported on its call and taken back byte for byte by a restore, the
//! restore itself undone, and the project's `.git` never touched.

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use serde_json::json;
use warden_core::agent::TurnEnd;
use warden_core::checkpoint::CheckpointStore;
use warden_protocol::{CallChanges, ChangeStatus, ContentBlock, Message, ToolResult, ToolStatus, TrustLevel};

use super::harness::{answer, approve_all, Harness, Run, Wire};
use super::wire::{text, tool};

const CANARY: &str = "CANARY_SECRET_7f3a91";

/// Every entry under `dir` (but `.git` unless `git`), with its type, exec bit and content hash.
pub fn fingerprint(dir: &Path, git: bool) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).unwrap() {
            let entry = entry.unwrap();
            let path = entry.path();
            let relative = path.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            if !git && relative == ".git" {
                continue;
            }
            let meta = std::fs::symlink_metadata(&path).unwrap();
            let what = if meta.file_type().is_symlink() {
                format!("link -> {}", std::fs::read_link(&path).unwrap().display())
            } else if meta.is_dir() {
                stack.push(path.clone());
                "dir".to_owned()
            } else {
                let bytes = std::fs::read(&path).unwrap();
                let exec = meta.permissions().mode() & 0o111 != 0;
                format!("file exec={exec} {}", hex::encode(sha2::Sha256::digest(bytes)))
            };
            out.insert(relative, what);
        }
    }
    out
}

use sha2::Digest;

fn git(project: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(args)
        .current_dir(project)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@t")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@t")
        .status()
        .unwrap();
    assert!(status.success(), "git {args:?}");
}

/// A project as people have them: a git repository with text, binary, executable and empty
/// files, a nested folder, an ignored build output and a secret.
pub fn seed(project: &Path) {
    let w = |p: &str, bytes: &[u8]| {
        let path = project.join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    };
    w("a.txt", b"hello\nworld\n");
    w("keep/x.txt", b"hello there\n");
    w("gone.txt", b"to be removed\n");
    w("empty.txt", b"");
    w("bin.dat", &[0, 1, 2, 255, 0, 7]);
    w("run.sh", b"#!/bin/sh\necho hi\n");
    std::fs::set_permissions(project.join("run.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    w(".gitignore", b"build/\n");
    w("build/out.o", b"object");
    w(".env", format!("TOKEN={CANARY}\n").as_bytes());
    std::os::unix::fs::symlink("a.txt", project.join("link")).unwrap();
    git(project, &["init", "-q"]);
    git(project, &["add", "-A"]);
    git(project, &["commit", "-qm", "seed"]);
}

fn changes_of(result: &warden_protocol::ToolResult) -> CallChanges {
    result.report.changes.clone().expect("changes")
}

#[tokio::test]
async fn every_change_of_a_turn_is_reported_and_taken_back_byte_for_byte() {
    let wire = Wire::Anthropic;
    let bash = "sed -i 's/hello/bye/' keep/x.txt && rm gone.txt && mkdir -p made/dir && \
                mv empty.txt made/dir/moved.txt && printf '\\000\\001' > bin.dat && chmod -x run.sh && \
                chmod +x a.txt && echo new > build/new.o";
    let replies = vec![
        wire.reply(
            &[tool("c1", "file_write", json!({"path": "new/deep/nested/file.txt", "content": "nested\n"}))],
            10,
        ),
        wire.reply(
            &[tool("c2", "file_edit", json!({"path": "a.txt", "old_text": "world", "new_text": "there"}))],
            10,
        ),
        wire.reply(&[tool("c3", "bash", json!({"command": bash}))], 10),
        wire.reply(&[tool("c4", "file_read", json!({"path": "a.txt"}))], 10),
        wire.reply(&[text("done")], 10),
    ];
    let mut h = Harness::checkpointed(wire, replies, seed, |_| {}).await;
    let store = h.checkpoints.clone().unwrap();
    let root = h.project.path().to_path_buf();
    let before = fingerprint(&root, false);
    let git_before = fingerprint(&root.join(".git"), true);

    let run = h.run("change things", approve_all()).await;
    assert_eq!(run.end, TurnEnd::Completed);
    let results = run.results();
    assert!(results.iter().all(|r| r.status == ToolStatus::Success), "{results:?}");
    let after = fingerprint(&root, false);

    // Each changing call says what it changed; the read-only one carries no checkpoint.
    let write = changes_of(results[0]);
    assert_eq!(write.files.len(), 1);
    assert_eq!(
        (write.files[0].path.as_str(), write.files[0].status),
        ("new/deep/nested/file.txt", ChangeStatus::Created)
    );
    let edit = changes_of(results[1]);
    assert_eq!((edit.files[0].added, edit.files[0].removed), (Some(1), Some(1)));
    let shell = changes_of(results[2]);
    let seen: BTreeMap<&str, (ChangeStatus, bool)> =
        shell.files.iter().map(|f| (f.path.as_str(), (f.status, f.binary))).collect();
    assert_eq!(
        seen,
        BTreeMap::from([
            ("a.txt", (ChangeStatus::Modified, false)),
            ("bin.dat", (ChangeStatus::Modified, true)),
            ("empty.txt", (ChangeStatus::Deleted, false)),
            ("gone.txt", (ChangeStatus::Deleted, false)),
            ("keep/x.txt", (ChangeStatus::Modified, false)),
            ("made/dir/moved.txt", (ChangeStatus::Created, false)),
            ("run.sh", (ChangeStatus::Modified, false)),
        ]),
        "the bash call's changes (the ignored build output is not one)"
    );
    let mode = shell.files.iter().find(|f| f.path == "run.sh").unwrap();
    assert_eq!((mode.old_mode.as_deref(), mode.new_mode.as_deref()), (Some("100755"), Some("100644")));
    assert!(results[3].report.changes.is_none());

    // The checkpoints are listed with the call they precede, and the turn's end.
    let list = store.list(Some("conv-1")).unwrap();
    let tools: Vec<&str> = list.iter().filter_map(|c| c.tool_name.as_deref()).collect();
    assert_eq!(tools, ["file_write", "file_edit", "bash"]);
    assert_eq!(list[2].files_changed, 7);

    log_tells_each_calls_changes(&store, h.session.history(), &results);

    // Back to before the first call: everything as it was, the ignored output left alone.
    let first = write.checkpoint_id.clone().unwrap();
    let report = store.restore(&first, &[], false).unwrap();
    let mut expected = before.clone();
    expected.insert("build/new.o".into(), after["build/new.o"].clone());
    assert_eq!(fingerprint(&root, false), expected, "restored byte for byte");
    assert!(!root.join("new").exists() && !root.join("made").exists(), "created folders are gone");

    // The restore undone: the turn's result is back.
    store.restore(&report.undo_checkpoint_id, &[], false).unwrap();
    assert_eq!(fingerprint(&root, false), after);

    // Never the project's git, never the secret.
    assert_eq!(fingerprint(&root.join(".git"), true), git_before, "the project's .git is untouched");
    // What the session's first look borrowed from the project's git is copied in the background;
    // until then the store also reads the project's objects, secrets committed there included.
    // The store's own objects are what must hold no secret.
    store.adopt_borrowed().unwrap();
    let objects = Command::new("git")
        .args(["cat-file", "--batch-all-objects", "--batch"])
        .env("GIT_DIR", store.dir().join("git"))
        .output()
        .unwrap();
    assert!(objects.status.success());
    assert!(objects.stdout.len() > 100, "the store holds the snapshots");
    assert!(!String::from_utf8_lossy(&objects.stdout).contains(CANARY), "a secret reached the store");
    assert!(String::from_utf8_lossy(&objects.stdout).contains("nested"));
}

#[tokio::test]
async fn one_file_is_restored_alone_and_edits_from_outside_are_not_overwritten() {
    let wire = Wire::Anthropic;
    let replies = vec![
        wire.reply(&[tool("c1", "file_write", json!({"path": "a.txt", "content": "agent a\n"}))], 10),
        wire.reply(&[tool("c2", "file_write", json!({"path": "keep/x.txt", "content": "agent x\n"}))], 10),
        wire.reply(&[text("done")], 10),
    ];
    let mut h = Harness::checkpointed(wire, replies, seed, |_| {}).await;
    let store = h.checkpoints.clone().unwrap();
    let run = h.run("write", approve_all()).await;
    let first = changes_of(run.results()[0]).checkpoint_id.unwrap();

    // One path only: a.txt comes back, keep/x.txt keeps the agent's text.
    let report = store.restore(&first, &["a.txt".to_owned()], false).unwrap();
    assert_eq!(report.files.len(), 1);
    assert_eq!(std::fs::read_to_string(h.path("a.txt")).unwrap(), "hello\nworld\n");
    assert_eq!(std::fs::read_to_string(h.path("keep/x.txt")).unwrap(), "agent x\n");

    // The user edits keep/x.txt in their editor: a restore that would overwrite it refuses...
    std::fs::write(h.path("keep/x.txt"), "the user's own words\n").unwrap();
    let refused = store.restore(&first, &[], false).unwrap_err();
    let text = refused.to_string();
    assert!(text.contains("keep/x.txt") && text.contains("other than Warden"), "{text}");
    assert_eq!(std::fs::read_to_string(h.path("keep/x.txt")).unwrap(), "the user's own words\n");
    // ...and forced, does it, and can be undone to the user's words.
    let forced = store.restore(&first, &[], true).unwrap();
    assert_eq!(std::fs::read_to_string(h.path("keep/x.txt")).unwrap(), "hello there\n");
    store.restore(&forced.undo_checkpoint_id, &[], false).unwrap();
    assert_eq!(std::fs::read_to_string(h.path("keep/x.txt")).unwrap(), "the user's own words\n");
}

#[tokio::test]
async fn a_restore_waits_for_no_turn_it_refuses_while_one_runs() {
    let wire = Wire::Anthropic;
    let mut h = Harness::checkpointed(wire, vec![wire.reply(&[text("hi")], 10)], seed, |_| {}).await;
    let store = h.checkpoints.clone().unwrap();
    let taken = store.manual().unwrap();
    let guard = store.turn_guard().unwrap();
    let refused = store.restore(&taken.id, &[], false).unwrap_err();
    assert!(refused.to_string().contains("turn is running"), "{refused}");
    drop(guard);
    store.restore(&taken.id, &[], false).unwrap();
    let run = h.run("hello", approve_all()).await;
    assert_eq!(run.end, TurnEnd::Completed);
}

/// A store that cannot take the checkpoint before a call: the call would not be undoable, so it
/// asks — even in Autonomous, where nothing else asks — runs only on a yes, and says so.
async fn without_a_checkpoint(answer_yes: bool) -> (Run, Harness) {
    let wire = Wire::Anthropic;
    let replies = vec![
        wire.reply(&[tool("c1", "file_write", json!({"path": "a.txt", "content": "written\n"}))], 10),
        wire.reply(&[text("done")], 10),
    ];
    let mut h = Harness::checkpointed(wire, replies, seed, |c| c.trust = TrustLevel::Autonomous).await;
    let store = h.checkpoints.clone().unwrap();
    // The store's repository becomes a file: every git of the store fails, as on a full disk.
    std::fs::remove_dir_all(store.dir().join("git")).unwrap();
    std::fs::write(store.dir().join("git"), "not a repository").unwrap();
    let run = h.run("write", Box::new(move |c| vec![answer(&c.confirm_id, answer_yes)])).await;
    assert_eq!(run.end, TurnEnd::Completed);
    let confirms = run.confirms();
    assert_eq!(confirms.len(), 1, "asked once, in Autonomous: {:?}", run.names());
    let reason = confirms[0].reason.as_deref().unwrap_or_default();
    assert!(reason.starts_with("No checkpoint could be taken before this call"), "{reason}");
    (run, h)
}

/// One call, two questions: the policy asks about a write (Guided), then the missing checkpoint
/// asks again. Each confirmation has its own confirmId (the call's id is the same for both), and
/// each answer releases only its own question.
#[tokio::test]
async fn a_call_asked_twice_gets_two_confirm_ids() {
    let wire = Wire::Anthropic;
    let replies = vec![
        wire.reply(&[tool("c1", "file_write", json!({"path": "a.txt", "content": "written\n"}))], 10),
        wire.reply(&[text("done")], 10),
    ];
    let mut h = Harness::checkpointed(wire, replies, seed, |c| c.trust = TrustLevel::Guided).await;
    let store = h.checkpoints.clone().unwrap();
    std::fs::remove_dir_all(store.dir().join("git")).unwrap();
    std::fs::write(store.dir().join("git"), "not a repository").unwrap();
    let session = h.session.clone();
    let mut answered: Vec<String> = Vec::new();
    let run = h
        .run(
            "write",
            Box::new(move |c| {
                for earlier in &answered {
                    assert!(
                        session.approve(answer(earlier, true)).is_err(),
                        "an earlier answer released {c:?}"
                    );
                }
                answered.push(c.confirm_id.clone());
                vec![answer(&c.confirm_id, true)]
            }),
        )
        .await;
    let confirms = run.confirms();
    assert_eq!(confirms.len(), 2, "{:?}", run.names());
    assert_eq!((confirms[0].tool_id.as_str(), confirms[1].tool_id.as_str()), ("c1", "c1"));
    assert_ne!(confirms[0].confirm_id, confirms[1].confirm_id);
    assert!(confirms[1].reason.as_deref().unwrap_or_default().starts_with("No checkpoint could be taken"));
    assert_eq!(std::fs::read_to_string(h.path("a.txt")).unwrap(), "written\n");
}

#[tokio::test]
async fn a_call_without_a_checkpoint_asks_first_and_runs_on_a_yes_saying_so() {
    let (run, h) = without_a_checkpoint(true).await;
    let result = run.results()[0];
    assert_eq!(result.status, ToolStatus::Success);
    assert_eq!(std::fs::read_to_string(h.path("a.txt")).unwrap(), "written\n");
    let changes = changes_of(result);
    assert_eq!(changes.checkpoint_id, None);
    let error = changes.error.unwrap();
    assert!(error.starts_with("No checkpoint for this change"), "{error}");
}

#[tokio::test]
async fn a_call_without_a_checkpoint_does_not_run_on_a_no() {
    let (run, h) = without_a_checkpoint(false).await;
    assert_eq!(run.results()[0].status, ToolStatus::Error);
    let now = std::fs::read_to_string(h.path("a.txt")).unwrap_or_default();
    assert_ne!(now, "written\n", "written without a checkpoint and against the user's no");
}

/// A conversation saved before results kept their report: the log tells each call's changes as
/// its live result did, and the engine fills them in (`Engine::with_call_changes`).
fn log_tells_each_calls_changes(store: &CheckpointStore, mut saved: Vec<Message>, results: &[&ToolResult]) {
    for block in saved.iter_mut().flat_map(|m| m.content.iter_mut()) {
        if let ContentBlock::ToolResult(result) = block {
            result.report = None;
        }
    }
    let wanted = warden_core::checkpoint::results_without_changes(&saved);
    assert_eq!(wanted.len(), 4, "every result lacks its changes: {wanted:?}");
    let known = store.call_changes("conv-1", &wanted).unwrap();
    assert_eq!(known.keys().collect::<Vec<_>>(), ["c1", "c2", "c3"], "the read-only call had no checkpoint");
    assert_eq!(store.call_changes("another-conversation", &wanted).unwrap().len(), 0);
    warden_core::checkpoint::fill_call_changes(&mut saved, &known);
    let filled: Vec<Option<CallChanges>> = saved
        .iter()
        .flat_map(|m| &m.content)
        .filter_map(|b| match b {
            ContentBlock::ToolResult(r) => Some(r.report.as_ref().and_then(|r| r.changes.clone())),
            _ => None,
        })
        .collect();
    let live: Vec<Option<CallChanges>> = results.iter().map(|r| r.report.changes.clone()).collect();
    assert_eq!(filled, live, "the log says what the live results said");
}

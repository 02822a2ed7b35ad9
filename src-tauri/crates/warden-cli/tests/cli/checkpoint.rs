//! `warden checkpoint`: the JSON contract of list / diff / restore, exit 0 / 1 / 2, `warden tool`
//! calls checkpointed like the loop's, and a store that survives a Warden killed mid-snapshot.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::process::{command, Dirs};

async fn run(dirs: &Dirs, args: &[&str]) -> (i32, Value, String) {
    let mut cmd = command(dirs, args);
    cmd.stdin(std::process::Stdio::null());
    let output = cmd.output().await.unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let value = serde_json::from_str(stdout.trim()).unwrap_or(Value::Null);
    (output.status.code().unwrap_or(-1), value, String::from_utf8_lossy(&output.stderr).into_owned())
}

fn read(dirs: &Dirs, path: &str) -> String {
    std::fs::read_to_string(dirs.path(path)).unwrap()
}

#[tokio::test]
async fn tool_calls_are_listed_diffed_and_restored_from_the_command_line() {
    let dirs = Dirs::new();
    std::fs::write(dirs.path("a.txt"), "one\n").unwrap();
    let write = r#"{"path": "a.txt", "content": "two\n"}"#;
    let (code, out, stderr) =
        run(&dirs, &["tool", "file_write", write, "--allow", "all", "--approve", "all", "--json"]).await;
    assert_eq!(code, 0, "{stderr}");
    let id =
        out["report"]["changes"]["checkpointId"].as_str().expect("warden tool is checkpointed").to_owned();
    assert_eq!(out["report"]["changes"]["files"][0]["path"], "a.txt");

    // list --json: an array, oldest first, of the contract's objects.
    let (code, list, _) = run(&dirs, &["checkpoint", "list", "--json"]).await;
    assert_eq!(code, 0);
    let list = list.as_array().expect("an array");
    let first = &list[0];
    assert_eq!(first["id"], id.as_str());
    assert_eq!((first["toolName"].as_str(), first["filesChanged"].as_u64()), (Some("file_write"), Some(1)));
    assert!(first["toolId"].as_str().is_some_and(|t| t.starts_with("cli-")));
    assert!(first["conversationId"].is_string());
    let created = first["createdAt"].as_str().unwrap();
    assert!(chrono::DateTime::parse_from_rfc3339(created).is_ok(), "RFC 3339: {created}");
    let times: Vec<&str> = list.iter().map(|c| c["createdAt"].as_str().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "oldest first: {times:?}");

    // diff --json: the files and the patch between the checkpoint and now.
    let (code, diff, _) = run(&dirs, &["checkpoint", "diff", &id, "--json"]).await;
    assert_eq!(code, 0);
    assert_eq!(diff["files"][0]["status"], "modified");
    assert_eq!(
        (diff["files"][0]["added"].as_u64(), diff["files"][0]["removed"].as_u64()),
        (Some(1), Some(1))
    );
    let patch = diff["patch"].as_str().unwrap();
    assert!(patch.contains("-one") && patch.contains("+two"), "{patch}");

    // An edit from outside Warden: refused (exit 1, and which file), untouched.
    std::fs::write(dirs.path("a.txt"), "three\n").unwrap();
    let (code, refused, stderr) = run(&dirs, &["checkpoint", "restore", &id, "--json"]).await;
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(refused["paths"][0], "a.txt");
    assert!(stderr.contains("--force"), "{stderr}");
    assert_eq!(read(&dirs, "a.txt"), "three\n");

    // Forced: back to before the write; and that restore undone.
    let (code, report, stderr) = run(&dirs, &["checkpoint", "restore", &id, "--force", "--json"]).await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(read(&dirs, "a.txt"), "one\n");
    let undo = report["undoCheckpointId"].as_str().unwrap();
    let (code, _, stderr) = run(&dirs, &["checkpoint", "restore", undo, "--json"]).await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(read(&dirs, "a.txt"), "three\n");

    // Usage: no such checkpoint, no id at all.
    let (code, _, stderr) = run(&dirs, &["checkpoint", "restore", "ffffffffffff"]).await;
    assert_eq!(code, 2, "{stderr}");
    let (code, _, _) = run(&dirs, &["checkpoint", "restore"]).await;
    assert_eq!(code, 2);
}

/// Enough files that the first snapshot takes a while.
fn many_files(root: &Path) {
    for d in 0..40 {
        let dir = root.join(format!("d{d}"));
        std::fs::create_dir_all(&dir).unwrap();
        for f in 0..100 {
            let body: Vec<u8> =
                (0..4096u32).map(|i| (i.wrapping_mul(2_654_435_761) >> (f % 24)) as u8 ^ d).collect();
            std::fs::write(dir.join(format!("f{f}.bin")), body).unwrap();
        }
    }
}

/// Whether a store has begun storing the snapshot's objects.
fn storing(home: &Path) -> bool {
    let Ok(stores) = std::fs::read_dir(home.join("checkpoints")) else { return false };
    stores.filter_map(Result::ok).any(|store| {
        std::fs::read_dir(store.path().join("git/objects")).is_ok_and(|dirs| {
            dirs.filter_map(Result::ok).any(|d| {
                d.file_name().len() == 2 && std::fs::read_dir(d.path()).is_ok_and(|mut o| o.next().is_some())
            })
        })
    })
}

/// Start `warden checkpoint create` and kill it (alone, or with whatever it started) while it is
/// storing the snapshot.
async fn killed_mid_snapshot(dirs: &Dirs, whole_group: bool) {
    let mut cmd = command(dirs, &["checkpoint", "create"]);
    cmd.stdin(std::process::Stdio::null()).process_group(0);
    let mut child = cmd.spawn().unwrap();
    let pid = i32::try_from(child.id().unwrap()).unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !storing(dirs.home.path()) {
        assert!(Instant::now() < deadline, "the snapshot was never stored");
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let target = if whole_group { -pid } else { pid };
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(target), nix::sys::signal::Signal::SIGKILL).unwrap();
    let status = child.wait().await.unwrap();
    assert_eq!(status.code(), None, "killed mid-snapshot, not finished");
}

#[tokio::test]
async fn a_warden_killed_mid_snapshot_leaves_the_store_usable() {
    for whole_group in [false, true] {
        let dirs = Dirs::new();
        many_files(dirs.project.path());
        killed_mid_snapshot(&dirs, whole_group).await;
        // The next Warden takes its snapshot (waiting for anything of the killed one still running)…
        let (code, taken, stderr) = run(&dirs, &["checkpoint", "create", "--json"]).await;
        assert_eq!(code, 0, "whole group {whole_group}: {stderr}");
        let id = taken["id"].as_str().unwrap().to_owned();
        // …and it restores (these edits come from outside Warden: forced).
        std::fs::write(dirs.path("d3/f7.bin"), b"changed").unwrap();
        std::fs::remove_file(dirs.path("d9/f1.bin")).unwrap();
        let (code, report, stderr) = run(&dirs, &["checkpoint", "restore", &id, "--force", "--json"]).await;
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(report["files"].as_array().unwrap().len(), 2);
        assert_eq!(std::fs::read(dirs.path("d3/f7.bin")).unwrap().len(), 4096);
        assert!(dirs.path("d9/f1.bin").exists());
    }
}

/// A session of the project open in another Warden (here `warden exec`, waiting for an answer):
/// a restore from the command line is refused, naming it, and goes through once it has ended.
#[tokio::test]
async fn a_restore_is_refused_while_a_session_of_the_project_runs_in_another_warden() {
    use serde_json::json;
    use warden_testkit::scripted::{anthropic, text, tool};
    use warden_testkit::server::{Reply, Split, TestServer};

    use super::process::{exec_args, Warden};

    let dirs = Dirs::new();
    std::fs::write(dirs.path("a.txt"), "one\n").unwrap();
    let (code, taken, stderr) = run(&dirs, &["checkpoint", "create", "--json"]).await;
    assert_eq!(code, 0, "{stderr}");
    let id = taken["id"].as_str().unwrap().to_owned();
    std::fs::write(dirs.path("a.txt"), "two\n").unwrap();
    let answer = |parts: &[warden_testkit::scripted::Part]| Reply::sse(anthropic(parts, 10), Split::Whole);
    let server = TestServer::start(vec![
        answer(&[tool("toolu_1", "file_write", json!({"path": "b.txt", "content": "b"}))]),
        answer(&[text("Fine.")]),
    ])
    .await;
    let mut exec = Warden::spawn(command(&dirs, &exec_args(&server, &["--allow", "all", "write b"])));
    let confirm = exec.until("chat:tool-confirm").await;
    let pid = exec.child.id().unwrap();

    let (code, _, stderr) = run(&dirs, &["checkpoint", "restore", &id, "--force", "--json"]).await;
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains(&format!("process {pid}")) && stderr.contains("open in this project"),
        "{stderr}"
    );
    assert_eq!(read(&dirs, "a.txt"), "two\n", "nothing restored");

    exec.send_line(&json!({"confirmId": confirm["payload"]["confirmId"], "approved": false}).to_string())
        .await;
    let (code, _, stderr) = exec.finish().await;
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = run(&dirs, &["checkpoint", "restore", &id, "--force", "--json"]).await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(read(&dirs, "a.txt"), "one\n");
}

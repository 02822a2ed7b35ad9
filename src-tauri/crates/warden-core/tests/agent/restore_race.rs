//! A restore from the window while the session's own background command races it. The window
//! stops the session's background commands first (after asking), but the restore must be safe
//! without that step: with it switched off the racer strikes, and still nothing is written
//! outside the project; with it on, the racer is gone and every file comes back.
#![cfg(target_os = "linux")]

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;
use warden_core::agent::TurnEnd;
use warden_core::checkpoint::Origin;

use super::harness::{approve_all, Harness, Wire};
use super::wire::{text, tool};

/// A background command of the session (in its box): armed on the first entry made in `d`, it
/// swaps `d` for the link `dlink` to a folder outside the project.
const RACER: &str = r#"python3 - <<'PY'
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
fd = libc.inotify_init1(0)
libc.inotify_add_watch(fd, b"d", 0x100 | 0x80)
open(".armed", "w").close()
os.read(fd, 4096)
libc.renameat2(-100, b"d", -100, b"dlink", 2)
open(".struck", "w").close()
PY"#;

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

async fn wait_for(path: &Path, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !path.exists() {
        assert!(Instant::now() < deadline, "{what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn race(stop_first: bool) {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("authorized_keys"), "the user's key\n").unwrap();
    let target = outside.path().to_path_buf();
    let wire = Wire::Anthropic;
    let replies = vec![
        wire.reply(&[tool("c1", "bash", json!({"command": RACER, "background": true}))], 10),
        wire.reply(&[text("started")], 10),
    ];
    let prepare = move |root: &Path| {
        std::fs::create_dir_all(root.join("d")).unwrap();
        std::fs::write(root.join("d/0000keep"), "kept\n").unwrap();
        std::os::unix::fs::symlink(&target, root.join("dlink")).unwrap();
    };
    let mut h = Harness::checkpointed(wire, replies, prepare, |_| {}).await;
    let store = h.checkpoints.clone().unwrap();
    for i in 1..=200 {
        std::fs::write(h.path(&format!("d/{i:04}")), format!("file {i}\n")).unwrap();
    }
    std::fs::write(h.path("d/authorized_keys"), "the attacker's key\n").unwrap();
    let full = store.checkpoint(&Origin::default()).unwrap().id;
    for i in 1..=200 {
        std::fs::remove_file(h.path(&format!("d/{i:04}"))).unwrap();
    }
    std::fs::remove_file(h.path("d/authorized_keys")).unwrap();
    store.checkpoint(&Origin::default()).unwrap();

    let run = h.run("start the dev server", approve_all()).await;
    assert_eq!(run.end, TurnEnd::Completed);
    wait_for(&h.path(".armed"), "the racer never started in the box").await;
    assert_eq!(h.session.background_commands().len(), 1);

    if stop_first {
        // What the window does after the user agreed: the session's background commands stop.
        assert_eq!(h.session.stop_background_commands(), 1);
        assert!(h.session.background_commands().is_empty());
    }
    // The racer's marker changed the project outside Warden: the restore is forced.
    let restored = store.restore(&full, &[], true);
    if stop_first {
        let report = restored.unwrap_or_else(|e| panic!("with the racer stopped: {e}"));
        // 201 files back, and the racer's marker (made after the checkpoint) gone.
        assert_eq!(report.files.len(), 202, "every file back");
        assert!(!h.path("d").is_symlink() && h.path("d/0200").is_file());
        assert!(!h.path(".struck").exists(), "a stopped racer struck");
    } else {
        wait_for(&h.path(".struck"), "the racer never struck").await;
        assert!(h.path("d").is_symlink(), "the folder was not swapped");
    }
    assert_eq!(
        files_in(outside.path()),
        ["authorized_keys"],
        "written behind the link (stopped first: {stop_first})"
    );
    assert_eq!(std::fs::read_to_string(outside.path().join("authorized_keys")).unwrap(), "the user's key\n");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_restore_is_safe_against_the_sessions_own_background_command_without_stopping_it() {
    race(false).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_restore_that_stops_the_sessions_background_commands_first_puts_every_file_back() {
    race(true).await;
}

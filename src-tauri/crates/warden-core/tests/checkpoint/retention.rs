//! The retention policy: checkpoints past 30 days go, with the snapshots only they kept; the
//! newest always stays.

use std::process::Command;
use warden_core::checkpoint::{CheckpointStore, Origin};

fn has_object(store: &CheckpointStore, text: &str) -> bool {
    let out = Command::new("git")
        .args(["cat-file", "--batch-all-objects", "--batch"])
        .env("GIT_DIR", store.dir().join("git"))
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout).contains(text)
}

/// Make the first `count` records 40 days old.
fn age_first(store: &CheckpointStore, count: usize) {
    let log = store.dir().join("checkpoints.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    let old = (chrono::Utc::now() - chrono::Duration::days(40))
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    let lines: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, line)| {
            let mut record: serde_json::Value = serde_json::from_str(line).unwrap();
            if i < count {
                record["createdAt"] = old.clone().into();
            }
            record.to_string()
        })
        .collect();
    std::fs::write(&log, lines.join("\n") + "\n").unwrap();
}

fn packs(store: &CheckpointStore) -> usize {
    std::fs::read_dir(store.dir().join("git/objects/pack"))
        .map(|entries| {
            entries.flatten().filter(|e| e.file_name().to_string_lossy().ends_with(".pack")).count()
        })
        .unwrap_or(0)
}

#[test]
fn checkpoints_past_the_retention_period_go_with_what_only_they_kept() {
    let (project, _home, store) = super::temp_store();
    let origin = Origin::default();
    for text in ["first version OLD-ONE", "second version OLD-TWO", "third version NEW-THREE"] {
        std::fs::write(project.path().join("a.txt"), text).unwrap();
        store.checkpoint(&origin).unwrap();
    }
    assert!(has_object(&store, "OLD-ONE"));
    // The first two were taken 40 days ago.
    age_first(&store, 2);

    store.housekeeping().unwrap();
    let left = store.list(None).unwrap();
    assert_eq!(left.len(), 1, "{left:?}");
    assert!(!has_object(&store, "OLD-ONE") && !has_object(&store, "OLD-TWO"), "their snapshots are gone");
    assert!(has_object(&store, "NEW-THREE"));
    // What is kept still restores.
    std::fs::write(project.path().join("a.txt"), "later").unwrap();
    store.restore(&left[0].id, &[], true).unwrap();
    assert_eq!(std::fs::read_to_string(project.path().join("a.txt")).unwrap(), "third version NEW-THREE");
}

/// A first snapshot of many files is stored as a pack, not a file per object; when its checkpoint
/// goes, so do the objects only it kept, out of the pack.
#[test]
fn a_packed_snapshot_past_the_retention_period_goes_too() {
    let (project, _home, store) = super::temp_store();
    let origin = Origin::default();
    for n in 0..200 {
        std::fs::write(project.path().join(format!("f{n}.txt")), format!("OLD-PACKED-{n}")).unwrap();
    }
    store.checkpoint(&origin).unwrap();
    assert!(packs(&store) >= 1, "a first snapshot of 200 files is packed");
    let loose = std::fs::read_dir(store.dir().join("git/objects"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().len() == 2)
        .count();
    assert!(loose <= 2, "{loose} fan-out folders: the blobs were written loose");
    assert!(has_object(&store, "OLD-PACKED-7"));
    for n in 0..200 {
        std::fs::write(project.path().join(format!("f{n}.txt")), format!("NEW-{n}")).unwrap();
    }
    store.checkpoint(&origin).unwrap();
    age_first(&store, 1);

    store.housekeeping().unwrap();
    assert_eq!(store.list(None).unwrap().len(), 1);
    assert!(!has_object(&store, "OLD-PACKED-7"), "the dropped snapshot's packed blobs are gone");
    assert!(has_object(&store, "NEW-7"));
    let status = Command::new("git")
        .args(["fsck", "--strict", "--no-dangling"])
        .env("GIT_DIR", store.dir().join("git"))
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::write(project.path().join("f7.txt"), "later").unwrap();
    let newest = store.list(None).unwrap()[0].id.clone();
    store.restore(&newest, &[], true).unwrap();
    assert_eq!(std::fs::read_to_string(project.path().join("f7.txt")).unwrap(), "NEW-7");
}

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
    let log = store.dir().join("checkpoints.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    let old = (chrono::Utc::now() - chrono::Duration::days(40))
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    let lines: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, line)| {
            let mut record: serde_json::Value = serde_json::from_str(line).unwrap();
            if i < 2 {
                record["createdAt"] = old.clone().into();
            }
            record.to_string()
        })
        .collect();
    std::fs::write(&log, lines.join("\n") + "\n").unwrap();

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

//! The user's stop of a long look at the project's files: the scan running ends without a
//! snapshot, and no checkpoint is taken in the store afterwards (each says why).

use warden_core::checkpoint::{CheckpointError, Origin};

#[test]
fn a_stopped_look_ends_without_a_snapshot_and_checkpoints_stay_off() {
    let (project, _home, store) = super::temp_store();
    for n in 0..20_000 {
        let dir = project.path().join(format!("d{}", n % 100));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("f{n}")), format!("{n}\n")).unwrap();
    }
    let store = std::sync::Arc::new(store);
    assert_eq!(store.scanning(), None);
    let taking = {
        let store = store.clone();
        std::thread::spawn(move || store.checkpoint(&Origin::default()))
    };
    // Stopped as soon as the look is seen running, a few files in.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while store.scanning().is_none_or(|files| files == 0) {
        assert!(std::time::Instant::now() < deadline, "the look never started");
        std::thread::yield_now();
    }
    store.stop_scanning();
    let taken = taking.join().unwrap();
    assert!(matches!(taken, Err(CheckpointError::Stopped)), "{taken:?}");
    assert_eq!(store.scanning(), None);
    assert!(store.list(None).unwrap().is_empty(), "a checkpoint was recorded");

    let again = store.checkpoint(&Origin::default());
    let said = again.map(|_| ()).unwrap_err().to_string();
    assert!(said.contains("you stopped Warden's look at the project's files"), "{said}");
    assert!(store.scanning_stopped());
}

//! The diff of one file names that file only, whatever characters its name holds.

use warden_core::checkpoint::Origin;

#[test]
fn the_diff_of_one_file_takes_its_name_literally() {
    let (project, _home, store) = super::temp_store();
    for name in ["a*.txt", "ab.txt", "a[b].txt"] {
        std::fs::write(project.path().join(name), "before\n").unwrap();
    }
    let first = store.checkpoint(&Origin::default()).unwrap();
    for name in ["a*.txt", "ab.txt", "a[b].txt"] {
        std::fs::write(project.path().join(name), "after\n").unwrap();
    }
    let patch = store.patch(&first.id, None, Some("a*.txt")).unwrap();
    assert!(patch.contains("a/a*.txt"), "{patch}");
    assert!(!patch.contains("ab.txt") && !patch.contains("a[b].txt"), "a name is not a pattern: {patch}");
    assert_eq!(store.changes(&first.id, None).unwrap().len(), 3);
}

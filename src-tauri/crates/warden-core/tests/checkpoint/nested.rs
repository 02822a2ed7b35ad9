//! Git repositories inside the project (a vendored repository, a submodule's checkout, packages'
//! own clones under an ignored `node_modules`): their work trees are snapshotted as files like
//! any other, their `.git` never (a folder or a file), and an ignored tree is not walked at all.

use std::process::Command;

use warden_core::checkpoint::Origin;

fn git(dir: &std::path::Path, args: &[&str]) {
    let status = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@t"])
        .args(args)
        .current_dir(dir)
        .status()
        .unwrap();
    assert!(status.success(), "git {args:?}");
}

fn write(path: &std::path::Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn nested_repositories_are_files_without_their_git_and_ignored_trees_are_not_walked() {
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let root = project.path();
    git(root, &["init", "-q"]);
    write(&root.join(".gitignore"), "node_modules/\n");
    // A vendored repository with a commit and an untracked file.
    write(&root.join("vendor/lib/a.rs"), "pub fn a() {}\n");
    git(&root.join("vendor/lib"), &["init", "-q"]);
    git(&root.join("vendor/lib"), &["add", "-A"]);
    git(&root.join("vendor/lib"), &["commit", "-q", "-m", "vendored"]);
    write(&root.join("vendor/lib/untracked.txt"), "mine\n");
    // A submodule's checkout: its `.git` is a file naming the real one.
    write(&root.join("sub/x.rs"), "fn x() {}\n");
    write(&root.join("sub/.git"), "gitdir: ../.git/modules/sub\n");
    // A package's own clone in an ignored tree, with a file over the size cap: were the tree
    // walked, the file would be named as skipped.
    write(&root.join("node_modules/pkg/index.js"), &"x".repeat(4096));
    git(&root.join("node_modules/pkg"), &["init", "-q"]);

    let store = super::open_store(root, home.path(), "store").with_size_cap(1024);
    store.checkpoint(&Origin::default()).unwrap();
    let tree = {
        let log = std::fs::read_to_string(store.dir().join("checkpoints.jsonl")).unwrap();
        let last: serde_json::Value = serde_json::from_str(log.lines().last().unwrap()).unwrap();
        last["tree"].as_str().unwrap().to_owned()
    };
    let listed = Command::new("git")
        .args(["ls-tree", "-r", "--name-only", &tree])
        .env("GIT_DIR", store.dir().join("git"))
        .output()
        .unwrap();
    let files: Vec<String> = String::from_utf8_lossy(&listed.stdout).lines().map(str::to_owned).collect();
    assert_eq!(files, [".gitignore", "sub/x.rs", "vendor/lib/a.rs", "vendor/lib/untracked.txt"]);
    let info = store.list(None).unwrap();
    let last = info.last().unwrap();
    assert!(last.skipped.is_empty() && last.left_out.is_empty(), "{:?} {:?}", last.skipped, last.left_out);

    // A nested repository's file is restored like any other; its git is left alone.
    let head = std::fs::read(root.join("vendor/lib/.git/HEAD")).unwrap();
    let before = store.list(None).unwrap().last().unwrap().id.clone();
    std::fs::write(root.join("vendor/lib/a.rs"), "changed\n").unwrap();
    store.checkpoint(&Origin::default()).unwrap();
    store.restore(&before, &[], false).unwrap();
    assert_eq!(std::fs::read_to_string(root.join("vendor/lib/a.rs")).unwrap(), "pub fn a() {}\n");
    assert_eq!(std::fs::read(root.join("vendor/lib/.git/HEAD")).unwrap(), head);
}

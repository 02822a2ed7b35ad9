//! The reader against indexes real git writes: every version, the flags it must not trust, the
//! stat data that says a file changed, and indexes it must not use at all.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use super::*;

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@t", "-c", "core.fsmonitor=false"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("git: {e}"));
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

const FILES: [&str; 5] = ["a.txt", "src/lib.rs", "src/deep/er/z.md", "empty", "run.sh"];

/// A repository with files in folders (one empty, one executable), all added, the index written
/// a moment after the files so that none is racy.
fn repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    git(dir.path(), &["init", "-q"]);
    for (path, text) in FILES.iter().zip(["alpha\n", "fn x() {}\n", "z\n", "", "#!/bin/sh\n"]) {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap_or(dir.path())).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(path, text).unwrap_or_else(|e| panic!("{e}"));
        // File times tick coarsely (a few milliseconds): each file gets its own.
        std::thread::sleep(std::time::Duration::from_millis(15));
    }
    let script = dir.path().join("run.sh");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))
        .unwrap_or_else(|e| panic!("{e}"));
    std::thread::sleep(std::time::Duration::from_millis(20));
    git(dir.path(), &["add", "-A"]);
    dir
}

fn root(dir: &Path) -> Dir {
    Dir::open_ambient_dir(dir, cap_std::ambient_authority()).unwrap_or_else(|e| panic!("{e}"))
}

/// What the index vouches for `path` by the file's stat data now.
fn vouched(index: &ProjectIndex, dir: &Path, path: &str) -> Option<String> {
    let meta = root(dir).symlink_metadata(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let executable = cap_std::fs::PermissionsExt::mode(&meta.permissions()) & 0o100 != 0;
    index.known(path.as_bytes(), &IndexStat::of(&meta), executable)
}

#[test]
fn every_index_version_gives_git_s_own_ids() {
    let dir = repository();
    for version in ["2", "3", "4"] {
        git(dir.path(), &["update-index", "--index-version", version]);
        let index = ProjectIndex::read(&root(dir.path())).unwrap_or_else(|| panic!("version {version} read"));
        assert_eq!(index.len(), FILES.len(), "version {version}");
        for path in FILES {
            let theirs = git(dir.path(), &["rev-parse", &format!(":{path}")]);
            assert_eq!(vouched(&index, dir.path(), path), Some(theirs), "{path} in version {version}");
        }
    }
    // Written without its checksum (`index.skipHash`, which `feature.manyFiles` turns on).
    std::fs::write(dir.path().join("a.txt"), "alpha, again\n").unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.path().join("a.txt"), "alpha\n").unwrap_or_else(|e| panic!("{e}"));
    std::thread::sleep(std::time::Duration::from_millis(20));
    git(dir.path(), &["-c", "index.skipHash=true", "add", "-A"]);
    let bytes = std::fs::read(dir.path().join(".git/index")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(bytes[bytes.len() - 20..], [0u8; 20], "git wrote a checksum after all");
    let index =
        ProjectIndex::read(&root(dir.path())).unwrap_or_else(|| panic!("an index without checksum read"));
    assert_eq!(vouched(&index, dir.path(), "a.txt"), Some(git(dir.path(), &["rev-parse", ":a.txt"])));
    // An intent-to-add entry (which makes git write extended flags) has no content to vouch for.
    std::fs::write(dir.path().join("new.txt"), "new\n").unwrap_or_else(|e| panic!("{e}"));
    git(dir.path(), &["add", "-N", "new.txt"]);
    let index = ProjectIndex::read(&root(dir.path())).unwrap_or_else(|| panic!("read"));
    assert_eq!(vouched(&index, dir.path(), "new.txt"), None);
    assert!(vouched(&index, dir.path(), "a.txt").is_some());
}

#[test]
fn a_changed_file_or_a_racily_clean_entry_is_not_vouched_for() {
    let dir = repository();
    // The same size, another content: the times say it changed.
    std::fs::write(dir.path().join("a.txt"), "ALPHA\n").unwrap_or_else(|e| panic!("{e}"));
    // The index stamped with the very time a file was last changed: that file's entry may predate
    // a change made in the same instant (git's racily clean case), so it is not trusted.
    let status = Command::new("touch")
        .args(["-r", "src/deep/er/z.md", ".git/index"])
        .current_dir(dir.path())
        .status()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(status.success());
    let index = ProjectIndex::read(&root(dir.path())).unwrap_or_else(|| panic!("read"));
    assert_eq!(vouched(&index, dir.path(), "a.txt"), None);
    assert_eq!(vouched(&index, dir.path(), "src/deep/er/z.md"), None);
    // Written before that: still vouched for.
    assert!(vouched(&index, dir.path(), "src/lib.rs").is_some());
    // The executable bit is part of what must agree.
    let script = dir.path().join("run.sh");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o644))
        .unwrap_or_else(|e| panic!("{e}"));
    let meta = root(dir.path()).symlink_metadata("run.sh").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(index.known(b"run.sh", &IndexStat::of(&meta), true), None);
}

#[test]
fn entries_git_itself_does_not_check_are_not_trusted() {
    let dir = repository();
    git(dir.path(), &["update-index", "--assume-unchanged", "a.txt"]);
    git(dir.path(), &["update-index", "--skip-worktree", "src/lib.rs"]);
    let index = ProjectIndex::read(&root(dir.path())).unwrap_or_else(|| panic!("read"));
    assert_eq!(vouched(&index, dir.path(), "a.txt"), None);
    assert_eq!(vouched(&index, dir.path(), "src/lib.rs"), None);
    assert!(vouched(&index, dir.path(), "empty").is_some());
}

#[test]
fn an_index_that_is_not_whole_or_not_git_s_is_not_used() {
    let dir = repository();
    let path = dir.path().join(".git/index");
    let whole = std::fs::read(&path).unwrap_or_else(|e| panic!("{e}"));
    // One byte changed: the checksum says so.
    let mut torn = whole.clone();
    torn[40] ^= 1;
    std::fs::write(&path, &torn).unwrap_or_else(|e| panic!("{e}"));
    assert!(ProjectIndex::read(&root(dir.path())).is_none());
    std::fs::write(&path, &whole).unwrap_or_else(|e| panic!("{e}"));
    assert!(ProjectIndex::read(&root(dir.path())).is_some());
    // A split index lists only what changed since its shared part.
    git(dir.path(), &["update-index", "--split-index"]);
    assert!(ProjectIndex::read(&root(dir.path())).is_none());
    git(dir.path(), &["update-index", "--no-split-index"]);
    assert!(ProjectIndex::read(&root(dir.path())).is_some());
    // A `.git` that is a link is not followed.
    let elsewhere = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    std::fs::rename(dir.path().join(".git"), elsewhere.path().join("git")).unwrap_or_else(|e| panic!("{e}"));
    std::os::unix::fs::symlink(elsewhere.path().join("git"), dir.path().join(".git"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(ProjectIndex::read(&root(dir.path())).is_none());
}

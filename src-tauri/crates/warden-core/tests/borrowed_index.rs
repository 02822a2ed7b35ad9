//! A first snapshot that takes blob ids from the project's own git index: the same trees as
//! reading every file, the project's `.git` never written, a checkpoint that stands alone once
//! its borrowed blobs are copied (the project's git may prune them), and no trust in an index a
//! boxed command could have written or whose entries are racily clean.
//!
//! Its own test binary: which projects a command ran in is known per process, and other tests
//! start commands without a box.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use sha1::{Digest, Sha1};
use warden_core::checkpoint::CheckpointStore;
use warden_core::containment::BoxPolicy;
use warden_core::sandbox::Workspace;
use warden_core::scope::Scope;

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@t", "-c", "core.fsmonitor=false", "-c", "gc.auto=0"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A project folder (canonical) and a home for Warden's stores.
struct Project {
    dir: tempfile::TempDir,
    home: tempfile::TempDir,
}

impl Project {
    /// A project whose `.git/index` lies about `f` ([`lying_index`]).
    fn lied_to() -> (Self, PathBuf) {
        let project = Self::new();
        let root = project.root();
        std::fs::write(root.join(".git/index"), lying_index(&root)).unwrap();
        // Written clearly after `f` changed: with a file system's coarse clock both could carry
        // the same time, the racily clean case, which only the second half of the test is about.
        let changed = std::fs::metadata(root.join("f")).unwrap().modified().unwrap();
        let index = std::fs::File::options().write(true).open(root.join(".git/index")).unwrap();
        index.set_modified(changed + std::time::Duration::from_secs(2)).unwrap();
        (project, root)
    }

    fn new() -> Self {
        let project = Self { dir: tempfile::tempdir().unwrap(), home: tempfile::tempdir().unwrap() };
        git(&project.root(), &["init", "-q"]);
        project
    }

    fn root(&self) -> PathBuf {
        self.dir.path().canonicalize().unwrap()
    }

    fn store(&self, name: &str) -> CheckpointStore {
        let storage = self.home.path().join("storage");
        let workspace = Workspace::new(self.root(), storage, Scope::read_only()).unwrap();
        CheckpointStore::open(&self.home.path().join(name), Arc::new(workspace)).unwrap()
    }

    fn read(&self, path: &str) -> String {
        std::fs::read_to_string(self.root().join(path)).unwrap()
    }
}

/// The tree the store's newest checkpoint recorded.
fn newest_tree(store: &CheckpointStore) -> String {
    let log = std::fs::read_to_string(store.dir().join("checkpoints.jsonl")).unwrap();
    let last: serde_json::Value = serde_json::from_str(log.lines().last().unwrap()).unwrap();
    last["tree"].as_str().unwrap().to_owned()
}

fn borrowed_count(store: &CheckpointStore) -> usize {
    std::fs::read_to_string(store.dir().join("borrowed")).map_or(0, |text| text.lines().count())
}

/// Every file below `.git` with its bytes and times: what "never written" is checked against.
fn git_dir_state(root: &Path) -> BTreeMap<PathBuf, (Vec<u8>, i64, i64)> {
    let mut state = BTreeMap::new();
    let mut stack = vec![root.join(".git")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            if meta.is_dir() {
                stack.push(path);
            } else {
                state.insert(
                    path.clone(),
                    (std::fs::read(&path).unwrap(), meta.mtime_nsec(), meta.ctime_nsec()),
                );
            }
        }
    }
    state
}

#[test]
fn a_first_snapshot_borrows_the_index_gives_the_same_trees_and_never_writes_git() {
    let project = Project::new();
    let root = project.root();
    for n in 0..40 {
        write(&root.join(format!("src/m{}/file{n}.rs", n % 7)), &format!("pub fn f{n}() {{}}\n"));
    }
    write(&root.join("README.md"), "read me\n");
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-q", "-m", "first"]);
    // Not in the index, and changed since it was added: both read from the files.
    write(&root.join("untracked.txt"), "new\n");
    write(&root.join("README.md"), "read me, changed\n");
    let before = git_dir_state(&root);

    let borrowing = project.store("borrowing");
    borrowing.manual().unwrap();
    let full = project.store("full").without_borrowing();
    full.manual().unwrap();

    assert_eq!(newest_tree(&borrowing), newest_tree(&full));
    assert_eq!(borrowed_count(&borrowing), 40, "the 40 clean files come from the index");
    assert_eq!(borrowed_count(&full), 0);
    assert!(git_dir_state(&root) == before, "the project's .git was written");
}

#[test]
fn a_checkpoint_stands_alone_once_adopted_even_after_the_project_prunes() {
    let project = Project::new();
    let root = project.root();
    write(&root.join("notes.txt"), "version one\n");
    write(&root.join("other.txt"), "stays\n");
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-q", "-m", "one"]);
    let store = project.store("store");
    let old = store.manual().unwrap();
    assert_eq!(borrowed_count(&store), 2);
    let first_blob = git(&root, &["rev-parse", ":notes.txt"]);

    assert_eq!(store.adopt_borrowed().unwrap(), 2);
    assert_eq!(borrowed_count(&store), 0);
    assert!(
        !store.dir().join("git/objects/info/alternates").exists(),
        "the store still reads the project's objects"
    );

    // The user rewrites history and prunes: the old blob is gone from the project's git.
    write(&root.join("notes.txt"), "version two\n");
    git(&root, &["commit", "-q", "-a", "--amend", "-m", "two"]);
    git(&root, &["reflog", "expire", "--expire=now", "--all"]);
    git(&root, &["gc", "-q", "--prune=now"]);
    let gone = Command::new("git").args(["cat-file", "-e", &first_blob]).current_dir(&root).status().unwrap();
    assert!(!gone.success(), "the project's git still holds the old blob");

    // Warden's next checkpoint sees the change; the old one is restored from the store alone.
    store.manual().unwrap();
    store.restore(&old.id, &[], false).unwrap();
    assert_eq!(project.read("notes.txt"), "version one\n");
}

/// What the lying index says `f` holds, and what it holds (the same size).
const FORGED: &str = "forged\n";
const HONEST: &str = "honest\n";

/// Makes `f` hold [`HONEST`] while the index says it holds [`FORGED`], with the entry's stat
/// data copied from the file as it is now: an index that lies as only a process that can write
/// `.git/index` could make it. Returns the lying index's bytes.
fn lying_index(root: &Path) -> Vec<u8> {
    write(&root.join("f"), FORGED);
    git(root, &["update-index", "--index-version", "2"]);
    git(root, &["add", "f"]);
    write(&root.join("f"), HONEST);
    let meta = std::fs::symlink_metadata(root.join("f")).unwrap();
    let mut index = std::fs::read(root.join(".git/index")).unwrap();
    assert_eq!(u32::from_be_bytes(index[8..12].try_into().unwrap()), 1, "one entry");
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let fields = [
        meta.ctime() as u32,
        meta.ctime_nsec() as u32,
        meta.mtime() as u32,
        meta.mtime_nsec() as u32,
        meta.dev() as u32,
        meta.ino() as u32,
        0o100_644,
        meta.uid(),
        meta.gid(),
        meta.size() as u32,
    ];
    for (i, field) in fields.iter().enumerate() {
        index[12 + 4 * i..16 + 4 * i].copy_from_slice(&field.to_be_bytes());
    }
    let body = index.len() - 20;
    let checksum = Sha1::digest(&index[..body]);
    index[body..].copy_from_slice(&checksum);
    index
}

#[test]
fn an_index_that_lies_is_believed_only_where_nothing_could_have_written_it_and_never_when_racy() {
    // Nothing this process started could have written this index: its word is taken. (This is
    // what makes the two cases below matter.)
    let (project, _) = Project::lied_to();
    let store = project.store("store");
    store.manual().unwrap();
    assert_eq!(borrowed_count(&store), 1);
    assert_eq!(blob_of_f(&store), blob_id(FORGED));

    // The same lie, with the index written in the very instant the file last changed (git's
    // racily clean case): the file is read.
    let (project, root) = Project::lied_to();
    let stamp = Command::new("touch").args(["-r", "f", ".git/index"]).current_dir(&root).status().unwrap();
    assert!(stamp.success());
    let store = project.store("store");
    store.manual().unwrap();
    assert_eq!(borrowed_count(&store), 0);
    assert_eq!(blob_of_f(&store), blob_id(HONEST));
}

/// The id git gives a blob of `text`.
fn blob_id(text: &str) -> String {
    let mut hasher = Sha1::new();
    hasher.update(format!("blob {}\0{text}", text.len()).as_bytes());
    hex::encode(hasher.finalize())
}

/// The blob the newest checkpoint holds for `f`.
fn blob_of_f(store: &CheckpointStore) -> String {
    let out = Command::new("git")
        .env("GIT_DIR", store.dir().join("git"))
        .args(["ls-tree", &newest_tree(store), "f"])
        .output()
        .unwrap();
    let listed = String::from_utf8_lossy(&out.stdout).into_owned();
    listed.split_whitespace().nth(2).unwrap_or_default().to_owned()
}

#[test]
fn an_index_a_boxed_command_wrote_is_not_believed() {
    let project = Project::new();
    let root = project.root();
    let index = lying_index(&root);
    // Put in place from inside the box, as any command the model runs could.
    std::fs::write(root.join("lying.idx"), &index).unwrap();
    let home = tempfile::tempdir().unwrap();
    let policy = BoxPolicy::with_home(&root, Some(home.path()), &[]);
    let argv: Vec<OsString> = ["sh", "-c", "cat lying.idx > .git/index"].iter().map(Into::into).collect();
    let launch = warden_core::containment::launch(&policy, &argv, &root).unwrap();
    assert!(launch.contained, "this test needs the box");
    let mut command = launch.command();
    command.current_dir(&root).env_clear().env("PATH", "/usr/bin:/bin");
    assert!(command.status().unwrap().success());
    drop(launch);
    assert_eq!(std::fs::read(root.join(".git/index")).unwrap(), index, "the box could not write the index");

    let store = project.store("store");
    store.manual().unwrap();
    assert_eq!(borrowed_count(&store), 0, "an index a boxed command could have written was used");
    assert_eq!(blob_of_f(&store), blob_id(HONEST));
}

#[test]
fn an_index_naming_blobs_its_repository_lacks_is_not_used() {
    let (project, root) = Project::lied_to();
    let forged = blob_id(FORGED);
    std::fs::remove_file(root.join(".git/objects").join(&forged[..2]).join(&forged[2..])).unwrap();
    let store = project.store("store");
    store.manual().unwrap();
    assert_eq!(borrowed_count(&store), 0);
    assert_eq!(blob_of_f(&store), blob_id(HONEST));
}

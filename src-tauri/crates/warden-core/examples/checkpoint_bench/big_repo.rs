//! The big-repository case of `checkpoint_bench`: a git repository of 50,000 small source files
//! in nested folders, committed once, its work tree clean and its index warm. Timed in the same
//! run, in turn, `BIG_RUNS` rounds (default 3):
//! - Warden's first snapshot of it (a fresh store each round, as when a session opens the project),
//!   and, for information, the same without taking ids from the project's git index;
//! - `git status --porcelain` on it, git tuned for speed with and without its monitor (`RUNS`
//!   times each per round, after an untimed run so its caches are warm);
//! - `git add -A && git commit` of the same files into an empty repository (tuned git).
//!
//! The project's own index is what Warden may take blob ids from, so the tuned git that writes it
//! (`git status` refreshes it) runs with `index.skipHash=false`: `feature.manyFiles` turns the
//! index's checksum off, and Warden does not take the word of an index without one.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use warden_core::checkpoint::{CheckpointStore, Origin};
use warden_core::sandbox::Workspace;
use warden_core::scope::Scope;

use super::git::{Error, Git, Tuning};
use super::{ms, time, Samples};

/// How many files, and in how many folders: `FOLDERS` × `SUBFOLDERS` × `FILES_EACH`.
const FOLDERS: usize = 50;
const SUBFOLDERS: usize = 10;
const FILES_EACH: usize = 100;
/// Written into `.git` once the repository is made; a repository without it is made again.
const MARKER: &str = "warden-bench-big-repo-v1";

pub fn run(dir: &Path, git: &Git<'_>, scratch: &Path, runs: usize) -> Result<serde_json::Value, Error> {
    let made = ensure_repo(dir, git)?;
    read_all(dir)?;
    let project_git = Git { monitor: git.monitor, extra: vec![("index.skipHash", "false".to_owned())] };
    let mut statuses: Vec<(&'static str, Tuning)> = vec![("git_status_tuned", Tuning::Tuned)];
    if git.monitor.available() {
        statuses.push(("git_status_fsmonitor", Tuning::TunedFsmonitor));
    }
    let big_runs: usize = std::env::var("BIG_RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(3);
    let mut samples = Samples::default();
    for round in 0..big_runs.max(1) {
        for (name, borrow) in [("warden_first", true), ("warden_first_without_borrowing", false)] {
            samples.add(name, warden_first(dir, &scratch.join(format!("big-warden-{round}")), borrow)?);
        }
        // Each git in its steady state: one untimed run first, as the other rewrote the index (a
        // status without the monitor drops the monitor's token from it, and the other way round).
        for (name, tuning) in &statuses {
            let out = project_git.output(*tuning, dir, "status --porcelain")?;
            if !out.is_empty() {
                let first = out.lines().next().unwrap_or("");
                return Err(format!("the repository is not clean: {first}").into());
            }
            for _ in 0..runs.max(1) {
                samples.add(name, time(|| project_git.run(*tuning, None, dir, "status --porcelain"))?);
            }
        }
        let empty = scratch.join(format!("big-git-{round}"));
        git.run(Tuning::Tuned, Some(&empty), dir, "init -q")?;
        let add = time(|| git.run(Tuning::Tuned, Some(&empty), dir, "add -A && git commit -qm first"))?;
        samples.add("git_add_empty", add);
        std::fs::remove_dir_all(&empty)?;
    }
    let after = project_git.output(Tuning::Tuned, dir, "status --porcelain")?;
    let all: serde_json::Map<_, _> = samples
        .0
        .iter()
        .map(|(name, times)| (name.to_string(), times.iter().map(|t| ms(*t)).collect::<Vec<_>>().into()))
        .collect();
    Ok(serde_json::json!({
        "files": FOLDERS * SUBFOLDERS * FILES_EACH,
        "made_now": made,
        "big_runs": big_runs,
        "status_runs": runs,
        "clean_after": after.is_empty(),
        "fsmonitor": git.monitor.describe(),
        "fsmonitor_available": git.monitor.available(),
        "status_settings": project_git.settings(Tuning::TunedFsmonitor).iter()
            .map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>(),
        "ms": samples.medians(),
        "all_ms": all,
    }))
}

/// Warden's first snapshot of `dir` into a fresh store at `store_dir` (removed after), taking
/// clean files' ids from the project's git index (`borrow`) or reading every file.
fn warden_first(dir: &Path, store_dir: &Path, borrow: bool) -> Result<Duration, Error> {
    let storage = store_dir.with_extension("storage");
    let workspace = Workspace::new(dir, &storage, Scope::read_only())?;
    let store = CheckpointStore::open(store_dir, Arc::new(workspace))?;
    let store = if borrow { store } else { store.without_borrowing() };
    let took = time(|| store.checkpoint(&Origin::default()).map(drop).map_err(Into::into))?;
    drop(store);
    std::fs::remove_dir_all(store_dir)?;
    let _ = std::fs::remove_dir_all(storage);
    Ok(took)
}

/// Make the repository unless it is there, marked and clean; whether it was made now.
fn ensure_repo(dir: &Path, git: &Git<'_>) -> Result<bool, Error> {
    let marker = dir.join(".git").join(MARKER);
    if marker.exists() && git.output(Tuning::Untuned, dir, "status --porcelain")?.is_empty() {
        return Ok(false);
    }
    if dir.exists() {
        std::fs::remove_dir_all(dir)?;
    }
    for folder in 0..FOLDERS {
        for sub in 0..SUBFOLDERS {
            let at = dir.join(format!("pkg{folder:02}/src/mod{sub:02}"));
            std::fs::create_dir_all(&at)?;
            for file in 0..FILES_EACH {
                let n = (folder * SUBFOLDERS + sub) * FILES_EACH + file;
                std::fs::write(at.join(format!("item{file:03}.rs")), source(n))?;
            }
        }
    }
    // Files older than the index git writes, so no entry is "racily clean" (git's rule: a file
    // changed in the same instant as the index is looked at again, whatever its stat data says).
    std::thread::sleep(Duration::from_millis(1500));
    git.run(Tuning::Untuned, None, dir, "init -q && git add -A && git commit -qm initial")?;
    // One status as a user's next command would run it: the index refreshed and warm.
    git.output(Tuning::Untuned, dir, "status --porcelain")?;
    std::fs::File::create(&marker)?.write_all(b"made by checkpoint_bench --big-repo\n")?;
    Ok(true)
}

/// A small source file, different for every `n`, the same in every run (100 to ~1,000 bytes).
fn source(n: usize) -> String {
    let mut state =
        (n as u64).wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
    let mut next = || {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        state >> 33
    };
    let mut text = format!("//! Item {n}.\n\nuse std::fmt;\n\npub struct Item{n} {{\n");
    for field in 0..(next() % 8) {
        text.push_str(&format!("    pub field{field}: u{},\n", 8 << (next() % 4)));
    }
    text.push_str("}\n");
    for f in 0..(next() % 4) {
        text.push_str(&format!(
            "\npub fn compute{f}(x: u64) -> u64 {{\n    x.wrapping_mul({}).rotate_left({})\n}}\n",
            next(),
            next() % 64
        ));
    }
    text
}

/// Read every file once, so every contestant starts from a warm page cache.
fn read_all(dir: &Path) -> Result<(), Error> {
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at)? {
            let entry = entry?;
            let kind = entry.file_type()?;
            if kind.is_dir() && entry.file_name() != ".git" {
                stack.push(entry.path());
            } else if kind.is_file() {
                std::hint::black_box(std::fs::read(entry.path())?);
            }
        }
    }
    Ok(())
}

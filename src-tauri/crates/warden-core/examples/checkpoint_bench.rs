//! Times checkpoints of a large tree against the `git` CLI doing the same in the same run, for
//! `bench/checkpoint/run.sh`: the first snapshot (best of two, taken in turn with git's), a checkpoint when nothing changed, and one after
//! one file changed (medians of `RUNS`), with Warden's watcher and without it (every file looked
//! at), plus this process's resident memory after the first snapshot and after the last checkpoint.
//!
//! Usage: `checkpoint_bench <dir>` (the tree is changed and put back: one file is appended to).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use warden_core::checkpoint::{CheckpointStore, Origin};
use warden_core::sandbox::Workspace;
use warden_core::scope::Scope;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = PathBuf::from(std::env::args().nth(1).ok_or("usage: checkpoint_bench <dir>")?);
    let runs: usize = std::env::var("RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(20);
    let scratch = tempfile::tempdir()?;
    let target = first_file(&dir).ok_or("no file to change in the tree")?;
    let original = std::fs::read(&target)?;
    let mut out = std::io::stdout().lock();

    // The first snapshot, git and Warden in turn, twice each (the best of each): the machine is
    // shared, and a burst of other work should not land on one side only.
    let open = |name: &str, watch: bool| -> Result<CheckpointStore, Box<dyn std::error::Error>> {
        let workspace = Workspace::new(&dir, scratch.path().join("storage"), Scope::read_only())?;
        let store = CheckpointStore::open(&scratch.path().join(name), Arc::new(workspace))?;
        Ok(if watch { store } else { store.without_watcher() })
    };
    let origin = Origin::default();
    let (mut git_first, mut first) = (Duration::MAX, Duration::MAX);
    let mut store = None;
    for round in 0..2 {
        let git_dir = scratch.path().join(format!("git-reference-{round}"));
        git(&git_dir, &dir, "init -q")?;
        git_first = git_first.min(time(|| git(&git_dir, &dir, "add -A && git commit -qm first"))?);
        if round == 0 {
            std::fs::remove_dir_all(&git_dir)?;
        }
        let fresh = open(&format!("warden-{round}"), true)?;
        first = first.min(time(|| fresh.checkpoint(&origin).map(drop).map_err(Into::into))?);
        if round == 0 {
            drop(fresh);
            std::fs::remove_dir_all(scratch.path().join("warden-0"))?;
        } else {
            store = Some(fresh);
        }
    }
    let store = store.ok_or("no store")?;
    let git_dir = scratch.path().join("git-reference-1");
    let git_unchanged = median(runs, || time(|| git(&git_dir, &dir, "add -A")))?;
    let git_one = median(runs, || {
        touch(&target)?;
        time(|| git(&git_dir, &dir, "add -A && git commit -qm one"))
    })?;

    // git's runs changed the tree since Warden's first snapshot: take that in first.
    store.checkpoint(&origin)?;
    let rss_first = rss_kib();
    let unchanged = median(runs, || time(|| changed(&store, &origin, 0)))?;
    let one = median(runs, || {
        touch(&target)?;
        time(|| changed(&store, &origin, 1))
    })?;
    for _ in 0..200 {
        touch(&target)?;
        store.checkpoint(&origin)?;
    }
    let rss_last = rss_kib();

    // Without the watcher: the safe fallback, every file looked at.
    let scan = open("warden-scan", false)?;
    scan.checkpoint(&origin)?;
    let scan_unchanged = median(runs, || time(|| changed(&scan, &origin, 0)))?;
    let scan_one = median(runs, || {
        touch(&target)?;
        time(|| changed(&scan, &origin, 1))
    })?;
    std::fs::write(&target, original)?;

    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    writeln!(
        out,
        "{}",
        serde_json::json!({
            "runs": runs,
            "git": { "first_ms": ms(git_first), "unchanged_ms": ms(git_unchanged), "one_file_ms": ms(git_one) },
            "warden": { "first_ms": ms(first), "unchanged_ms": ms(unchanged), "one_file_ms": ms(one),
                        "rss_kib_after_first": rss_first, "rss_kib_after_200_more": rss_last },
            "warden_without_watcher": { "unchanged_ms": ms(scan_unchanged), "one_file_ms": ms(scan_one) },
        })
    )?;
    Ok(())
}

/// A checkpoint that must have seen exactly `files` changed files (the measurement is void otherwise).
fn changed(store: &CheckpointStore, origin: &Origin, files: u32) -> Result<(), Box<dyn std::error::Error>> {
    let taken = store.checkpoint(origin)?;
    if taken.changed != files {
        return Err(format!("the checkpoint saw {} changed files, not {files}", taken.changed).into());
    }
    Ok(())
}

fn git(git_dir: &Path, work_tree: &Path, script: &str) -> Result<(), Box<dyn std::error::Error>> {
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!("git {script}"))
        .env("GIT_DIR", git_dir)
        .env("GIT_WORK_TREE", work_tree)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        // No housekeeping in the background while the next command is timed (Warden's store has
        // none either): 41k loose objects would start `git gc --auto` after every commit.
        .env("GIT_CONFIG_COUNT", "2")
        .env("GIT_CONFIG_KEY_0", "gc.auto")
        .env("GIT_CONFIG_VALUE_0", "0")
        .env("GIT_CONFIG_KEY_1", "maintenance.auto")
        .env("GIT_CONFIG_VALUE_1", "false")
        .env("GIT_AUTHOR_NAME", "bench")
        .env("GIT_AUTHOR_EMAIL", "bench@localhost")
        .env("GIT_COMMITTER_NAME", "bench")
        .env("GIT_COMMITTER_EMAIL", "bench@localhost")
        .current_dir(work_tree)
        .status()?;
    if !status.success() {
        return Err(format!("git {script} failed").into());
    }
    Ok(())
}

fn time(
    f: impl FnOnce() -> Result<(), Box<dyn std::error::Error>>,
) -> Result<Duration, Box<dyn std::error::Error>> {
    let start = Instant::now();
    f()?;
    Ok(start.elapsed())
}

fn median(
    runs: usize,
    mut f: impl FnMut() -> Result<Duration, Box<dyn std::error::Error>>,
) -> Result<Duration, Box<dyn std::error::Error>> {
    let mut times = (0..runs.max(1)).map(|_| f()).collect::<Result<Vec<_>, _>>()?;
    times.sort();
    Ok(times[times.len() / 2])
}

/// Change one file (a line appended), as an edit would.
fn touch(path: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let mut file = std::fs::OpenOptions::new().append(true).open(path)?;
    writeln!(file, "// {}", Instant::now().elapsed().as_nanos())?;
    Ok(())
}

fn first_file(dir: &Path) -> Option<PathBuf> {
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(&at).ok()?.filter_map(Result::ok).collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let name = entry.file_name();
            if name == ".git" {
                continue;
            }
            let kind = entry.file_type().ok()?;
            if kind.is_file() && name.to_string_lossy().ends_with(".rs") {
                return Some(entry.path());
            }
            if kind.is_dir() {
                stack.push(entry.path());
            }
        }
    }
    None
}

fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

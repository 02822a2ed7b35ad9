//! Times restoring 5,000 changed files, for `bench/checkpoint/run.sh`: Warden's restore (through
//! the project's folder handles, each file staged, flushed and renamed) against the restore it
//! replaced, kept here as a contestant only: `git read-tree` into a scratch index and `git
//! checkout-index -f` of the same paths into the project by path. Both put the same 5,000 files
//! back from the same store; rounds alternate, medians of `RUNS`.
//!
//! What each side does: Warden's row is the whole `CheckpointStore::restore` — a snapshot of the
//! project first (the undo point; the stat cache spares reading unchanged files), the diff, every
//! file staged through its folder's handle, the file system flushed once (`syncfs`), the renames,
//! flushed once more, and the snapshot after. The contestant's row is the diff and git's writes
//! only (git flushes nothing).
//!
//! Usage: `restore_bench` (prints one JSON line).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use warden_core::checkpoint::{CheckpointStore, Origin};
use warden_core::sandbox::Workspace;
use warden_core::scope::Scope;

const FILES: usize = 5_000;

type Error = Box<dyn std::error::Error>;

fn main() -> Result<(), Error> {
    let runs: usize = std::env::var("RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(5);
    let scratch = tempfile::tempdir()?;
    let project = scratch.path().join("project");
    write_state(&project, "first")?;
    let workspace = Workspace::new(&project, scratch.path().join("storage"), Scope::read_only())?;
    let store = CheckpointStore::open(&scratch.path().join("store"), Arc::new(workspace))?;
    let origin = Origin::default();
    let first = store.checkpoint(&origin)?.id;
    write_state(&project, "second")?;
    let second = store.checkpoint(&origin)?.id;
    let git_dir = store.dir().join("git");
    let tree_of = |id: &str| std::fs::read_to_string(git_dir.join("refs/checkpoints").join(id));
    let (tree_first, tree_second) = (tree_of(&first)?.trim().to_owned(), tree_of(&second)?.trim().to_owned());

    let (mut warden, mut contestant) = (Vec::new(), Vec::new());
    for _ in 0..runs.max(1) {
        // Warden: the second state back to the first, then forward again (untimed).
        let started = Instant::now();
        let report = store.restore(&first, &[], true)?;
        warden.push(started.elapsed());
        if report.files.len() != FILES {
            return Err(format!("Warden restored {} files, not {FILES}", report.files.len()).into());
        }
        store.restore(&second, &[], true)?;
        // The contestant does the same between the same trees.
        let started = Instant::now();
        checkout_index(&git_dir, &project, &tree_second, &tree_first)?;
        contestant.push(started.elapsed());
        checkout_index(&git_dir, &project, &tree_first, &tree_second)?;
        store.checkpoint(&origin)?;
    }
    let ms = |times: &mut Vec<Duration>| {
        times.sort();
        times[times.len() / 2].as_secs_f64() * 1000.0
    };
    let (w, c) = (ms(&mut warden), ms(&mut contestant));
    writeln!(
        std::io::stdout(),
        "{}",
        serde_json::json!({ "files": FILES, "runs": runs, "warden_ms": w, "checkout_index_ms": c, "ratio": w / c })
    )?;
    Ok(())
}

/// 5,000 files of about 2 KB in 50 folders, each saying which state it belongs to.
fn write_state(project: &Path, state: &str) -> Result<(), Error> {
    for i in 0..FILES {
        let dir = project.join(format!("src/m{}", i % 50));
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join(format!("f{i}.rs")), format!("// {state} {i}\n").repeat(80))?;
    }
    Ok(())
}

/// The replaced restore: the paths that differ between `from` and `to`, written from `to` by git
/// into the project by path.
fn checkout_index(git_dir: &Path, project: &Path, from: &str, to: &str) -> Result<(), Error> {
    let git = |args: &[&str], input: Option<&[u8]>, index: Option<&Path>| -> Result<Vec<u8>, Error> {
        let mut command = Command::new("git");
        command
            .args(args)
            .env("GIT_DIR", git_dir)
            .env("GIT_WORK_TREE", project)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .current_dir(project)
            .stdin(if input.is_some() { Stdio::piped() } else { Stdio::null() })
            .stdout(Stdio::piped());
        if let Some(index) = index {
            command.env("GIT_INDEX_FILE", index);
        }
        let mut child = command.spawn()?;
        if let (Some(bytes), Some(mut stdin)) = (input, child.stdin.take()) {
            stdin.write_all(bytes)?;
        }
        let out = child.wait_with_output()?;
        if !out.status.success() {
            return Err(format!("git {} failed", args.join(" ")).into());
        }
        Ok(out.stdout)
    };
    let paths = git(
        &["-c", "core.bare=false", "diff-tree", "-r", "-z", "--name-only", "--no-renames", from, to],
        None,
        None,
    )?;
    let index = git_dir.join("bench.index");
    git(&["-c", "core.bare=false", "read-tree", to], None, Some(&index))?;
    git(&["-c", "core.bare=false", "checkout-index", "-f", "-z", "--stdin"], Some(&paths), Some(&index))?;
    let _ = std::fs::remove_file(index);
    Ok(())
}

//! The two contestants, each over the project through the mount, each into a fresh store on the
//! local disk: Warden's first snapshot (`CheckpointStore::checkpoint`, as a session takes it, the
//! watcher set up and the project's git index used where it may be) and `git add -A` of the same
//! files into an empty repository (git's defaults, no system or global configuration). Only the
//! snapshot and the `add` are timed; opening the store and `git init` are not.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use warden_core::checkpoint::{CheckpointStore, Origin};
use warden_core::sandbox::Workspace;
use warden_core::scope::Scope;

use super::passthrough::{Shared, Tally};
use super::Error;

/// One timed run of one contestant.
pub struct Outcome {
    pub time: Duration,
    /// The requests the mount served meanwhile.
    pub ops: Tally,
    /// The tree id of what was stored (git's tree format, so the two can be compared).
    pub tree: String,
    /// Paths stored.
    pub files: u64,
    /// Blob ids Warden took from the project's git index instead of reading the files.
    pub borrowed: usize,
}

pub struct Contest<'a> {
    /// The project, through the mount.
    pub project: PathBuf,
    /// A local folder for the stores.
    pub scratch: &'a Path,
    /// The second root of Warden's sandbox.
    pub storage: &'a Path,
    pub shared: &'a Shared,
}

impl Contest<'_> {
    pub fn warden(&self, round: usize) -> Result<Outcome, Error> {
        let store_dir = self.scratch.join(format!("warden-{round}"));
        let workspace = Workspace::new(&self.project, self.storage, Scope::read_only())
            .map_err(|e| format!("Warden's workspace over {}: {e}", self.project.display()))?;
        let store = CheckpointStore::open(&store_dir, Arc::new(workspace))
            .map_err(|e| format!("opening the store {}: {e}", store_dir.display()))?;
        let before = self.shared.tally();
        let start = Instant::now();
        store.checkpoint(&Origin::default()).map_err(|e| format!("Warden's snapshot: {e}"))?;
        let time = start.elapsed();
        let ops = self.shared.tally().since(&before);
        // Closes the watcher and the project's handles: nothing of the mount stays open.
        drop(store);
        let tree = last_tree(&store_dir)?;
        let files = self.run_git(&store_dir.join("git"), &["ls-tree", "-r", "-z", "--name-only", &tree])?;
        let files = files.bytes().filter(|b| *b == 0).count() as u64;
        let borrowed = std::fs::read_to_string(store_dir.join("borrowed"))
            .map(|list| list.lines().filter(|l| !l.is_empty()).count())
            .unwrap_or(0);
        remove(&store_dir)?;
        Ok(Outcome { time, ops, tree, files, borrowed })
    }

    pub fn git(&self, round: usize) -> Result<Outcome, Error> {
        let git_dir = self.scratch.join(format!("git-{round}"));
        self.run_git(&git_dir, &["init", "-q"])?;
        let before = self.shared.tally();
        let start = Instant::now();
        self.run_git(&git_dir, &["add", "-A"])?;
        let time = start.elapsed();
        let ops = self.shared.tally().since(&before);
        let tree = self.run_git(&git_dir, &["write-tree"])?.trim().to_owned();
        let listed = self.run_git(&git_dir, &["ls-files", "-z"])?;
        let files = listed.bytes().filter(|b| *b == 0).count() as u64;
        remove(&git_dir)?;
        Ok(Outcome { time, ops, tree, files, borrowed: 0 })
    }

    /// `git <args>` in the repository `git_dir` over the project; what it printed.
    fn run_git(&self, git_dir: &Path, args: &[&str]) -> Result<String, Error> {
        let out = Command::new("git")
            .args(["-c", "gc.auto=0", "-c", "maintenance.auto=false"])
            .args(args)
            .env("GIT_DIR", git_dir)
            .env("GIT_WORK_TREE", &self.project)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .current_dir(&self.project)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("git {}: {e}", args.join(" ")))?;
        if !out.status.success() {
            return Err(format!(
                "git {} failed: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr).trim()
            )
            .into());
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }
}

/// The tree of the last checkpoint the store at `dir` recorded (its log, one JSON object a line).
fn last_tree(dir: &Path) -> Result<String, Error> {
    let log = dir.join("checkpoints.jsonl");
    let text = std::fs::read_to_string(&log).map_err(|e| format!("{}: {e}", log.display()))?;
    let last = text.lines().rfind(|l| !l.trim().is_empty()).ok_or("the store recorded no checkpoint")?;
    let record: serde_json::Value =
        serde_json::from_str(last).map_err(|e| format!("{}: {e}", log.display()))?;
    Ok(record["tree"].as_str().ok_or("the store's last record has no tree")?.to_owned())
}

fn remove(dir: &Path) -> Result<(), Error> {
    std::fs::remove_dir_all(dir).map_err(|e| format!("removing {}: {e}", dir.display()).into())
}

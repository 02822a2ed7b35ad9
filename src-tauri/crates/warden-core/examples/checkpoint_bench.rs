//! Times checkpoints against the `git` CLI doing the same in the same run, for
//! `bench/checkpoint/run.sh`. Prints one JSON object; the script prints the rows and verdicts.
//!
//! `checkpoint_bench <dir>`: a large tree (the tree is changed and put back: one file is appended
//! to). The first snapshot (best of two, taken in turn with git's), a checkpoint when nothing
//! changed and one after one file changed (medians of `RUNS`, every contestant in turn in each
//! run), with Warden's watcher and without it (every file looked at), against git configured for
//! speed, with and without its file system monitor ([`git::Tuning`]); the first snapshot also
//! against untuned git, for reference. Then this process's resident memory over 200 more
//! checkpoints.
//!
//! `checkpoint_bench --big-repo <dir>`: a clean git repository of 50,000 small files (made in
//! `<dir>` if it is not there): Warden's first snapshot of it against `git status --porcelain` on
//! it and `git add -A` of its files into an empty repository (see `checkpoint_bench/big_repo.rs`).

#[path = "checkpoint_bench/big_repo.rs"]
mod big_repo;
#[path = "checkpoint_bench/git.rs"]
mod git;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use warden_core::checkpoint::{CheckpointStore, Origin};
use warden_core::sandbox::Workspace;
use warden_core::scope::Scope;

use self::git::{Error, Fsmonitor, Git, Tuning};

const USAGE: &str = "usage: checkpoint_bench <dir> | checkpoint_bench --big-repo <dir>";

fn main() -> Result<(), Error> {
    let mut args = std::env::args().skip(1);
    let first = args.next().ok_or(USAGE)?;
    let runs: usize = std::env::var("RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(20);
    let scratch = tempfile::tempdir()?;
    let monitor = Fsmonitor::start(&scratch.path().join("fsmonitor"));
    let git = Git { monitor: &monitor, extra: Vec::new() };
    let report = if first == "--big-repo" {
        let dir = std::path::absolute(args.next().ok_or(USAGE)?)?;
        big_repo::run(&dir, &git, scratch.path(), runs)?
    } else {
        Corpus { dir: std::path::absolute(first)?, scratch: scratch.path().to_path_buf(), git: &git, runs }
            .run()?
    };
    writeln!(std::io::stdout().lock(), "{report}")?;
    Ok(())
}

/// Times of the contestants of one row, by name.
#[derive(Default)]
struct Samples(BTreeMap<&'static str, Vec<Duration>>);

impl Samples {
    fn add(&mut self, name: &'static str, time: Duration) {
        self.0.entry(name).or_default().push(time);
    }

    /// Each contestant's median, in milliseconds.
    fn medians(&self) -> serde_json::Value {
        self.0
            .iter()
            .map(|(name, times)| (name.to_string(), serde_json::Value::from(ms(median_of(times)))))
            .collect()
    }
}

struct Corpus<'a> {
    dir: PathBuf,
    scratch: PathBuf,
    git: &'a Git<'a>,
    runs: usize,
}

impl Corpus<'_> {
    fn run(&self) -> Result<serde_json::Value, Error> {
        let target = first_file(&self.dir).ok_or("no file to change in the tree")?;
        let original = std::fs::read(&target)?;
        let (first, store) = self.first_snapshots()?;
        let rss_first = rss_kib();
        let fsmonitor_dir = self.scratch.join("git-fsmonitor");
        let tuned_dir = self.scratch.join("git-tuned-1");
        if self.git.monitor.available() {
            // Git with its monitor, made the same way; two runs so the monitor watches and the
            // index holds its token before anything is timed.
            self.git.run(Tuning::TunedFsmonitor, Some(&fsmonitor_dir), &self.dir, "init -q")?;
            self.git.run(
                Tuning::TunedFsmonitor,
                Some(&fsmonitor_dir),
                &self.dir,
                "add -A && git commit -qm first",
            )?;
            for _ in 0..2 {
                self.git.run(Tuning::TunedFsmonitor, Some(&fsmonitor_dir), &self.dir, "add -A")?;
            }
        }
        let scan = self.open("warden-scan", false)?;
        scan.checkpoint(&Origin::default())?;
        let stores =
            Stores { watched: &store, scan: &scan, tuned_dir: &tuned_dir, fsmonitor_dir: &fsmonitor_dir };
        let unchanged = self.interleaved(&stores, None)?;
        let one_file = self.interleaved(&stores, Some(&target))?;

        let rss_before = rss_kib();
        for _ in 0..200 {
            touch(&target)?;
            store.checkpoint(&Origin::default())?;
        }
        let rss_after = rss_kib();
        std::fs::write(&target, original)?;
        Ok(serde_json::json!({
            "runs": self.runs,
            "fsmonitor": self.git.monitor.describe(),
            "fsmonitor_available": self.git.monitor.available(),
            "tuned_settings": self.git.settings(Tuning::TunedFsmonitor).iter()
                .map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>(),
            "first_ms": first.medians(),
            "unchanged_ms": unchanged.medians(),
            "one_file_ms": one_file.medians(),
            "rss_kib": { "after_first": rss_first, "before_200": rss_before, "after_200": rss_after },
        }))
    }

    fn open(&self, name: &str, watch: bool) -> Result<CheckpointStore, Error> {
        let workspace = Workspace::new(&self.dir, self.scratch.join("storage"), Scope::read_only())?;
        let store = CheckpointStore::open(&self.scratch.join(name), Arc::new(workspace))?;
        Ok(if watch { store } else { store.without_watcher() })
    }

    /// The first snapshot, untuned git, tuned git and Warden in turn, twice each (the best of
    /// each): the machine is shared, and a burst of other work should not land on one side only.
    /// Keeps the second round's tuned repository (`git-tuned-1`) and Warden's store.
    fn first_snapshots(&self) -> Result<(Samples, CheckpointStore), Error> {
        let mut samples = Samples::default();
        let mut kept = None;
        for round in 0..2 {
            for (name, tuning) in [("git_untuned", Tuning::Untuned), ("git_tuned", Tuning::Tuned)] {
                let git_dir = self.scratch.join(format!("{name}-{round}").replace('_', "-"));
                self.git.run(tuning, Some(&git_dir), &self.dir, "init -q")?;
                samples.add(
                    name,
                    time(|| {
                        self.git.run(tuning, Some(&git_dir), &self.dir, "add -A && git commit -qm first")
                    })?,
                );
                if round == 0 || tuning == Tuning::Untuned {
                    std::fs::remove_dir_all(&git_dir)?;
                }
            }
            let fresh = self.open(&format!("warden-{round}"), true)?;
            samples
                .add("warden", time(|| fresh.checkpoint(&Origin::default()).map(drop).map_err(Into::into))?);
            if round == 0 {
                drop(fresh);
                std::fs::remove_dir_all(self.scratch.join("warden-0"))?;
            } else {
                kept = Some(fresh);
            }
        }
        // The best of two: keep only each side's faster run.
        for times in samples.0.values_mut() {
            times.sort();
            times.truncate(1);
        }
        Ok((samples, kept.ok_or("no store")?))
    }

    /// `runs` rounds of every contestant in turn: nothing changed (`touched` is `None`), or the
    /// file `touched` changed before each round (each contestant then takes in that one change).
    fn interleaved(&self, stores: &Stores<'_>, touched: Option<&Path>) -> Result<Samples, Error> {
        let (script, files) =
            if touched.is_some() { ("add -A && git commit -qm one", 1) } else { ("add -A", 0) };
        let mut samples = Samples::default();
        for _ in 0..self.runs.max(1) {
            if let Some(path) = touched {
                touch(path)?;
            }
            samples.add(
                "git_tuned",
                time(|| self.git.run(Tuning::Tuned, Some(stores.tuned_dir), &self.dir, script))?,
            );
            if self.git.monitor.available() {
                let dir = Some(stores.fsmonitor_dir);
                samples.add(
                    "git_fsmonitor",
                    time(|| self.git.run(Tuning::TunedFsmonitor, dir, &self.dir, script))?,
                );
            }
            samples.add("warden", time(|| changed(stores.watched, files))?);
            samples.add("warden_without_watcher", time(|| changed(stores.scan, files))?);
        }
        Ok(samples)
    }
}

/// The stores and repositories the unchanged and one-file rows use.
struct Stores<'a> {
    watched: &'a CheckpointStore,
    scan: &'a CheckpointStore,
    tuned_dir: &'a Path,
    fsmonitor_dir: &'a Path,
}

/// A checkpoint that must have seen exactly `files` changed files (the measurement is void otherwise).
fn changed(store: &CheckpointStore, files: u32) -> Result<(), Error> {
    let taken = store.checkpoint(&Origin::default())?;
    if taken.changed != files {
        return Err(format!("the checkpoint saw {} changed files, not {files}", taken.changed).into());
    }
    Ok(())
}

fn time(f: impl FnOnce() -> Result<(), Error>) -> Result<Duration, Error> {
    let start = Instant::now();
    f()?;
    Ok(start.elapsed())
}

fn median_of(times: &[Duration]) -> Duration {
    let mut sorted = times.to_vec();
    sorted.sort();
    sorted.get(sorted.len() / 2).copied().unwrap_or_default()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Change one file (a line appended), as an edit would.
fn touch(path: &Path) -> Result<(), Error> {
    let mut file = std::fs::OpenOptions::new().append(true).open(path)?;
    writeln!(file, "// {}", Instant::now().elapsed().as_nanos())?;
    Ok(())
}

fn first_file(dir: &Path) -> Option<PathBuf> {
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(&at).ok()?.filter_map(Result::ok).collect();
        entries.sort_by_key(std::fs::DirEntry::file_name);
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

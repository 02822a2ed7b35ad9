//! Checkpoints on a slow file system, against git in the same run, for `bench/checkpoint/slow_fs.sh`.
//!
//! A generated tree (`--files`, default 5,000 small source files in nested folders) is served by a
//! read-only FUSE passthrough (`slow_fs_bench/passthrough.rs`, the `fuser` crate, no libfuse) that
//! waits `--latencies-us` (default 0,100,500) in every lookup, getattr, open, opendir, read,
//! readdir and readlink, with `--threads` request threads (default 8) and the kernel caching
//! entries and attributes for `--ttl-ms` (default 1000, libfuse's default). The tree is a plain
//! folder and a clean git repository (`--sources plain,git`): Warden takes blob ids from a clean
//! repository's index on a first snapshot, so there it only looks at the files' stat data.
//!
//! At each latency, `--runs` (default 3) rounds alternate which contestant goes first: Warden's
//! first snapshot of the project through the mount (a fresh store each time) and `git add -A` of
//! the same files into an empty repository (see `slow_fs_bench/contest.rs`). Before each, the
//! kernel's cached entries are left to expire. Per source and latency: a JSON line (medians, every
//! run, the requests each served, whether both stored the same tree) and a line for people.
//!
//! The source trees and both contestants' stores are in `--scratch` (default `/dev/shm`, memory,
//! where there is one; else the temporary folder), so the disk the stores are written to does not
//! weigh on the result: what is measured is reading the project through the slow mount. The mount
//! itself is in the temporary folder (Warden's sandbox never reads below `/dev`).
//!
//! The mount is `--mountpoint` (an empty folder) or a temporary one, unmounted at the end and on an
//! error; a process killed outright leaves it to its caller (the script unmounts it on exit).

#[path = "slow_fs_bench/contest.rs"]
mod contest;
#[path = "slow_fs_bench/mount.rs"]
mod mount;
#[path = "slow_fs_bench/passthrough.rs"]
mod passthrough;
#[path = "slow_fs_bench/tree.rs"]
mod tree;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use self::contest::{Contest, Outcome};
use self::mount::Mounted;
use self::passthrough::{Shared, SlowFs, Tally};

pub type Error = Box<dyn std::error::Error>;

const USAGE: &str = "usage: slow_fs_bench [--files N] [--latencies-us 0,100,500] [--runs N] [--ttl-ms N] \
                     [--threads N] [--sources plain,git] [--mountpoint EMPTY_DIR] [--scratch DIR]";

struct Args {
    files: usize,
    latencies_us: Vec<u64>,
    runs: usize,
    ttl: Duration,
    threads: usize,
    /// `plain` and/or `git`.
    sources: Vec<String>,
    mountpoint: Option<PathBuf>,
    /// Where the source trees and the stores go (in a temporary folder of their own).
    scratch: PathBuf,
}

impl Args {
    fn parse(mut args: impl Iterator<Item = String>) -> Result<Self, Error> {
        let mut parsed = Self {
            files: 5000,
            latencies_us: vec![0, 100, 500],
            runs: 3,
            ttl: Duration::from_secs(1),
            threads: 8,
            sources: vec!["plain".into(), "git".into()],
            mountpoint: None,
            scratch: default_scratch(),
        };
        while let Some(flag) = args.next() {
            if flag == "--help" || flag == "-h" {
                return Err(USAGE.into());
            }
            let value = args.next().ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))?;
            let number = |what: &str| -> Result<u64, Error> {
                what.trim()
                    .parse()
                    .map_err(|_| format!("{flag}: `{what}` is not a whole number\n{USAGE}").into())
            };
            match flag.as_str() {
                "--files" => parsed.files = usize::try_from(number(&value)?)?,
                "--runs" => parsed.runs = usize::try_from(number(&value)?)?.max(1),
                "--ttl-ms" => parsed.ttl = Duration::from_millis(number(&value)?),
                "--threads" => parsed.threads = usize::try_from(number(&value)?)?.max(1),
                "--latencies-us" => {
                    parsed.latencies_us = value.split(',').map(number).collect::<Result<_, _>>()?;
                }
                "--sources" => {
                    parsed.sources = value.split(',').map(|s| s.trim().to_owned()).collect();
                    if let Some(bad) = parsed.sources.iter().find(|s| !matches!(s.as_str(), "plain" | "git"))
                    {
                        return Err(format!("--sources: `{bad}` is neither plain nor git").into());
                    }
                }
                "--mountpoint" => parsed.mountpoint = Some(PathBuf::from(value)),
                "--scratch" => parsed.scratch = PathBuf::from(value),
                _ => return Err(format!("unknown argument {flag}\n{USAGE}").into()),
            }
        }
        if parsed.files == 0 || parsed.latencies_us.is_empty() || parsed.sources.is_empty() {
            return Err(format!("nothing to measure\n{USAGE}").into());
        }
        Ok(parsed)
    }
}

fn main() {
    if let Err(error) = run() {
        eprintln!("slow_fs_bench: {error}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), Error> {
    let args = Args::parse(std::env::args().skip(1))?;
    let scratch = tempfile::Builder::new()
        .prefix("warden-slowfs-")
        .tempdir_in(&args.scratch)
        .map_err(|e| format!("a scratch folder in {}: {e}", args.scratch.display()))?;
    let sources = scratch.path().join("sources");
    let mut counts = Vec::new();
    for source in &args.sources {
        let dir = sources.join(source);
        let paths = tree::generate(&dir, args.files)?;
        if source == "git" {
            tree::commit(&dir)?;
        }
        counts.push((source.clone(), paths));
    }
    // Warden's sandbox never reads below /dev: the mount (and the sandbox's storage) are elsewhere.
    let local = tempfile::Builder::new().prefix("warden-slowfs-mnt-").tempdir()?;
    let point = match &args.mountpoint {
        Some(point) => point.clone(),
        None => local.path().join("mnt"),
    };
    std::fs::create_dir_all(&point).map_err(|e| format!("{}: {e}", point.display()))?;
    let shared = Arc::new(Shared::default());
    let mounted =
        Mounted::start(SlowFs::new(sources.clone(), args.ttl, Arc::clone(&shared)), &point, args.threads)?;
    writeln!(
        std::io::stdout().lock(),
        "slow_fs_bench: {} files a tree ({}), FUSE passthrough on {} ({} request threads, entries and \
         attributes cached {} ms, a file's pages dropped at each open), {} runs a latency (medians), \
         sources and stores in {}",
        args.files,
        args.sources.join(", "),
        mounted.point().display(),
        args.threads,
        args.ttl.as_millis(),
        args.runs,
        scratch.path().display(),
    )?;
    let bench = Bench {
        args: &args,
        shared: &shared,
        stores: scratch.path().join("stores"),
        storage: local.path().join("storage"),
    };
    let result = counts.iter().try_for_each(|(source, paths)| {
        if source == "git" {
            tree::index_through(&sources.join(source), &mounted.point().join(source))?;
        }
        bench.source(source, &mounted.point().join(source), *paths)
    });
    let unmounted = mounted.unmount();
    result?;
    unmounted
}

struct Bench<'a> {
    args: &'a Args,
    shared: &'a Shared,
    /// The contestants' stores.
    stores: PathBuf,
    /// The second root of Warden's sandbox (unused by a snapshot).
    storage: PathBuf,
}

impl Bench<'_> {
    /// Every latency over one source tree (`project`, through the mount).
    fn source(&self, source: &str, project: &Path, paths: usize) -> Result<(), Error> {
        std::fs::create_dir_all(&self.stores)?;
        let contest = Contest {
            project: project.to_path_buf(),
            scratch: &self.stores,
            storage: &self.storage,
            shared: self.shared,
        };
        // An untimed round first: caches warm, both contestants checked on the same tree.
        self.shared.set_latency(Duration::ZERO);
        let (warden, git) = (contest.warden(0)?, contest.git(0)?);
        if warden.tree != git.tree {
            writeln!(
                std::io::stdout().lock(),
                "warning: {source}: Warden stored tree {} ({} files), git {} ({} files)",
                warden.tree,
                warden.files,
                git.tree,
                git.files
            )?;
        }
        for &latency in &self.args.latencies_us {
            self.shared.set_latency(Duration::from_micros(latency));
            let (mut wardens, mut gits) = (Vec::new(), Vec::new());
            for round in 0..self.args.runs {
                // Turn about: neither side always finds the other's leftovers.
                if round.is_multiple_of(2) {
                    wardens.push(self.timed(|| contest.warden(round + 1))?);
                    gits.push(self.timed(|| contest.git(round + 1))?);
                } else {
                    gits.push(self.timed(|| contest.git(round + 1))?);
                    wardens.push(self.timed(|| contest.warden(round + 1))?);
                }
            }
            self.report(source, latency, paths, &wardens, &gits)?;
        }
        Ok(())
    }

    /// One run, after the kernel's cached entries and attributes have expired.
    fn timed(&self, run: impl FnOnce() -> Result<Outcome, Error>) -> Result<Outcome, Error> {
        std::thread::sleep(self.args.ttl + Duration::from_millis(100));
        run()
    }

    fn report(
        &self,
        source: &str,
        latency_us: u64,
        paths: usize,
        wardens: &[Outcome],
        gits: &[Outcome],
    ) -> Result<(), Error> {
        let seconds = |runs: &[Outcome]| runs.iter().map(|o| o.time.as_secs_f64()).collect::<Vec<_>>();
        let (warden_runs, git_runs) = (seconds(wardens), seconds(gits));
        let (warden_s, git_s) = (median(&warden_runs), median(&git_runs));
        let ratio = warden_s / git_s;
        let pass = warden_s <= git_s;
        let same_tree = wardens.iter().zip(gits).all(|(w, g)| w.tree == g.tree);
        let all_ops = wardens.iter().chain(gits).fold(Tally::default(), |sum, o| sum.plus(&o.ops));
        let last = |runs: &[Outcome]| runs.last().map(|o| o.ops).unwrap_or_default();
        let (warden_ops, git_ops) = (last(wardens), last(gits));
        let borrowed = wardens.last().map_or(0, |o| o.borrowed);
        let row = serde_json::json!({
            "source": source,
            "latency_us": latency_us,
            "files": paths,
            "runs": self.args.runs,
            "warden_s": warden_s,
            "git_s": git_s,
            "ratio": ratio,
            "pass": pass,
            "warden_runs_s": warden_runs,
            "git_runs_s": git_runs,
            "warden_ops": warden_ops.json(),
            "git_ops": git_ops.json(),
            "mean_wait_us": all_ops.mean_wait_us(),
            "warden_files": wardens.last().map_or(0, |o| o.files),
            "git_files": gits.last().map_or(0, |o| o.files),
            "warden_borrowed": borrowed,
            "same_tree": same_tree,
            "ttl_ms": self.args.ttl.as_millis(),
            "fuse_threads": self.args.threads,
        });
        let kind = if source == "git" { "clean git repo" } else { "plain folder" };
        let mut out = std::io::stdout().lock();
        writeln!(out, "{row}")?;
        writeln!(
            out,
            "{kind:<14} +{latency_us:>4} µs/op (waits {:.0} µs): {paths} files  Warden {warden_s:7.3} s  \
             git add -A {git_s:7.3} s  Warden/git {ratio:5.2}  {}  requests: Warden {}, git {}; \
             blob ids from the index {borrowed}{}",
            all_ops.mean_wait_us(),
            if pass { "PASS" } else { "MISS" },
            warden_ops.total(),
            git_ops.total(),
            if same_tree { "" } else { "; TREES DIFFER" },
        )?;
        Ok(())
    }
}

/// Memory (`/dev/shm`) where there is some, else the temporary folder: the stores' disk is not what
/// is measured (a disk that is slow to make files would weigh on both sides, and hide the mount).
fn default_scratch() -> PathBuf {
    let shm = PathBuf::from("/dev/shm");
    if shm.is_dir() {
        shm
    } else {
        std::env::temp_dir()
    }
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    match sorted.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

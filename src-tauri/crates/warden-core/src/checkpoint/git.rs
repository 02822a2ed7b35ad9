//! The shadow repository: git's plumbing run against Warden's own `GIT_DIR`, bare. No git of the
//! store is ever given the project: it has no work tree, runs in the store's own folder, and is
//! handed only bytes Warden read through the project's verified handles (blobs and trees are
//! written by Warden itself, see `objects.rs`). Nothing of the user's git reaches it either — no
//! system or global config, no environment `GIT_*` variable, no attribute filter or line-ending
//! conversion (the store's `info/attributes` turns them off), no hook. Every git it starts runs
//! under a time limit (`deadline.rs`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Duration;

use super::deadline::{Watch, GIT_TIME_LIMIT};
use super::CheckpointError;

/// Settings of the shadow repository, written when it is made and checked on every open.
const CONFIG: &[(&str, &str)] = &[
    // No work tree: no git of the store ever reads or writes the project.
    ("core.bare", "true"),
    ("core.autocrlf", "false"),
    ("core.filemode", "true"),
    ("core.symlinks", "true"),
    ("core.ignorecase", "false"),
    ("core.precomposeunicode", "false"),
    ("core.protectNTFS", "false"),
    ("core.protectHFS", "false"),
    ("core.fsmonitor", "false"),
    ("core.untrackedCache", "false"),
    ("core.quotePath", "false"),
    // Level 1: most of the size saving for a fraction of the default level's time.
    ("core.looseCompression", "1"),
    ("core.compression", "1"),
    ("gc.auto", "0"),
    ("maintenance.auto", "false"),
    // Bumped when the settings above change, so existing stores get them.
    ("warden.storeVersion", STORE_VERSION),
];

const STORE_VERSION: &str = "3";

/// [`CONFIG`] as a git config file: one section per first part of the key, in the order given.
fn config_text() -> String {
    let mut text = String::new();
    let mut section = "";
    for (key, value) in CONFIG {
        let (name, field) = key.split_once('.').unwrap_or(("core", key));
        if name != section {
            text.push_str(&format!("[{name}]\n"));
            section = name;
        }
        text.push_str(&format!("\t{field} = {value}\n"));
    }
    text
}

/// Attributes that win over any `.gitattributes` in the project: bytes in, bytes out.
const ATTRIBUTES: &str = "* -text -eol -filter -ident -working-tree-encoding\n";

const AUTHOR: &str = "Warden";
const EMAIL: &str = "checkpoints@warden.invalid";

/// The shadow repository of one project.
#[derive(Debug)]
pub(super) struct Git {
    git_dir: PathBuf,
    /// How long one git may run before it is killed.
    time_limit: Duration,
    /// The store's lock while it is held (a file descriptor; -1 when not held). Each git started
    /// meanwhile holds it too, so a git that outlives a killed Warden keeps the store locked until
    /// it ends — and a lock file of git's found under the store's lock is truly stale.
    held: AtomicI32,
}

impl Git {
    pub fn new(git_dir: PathBuf) -> Self {
        Self { git_dir, time_limit: GIT_TIME_LIMIT, held: AtomicI32::new(-1) }
    }

    pub fn with_time_limit(mut self, time_limit: Duration) -> Self {
        self.time_limit = time_limit;
        self
    }

    pub fn time_limit(&self) -> Duration {
        self.time_limit
    }

    /// Started gits share the store's lock `fd` (until [`Git::release`]).
    pub fn hold(&self, fd: i32) {
        self.held.store(fd, Ordering::SeqCst);
    }

    pub fn release(&self) {
        self.held.store(-1, Ordering::SeqCst);
    }

    pub fn git_dir(&self) -> &Path {
        &self.git_dir
    }

    /// Make the repository if it is not there yet, and (re)write its settings.
    pub fn init(&self) -> Result<(), CheckpointError> {
        if !self.git_dir.join("HEAD").is_file() {
            std::fs::create_dir_all(&self.git_dir).map_err(|e| CheckpointError::io(&self.git_dir, e))?;
            self.run(&["init", "--bare", "--quiet"], None)?;
        }
        let info = self.git_dir.join("info");
        std::fs::create_dir_all(&info).map_err(|e| CheckpointError::io(&info, e))?;
        let attributes = info.join("attributes");
        if std::fs::read_to_string(&attributes).ok().as_deref() != Some(ATTRIBUTES) {
            std::fs::write(&attributes, ATTRIBUTES).map_err(|e| CheckpointError::io(&attributes, e))?;
        }
        let path = self.git_dir.join("config");
        let config = std::fs::read_to_string(&path).unwrap_or_default();
        if !config.contains(&format!("storeVersion = {STORE_VERSION}")) {
            // Stores before version 3 kept an index of the project's files; nothing reads it now.
            self.forget_index();
            // Appended as text rather than by one `git config` per key (a dozen processes, tens of
            // milliseconds before a new project's first message): for a single-valued key git
            // takes the last value in the file, so these win over what `git init` or an older
            // version of the store wrote, which stays untouched (`[extensions]` included).
            let mut file = std::fs::OpenOptions::new()
                .append(true)
                .open(&path)
                .map_err(|e| CheckpointError::io(&path, e))?;
            file.write_all(config_text().as_bytes()).map_err(|e| CheckpointError::io(&path, e))?;
        }
        Ok(())
    }

    /// A git command against the shadow repository, in an environment of its own and in the
    /// store's folder (never the project's).
    pub fn command(&self, args: &[&str]) -> Command {
        self.command_with(args, true)
    }

    /// [`Git::command`] for a git that outlives the store's lock (a long-lived one): it does not
    /// hold the lock with us.
    pub fn command_unheld(&self, args: &[&str]) -> Command {
        self.command_with(args, false)
    }

    fn command_with(&self, args: &[&str], hold: bool) -> Command {
        let mut command = Command::new("git");
        command
            .args(args)
            .env_clear()
            .env("GIT_DIR", &self.git_dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", null_device())
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("GIT_AUTHOR_NAME", AUTHOR)
            .env("GIT_AUTHOR_EMAIL", EMAIL)
            .env("GIT_COMMITTER_NAME", AUTHOR)
            .env("GIT_COMMITTER_EMAIL", EMAIL)
            .env("LC_ALL", "C")
            .current_dir(&self.git_dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(path) = std::env::var_os("PATH") {
            command.env("PATH", path);
        }
        // A group of its own, so that the time limit stops whatever it started too.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        #[cfg(unix)]
        {
            let held = self.held.load(Ordering::SeqCst);
            if hold && held >= 0 {
                crate::containment::inherit(&mut command, vec![held]);
            }
        }
        command
    }

    /// Run `git args` with `input` on stdin; its stdout, or why it failed.
    pub fn run(&self, args: &[&str], input: Option<&[u8]>) -> Result<Vec<u8>, CheckpointError> {
        self.run_with(self.command(args), args, input)
    }

    /// Run a prepared command (extra environment, such as a temporary index), killed when it
    /// runs past the time limit.
    pub fn run_with(
        &self,
        mut command: Command,
        args: &[&str],
        input: Option<&[u8]>,
    ) -> Result<Vec<u8>, CheckpointError> {
        if input.is_some() {
            command.stdin(Stdio::piped());
        }
        let what = || format!("git {}", args.first().copied().unwrap_or_default());
        let mut child = command.spawn().map_err(|e| CheckpointError::Git {
            command: what(),
            message: format!("could not start git: {e}"),
        })?;
        let watch = Watch::started(child.id(), self.time_limit);
        // Stdin, stdout and stderr each on their own thread so that no pipe can dead-lock
        // against another; all three end when the git does (or is killed).
        let writer = match (input, child.stdin.take()) {
            (Some(bytes), Some(mut stdin)) => {
                let bytes = bytes.to_vec();
                Some(std::thread::spawn(move || stdin.write_all(&bytes)))
            }
            _ => None,
        };
        let stderr = child.stderr.take().map(|mut pipe| {
            std::thread::spawn(move || {
                let mut out = Vec::new();
                let _ = std::io::Read::read_to_end(&mut pipe, &mut out);
                out
            })
        });
        let mut stdout = Vec::new();
        let read = match child.stdout.take() {
            Some(mut pipe) => std::io::Read::read_to_end(&mut pipe, &mut stdout).map(drop),
            None => Ok(()),
        };
        let stderr = stderr.and_then(|t| t.join().ok()).unwrap_or_default();
        if let Some(writer) = writer {
            let _ = writer.join();
        }
        // Disarmed before the git is reaped, so the watch can only ever kill the git itself.
        let killed = watch.disarm();
        drop(watch);
        let status =
            child.wait().map_err(|e| CheckpointError::Git { command: what(), message: e.to_string() })?;
        if killed {
            return Err(CheckpointError::Git {
                command: what(),
                message: format!("did not finish within {} s and was stopped", self.time_limit.as_secs()),
            });
        }
        read.map_err(|e| CheckpointError::Git { command: what(), message: e.to_string() })?;
        if !status.success() {
            let stderr = String::from_utf8_lossy(&stderr);
            let message = stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("failed").trim();
            return Err(CheckpointError::Git { command: what(), message: message.to_owned() });
        }
        Ok(stdout)
    }

    /// Remove the index of older stores (and the shared parts of a split one, and a lock a killed
    /// git left on it).
    fn forget_index(&self) {
        let _ = std::fs::remove_file(self.git_dir.join("index"));
        let _ = std::fs::remove_file(self.git_dir.join("index.lock"));
        if let Ok(entries) = std::fs::read_dir(&self.git_dir) {
            for entry in entries.filter_map(Result::ok) {
                if entry.file_name().to_string_lossy().starts_with("sharedindex.") {
                    let _ = std::fs::remove_file(entry.path());
                }
            }
        }
    }
}

fn null_device() -> &'static str {
    if cfg!(windows) {
        "NUL"
    } else {
        "/dev/null"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(git: &Git, key: &str) -> String {
        let out = git.run(&["config", "--get", key], None).unwrap_or_else(|e| panic!("{key}: {e}"));
        String::from_utf8_lossy(&out).trim().to_owned()
    }

    #[test]
    fn a_new_store_has_every_setting_and_an_old_one_gets_them() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let git = Git::new(dir.path().join("store"));
        git.init().unwrap_or_else(|e| panic!("{e}"));
        for (key, expected) in CONFIG {
            assert_eq!(value(&git, key), *expected, "{key}");
        }

        // A store of an older version, with a setting since changed: the new value wins, and what
        // git itself wrote stays.
        git.run(&["config", "warden.storeVersion", "1"], None).unwrap_or_else(|e| panic!("{e}"));
        git.run(&["config", "core.compression", "9"], None).unwrap_or_else(|e| panic!("{e}"));
        git.init().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(value(&git, "core.compression"), "1");
        assert_eq!(value(&git, "warden.storeVersion"), STORE_VERSION);
        assert_eq!(value(&git, "core.repositoryformatversion"), "0");

        // Opening again changes nothing.
        let before = std::fs::read(git.git_dir().join("config")).unwrap_or_else(|e| panic!("{e}"));
        git.init().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(std::fs::read(git.git_dir().join("config")).unwrap_or_else(|e| panic!("{e}")), before);
    }

    /// The store's gits are never handed a project path, but a git that blocks — here in `open`
    /// of a FIFO, as `update-index` once did on a FIFO swapped into the project — is stopped at
    /// the time limit, with whatever it started, and said so.
    #[cfg(unix)]
    #[test]
    fn a_git_that_blocks_is_stopped_at_the_time_limit() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let git = Git::new(dir.path().join("store")).with_time_limit(Duration::from_millis(300));
        git.init().unwrap_or_else(|e| panic!("{e}"));
        let fifo = dir.path().join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600))
            .unwrap_or_else(|e| panic!("{e}"));
        let started = std::time::Instant::now();
        let fifo_arg = fifo.to_string_lossy().into_owned();
        let error = git.run(&["hash-object", &fifo_arg], None).map(drop).unwrap_err();
        assert!(error.to_string().contains("did not finish within"), "{error}");
        // What the git started goes with it (a shell alias running `sleep`, holding the pipes).
        let error = git.run(&["-c", "alias.hang=!sleep 60", "hang"], None).map(drop).unwrap_err();
        assert!(error.to_string().contains("did not finish within"), "{error}");
        assert!(started.elapsed() < Duration::from_secs(30), "{:?}", started.elapsed());
    }
}

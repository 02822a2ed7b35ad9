//! The shadow repository: git's plumbing run against Warden's own `GIT_DIR` with the project as
//! the work tree. Nothing of the user's git reaches it — no system or global config, no
//! environment `GIT_*` variable, no attribute filter or line-ending conversion (the store's
//! `info/attributes` turns them off, and it wins over the project's `.gitattributes`), no hook —
//! so a snapshot holds the project's bytes exactly and the project's own `.git` is never read or
//! written.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};

use super::CheckpointError;

/// Settings of the shadow repository, written when it is made and checked on every open.
const CONFIG: &[(&str, &str)] = &[
    ("core.bare", "false"),
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
    // The index of a large project is megabytes; split, a one-file update writes a small file
    // instead of the whole index again.
    ("core.splitIndex", "true"),
    // Bumped when the settings above change, so existing stores get them.
    ("warden.storeVersion", STORE_VERSION),
];

const STORE_VERSION: &str = "2";

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
    work_tree: PathBuf,
    /// The store's lock while it is held (a file descriptor; -1 when not held). Each git started
    /// meanwhile holds it too, so a git that outlives a killed Warden keeps the store locked until
    /// it ends — and a lock file of git's found under the store's lock is truly stale.
    held: AtomicI32,
}

impl Git {
    pub fn new(git_dir: PathBuf, work_tree: PathBuf) -> Self {
        Self { git_dir, work_tree, held: AtomicI32::new(-1) }
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
            self.run(&["init", "--quiet"], None)?;
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

    /// A git command against the shadow repository, in an environment of its own.
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
            .env("GIT_WORK_TREE", &self.work_tree)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", null_device())
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("GIT_AUTHOR_NAME", AUTHOR)
            .env("GIT_AUTHOR_EMAIL", EMAIL)
            .env("GIT_COMMITTER_NAME", AUTHOR)
            .env("GIT_COMMITTER_EMAIL", EMAIL)
            .env("LC_ALL", "C")
            .current_dir(&self.work_tree)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(path) = std::env::var_os("PATH") {
            command.env("PATH", path);
        }
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

    /// Run a prepared command (extra environment, such as a temporary index).
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
        // Write stdin from another thread so a large output cannot dead-lock against it.
        let writer = match (input, child.stdin.take()) {
            (Some(bytes), Some(mut stdin)) => {
                let bytes = bytes.to_vec();
                Some(std::thread::spawn(move || stdin.write_all(&bytes)))
            }
            _ => None,
        };
        let output = child
            .wait_with_output()
            .map_err(|e| CheckpointError::Git { command: what(), message: e.to_string() })?;
        if let Some(writer) = writer {
            let _ = writer.join();
        }
        if !output.status.success() {
            let stderr = String::from_utf8_lossy(&output.stderr);
            let message = stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("failed").trim();
            return Err(CheckpointError::Git { command: what(), message: message.to_owned() });
        }
        Ok(output.stdout)
    }

    /// Run and return the output's first line (an object id).
    pub fn oid(&self, args: &[&str], input: Option<&[u8]>) -> Result<String, CheckpointError> {
        let out = self.run(args, input)?;
        let text = String::from_utf8_lossy(&out);
        let oid = text.trim();
        if oid.len() < 40 || !oid.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(CheckpointError::Git {
                command: format!("git {}", args.first().copied().unwrap_or_default()),
                message: format!("unexpected output `{oid}`"),
            });
        }
        Ok(oid.to_owned())
    }

    /// Remove the index (and the shared parts of a split one): the next `update-index` of every
    /// file makes it again.
    pub fn forget_index(&self) {
        let _ = std::fs::remove_file(self.git_dir.join("index"));
        if let Ok(entries) = std::fs::read_dir(&self.git_dir) {
            for entry in entries.filter_map(Result::ok) {
                if entry.file_name().to_string_lossy().starts_with("sharedindex.") {
                    let _ = std::fs::remove_file(entry.path());
                }
            }
        }
    }

    /// The index git keeps for the project's current state; a stale lock left by a killed git
    /// is removed (callers hold the store's lock, so no other git of Warden's is running).
    pub fn clear_stale_index_lock(&self) {
        let lock = self.git_dir.join("index.lock");
        if lock.exists() {
            tracing::warn!(path = %lock.display(), "removing a checkpoint index lock left by a killed process");
            let _ = std::fs::remove_file(lock);
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

/// NUL-separated path list for `--stdin -z`.
pub(super) fn nul_list<'a>(paths: impl IntoIterator<Item = &'a [u8]>) -> Vec<u8> {
    let mut out = Vec::new();
    for path in paths {
        out.extend_from_slice(path);
        out.push(0);
    }
    out
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
        let work = dir.path().join("work");
        std::fs::create_dir_all(&work).unwrap_or_else(|e| panic!("{e}"));
        let git = Git::new(dir.path().join("store"), work);
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
}

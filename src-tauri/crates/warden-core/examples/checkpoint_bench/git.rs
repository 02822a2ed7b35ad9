//! The git contestant of `checkpoint_bench`: the `git` CLI, untuned or configured as its users
//! configure it for speed, and the file system monitor that configuration asks for.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub type Error = Box<dyn std::error::Error>;

/// How git is configured for one command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tuning {
    /// Git's defaults (no background housekeeping, as for every contestant).
    Untuned,
    /// `core.untrackedCache`, `index.threads`, `pack.threads`, `feature.manyFiles`.
    Tuned,
    /// [`Tuning::Tuned`] and `core.fsmonitor`.
    TunedFsmonitor,
}

/// The file system monitor git's `core.fsmonitor` talks to, started for this run and stopped when
/// dropped: git's builtin daemon where this git has it (`git fsmonitor--daemon`, macOS and Windows
/// builds), else Watchman through git's `fsmonitor-watchman` hook (Linux), on a server of its own.
pub struct Fsmonitor {
    kind: MonitorKind,
    /// The git directories and work trees the builtin daemon was used for (one daemon each).
    used: std::cell::RefCell<Vec<(Option<PathBuf>, PathBuf)>>,
}

enum MonitorKind {
    Builtin,
    /// `bin` holds a `watchman` that is the real one on this run's server: Watchman 4.9's client
    /// does not take its socket from the environment, and the hook runs plain `watchman`.
    Watchman {
        socket: PathBuf,
        hook: PathBuf,
        bin: PathBuf,
    },
    Unavailable(String),
}

impl Fsmonitor {
    /// Find and start a monitor; `state` is a folder for Watchman's socket, state and log.
    pub fn start(state: &Path) -> Self {
        let used = std::cell::RefCell::new(Vec::new());
        let build = Command::new("git").args(["version", "--build-options"]).output();
        if build.is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("feature: fsmonitor--daemon")) {
            return Self { kind: MonitorKind::Builtin, used };
        }
        let kind = match start_watchman(state) {
            Ok((socket, hook, bin)) => MonitorKind::Watchman { socket, hook, bin },
            Err(why) => MonitorKind::Unavailable(format!(
                "this git has no builtin fsmonitor daemon (`git fsmonitor--daemon` is not supported on \
                 this platform) and Watchman could not be used: {why}"
            )),
        };
        Self { kind, used }
    }

    pub fn available(&self) -> bool {
        !matches!(self.kind, MonitorKind::Unavailable(_))
    }

    /// What `core.fsmonitor` is, in words for the printed rows.
    pub fn describe(&self) -> String {
        match &self.kind {
            MonitorKind::Builtin => "core.fsmonitor=true (git's builtin fsmonitor daemon)".into(),
            MonitorKind::Watchman { .. } => "core.fsmonitor=fsmonitor-watchman hook (Watchman daemon; \
                 this git has no builtin fsmonitor daemon on Linux)"
                .into(),
            MonitorKind::Unavailable(why) => format!("no fsmonitor: {why}"),
        }
    }
}

impl Drop for Fsmonitor {
    fn drop(&mut self) {
        match &self.kind {
            MonitorKind::Builtin => {
                for (git_dir, work_tree) in self.used.borrow().iter() {
                    let mut stop = Command::new("git");
                    stop.args(["fsmonitor--daemon", "stop"]).current_dir(work_tree);
                    if let Some(dir) = git_dir {
                        stop.env("GIT_DIR", dir).env("GIT_WORK_TREE", work_tree);
                    }
                    let _ = stop.stdout(Stdio::null()).stderr(Stdio::null()).status();
                }
            }
            MonitorKind::Watchman { socket, .. } => {
                let _ = Command::new("watchman")
                    .arg(format!("--sockname={}", socket.display()))
                    .arg("shutdown-server")
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status();
            }
            MonitorKind::Unavailable(_) => {}
        }
    }
}

/// A Watchman server of this run's own (its socket, state and log in `state`), git's hook for it
/// (made executable there) and a folder whose `watchman` talks to that server.
fn start_watchman(state: &Path) -> Result<(PathBuf, PathBuf, PathBuf), String> {
    let sample = std::env::var_os("GIT_FSMONITOR_HOOK")
        .map(PathBuf::from)
        .unwrap_or_else(|| "/usr/share/git-core/templates/hooks/fsmonitor-watchman.sample".into());
    let hook = state.join("fsmonitor-watchman");
    std::fs::create_dir_all(state).map_err(|e| e.to_string())?;
    std::fs::copy(&sample, &hook).map_err(|e| format!("git's hook {}: {e}", sample.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).map_err(|e| e.to_string())?;
    }
    let socket = state.join("watchman.sock");
    let started = Command::new("watchman")
        .arg(format!("--sockname={}", socket.display()))
        .arg(format!("--statefile={}", state.join("watchman.state").display()))
        .arg(format!("--logfile={}", state.join("watchman.log").display()))
        .arg(format!("--pidfile={}", state.join("watchman.pid").display()))
        .args(["--no-save-state", "get-sockname"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    let bin = state.join("bin");
    let real = String::from_utf8_lossy(
        &Command::new("sh").args(["-c", "command -v watchman"]).output().map_err(|e| e.to_string())?.stdout,
    )
    .trim()
    .to_owned();
    std::fs::create_dir_all(&bin).map_err(|e| e.to_string())?;
    let wrapper = format!("#!/bin/sh\nexec '{real}' --sockname='{}' \"$@\"\n", socket.display());
    std::fs::write(bin.join("watchman"), wrapper).map_err(|e| e.to_string())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(bin.join("watchman"), std::fs::Permissions::from_mode(0o755))
            .map_err(|e| e.to_string())?;
    }
    match started {
        Ok(status) if status.success() => Ok((socket, hook, bin)),
        Ok(status) => Err(format!("`watchman get-sockname` failed ({status})")),
        Err(e) => Err(format!("watchman: {e} (install it: apt-get install watchman)")),
    }
}

/// Runs `git` scripts as a contestant.
pub struct Git<'a> {
    pub monitor: &'a Fsmonitor,
    /// Extra settings after the tuning's (e.g. `index.skipHash=false` on a project's own index).
    pub extra: Vec<(&'static str, String)>,
}

impl Git<'_> {
    /// The settings of `tuning`, in order.
    pub fn settings(&self, tuning: Tuning) -> Vec<(&'static str, String)> {
        // No housekeeping in the background while the next command is timed (Warden's store has
        // none either): tens of thousands of loose objects would start `git gc --auto`.
        let mut settings = vec![("gc.auto", "0".to_owned()), ("maintenance.auto", "false".to_owned())];
        if tuning != Tuning::Untuned {
            let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
            settings.extend([
                ("feature.manyFiles", "true".to_owned()),
                ("core.untrackedCache", "true".to_owned()),
                ("index.threads", "true".to_owned()),
                ("pack.threads", cores.to_string()),
            ]);
        }
        if tuning == Tuning::TunedFsmonitor {
            match &self.monitor.kind {
                MonitorKind::Builtin => settings.push(("core.fsmonitor", "true".to_owned())),
                MonitorKind::Watchman { hook, .. } => {
                    settings.push(("core.fsmonitor", hook.display().to_string()));
                }
                MonitorKind::Unavailable(_) => {}
            }
        }
        settings.extend(self.extra.iter().cloned());
        settings
    }

    /// Run `git <script>` (a shell line; `&& git …` chains more) over `work_tree`, with the
    /// repository in `git_dir` (`None`: the work tree's own `.git`); its output is dropped.
    pub fn run(
        &self,
        tuning: Tuning,
        git_dir: Option<&Path>,
        work_tree: &Path,
        script: &str,
    ) -> Result<(), Error> {
        let status = self.command(tuning, git_dir, work_tree, script).stdout(Stdio::null()).status()?;
        if !status.success() {
            return Err(format!("git {script} failed ({tuning:?})").into());
        }
        Ok(())
    }

    /// What `git <script>` printed (the work tree's own `.git`).
    pub fn output(&self, tuning: Tuning, work_tree: &Path, script: &str) -> Result<String, Error> {
        let out = self.command(tuning, None, work_tree, script).output()?;
        if !out.status.success() {
            return Err(format!("git {script} failed ({tuning:?})").into());
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    fn command(&self, tuning: Tuning, git_dir: Option<&Path>, work_tree: &Path, script: &str) -> Command {
        let mut command = Command::new("sh");
        command.arg("-c").arg(format!("git {script}")).current_dir(work_tree);
        if let Some(dir) = git_dir {
            command.env("GIT_DIR", dir).env("GIT_WORK_TREE", work_tree);
        }
        let settings = self.settings(tuning);
        command.env("GIT_CONFIG_COUNT", settings.len().to_string());
        for (i, (key, value)) in settings.iter().enumerate() {
            command.env(format!("GIT_CONFIG_KEY_{i}"), key).env(format!("GIT_CONFIG_VALUE_{i}"), value);
        }
        if let (Tuning::TunedFsmonitor, MonitorKind::Watchman { bin, .. }) = (tuning, &self.monitor.kind) {
            let path = std::env::var_os("PATH").unwrap_or_default();
            let mut paths = vec![bin.clone()];
            paths.extend(std::env::split_paths(&path));
            command.env("PATH", std::env::join_paths(paths).unwrap_or(path));
        }
        if tuning == Tuning::TunedFsmonitor && matches!(self.monitor.kind, MonitorKind::Builtin) {
            let key = (git_dir.map(Path::to_path_buf), work_tree.to_path_buf());
            let mut used = self.monitor.used.borrow_mut();
            if !used.contains(&key) {
                used.push(key);
            }
        }
        command
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "bench")
            .env("GIT_AUTHOR_EMAIL", "bench@localhost")
            .env("GIT_COMMITTER_NAME", "bench")
            .env("GIT_COMMITTER_EMAIL", "bench@localhost");
        command
    }
}

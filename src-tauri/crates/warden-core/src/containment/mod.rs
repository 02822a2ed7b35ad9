//! The OS box every command Warden starts for the model runs in: the whole system readable except
//! the secret locations (hidden), writable only in the project, a private `/tmp` and the build
//! caches, no network unless allowed, its own process tree that dies with the command.
//!
//! One policy type ([`BoxPolicy`]) and one way in ([`launch`]): it turns a command line into the
//! program Warden actually spawns. On Linux that is bubblewrap with a seccomp filter as a second
//! wall ([`bwrap`], [`seccomp`]); where bubblewrap cannot run (not installed, user namespaces
//! disabled), Landlock with the same seccomp filter (`landlock`, which says what it does
//! differently); where neither can, commands are not contained and [`mechanism`] says why, so the
//! window and the policy can say and act on it.
//! This is the process boundary; the path sandbox (`crate::sandbox`) is the file tools' boundary.

mod bwrap;
mod hidden;
#[cfg(target_os = "linux")]
mod landlock;
#[cfg(target_os = "linux")]
mod seccomp;

use std::ffi::OsString;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

pub use hidden::{hidden_locations, writable_caches};

/// What a boxed command may do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoxPolicy {
    /// The project root (canonical): readable and writable, except what `read_only` and `hidden`
    /// take back.
    pub project: PathBuf,
    /// Other writable folders (the package managers' caches, folders the user added).
    pub writable: Vec<PathBuf>,
    /// Locations that look empty inside the box: secret folders and files, Warden's own home, the
    /// session's sockets.
    pub hidden: Vec<PathBuf>,
    /// Paths inside writable folders that stay read-only (`.git/hooks`, `.git/config`).
    pub read_only: Vec<PathBuf>,
    /// Whether the command may use the network (TCP/UDP, anywhere, loopback included).
    pub network: bool,
}

impl BoxPolicy {
    /// The default box for a project: writes in the project and the existing build caches, the
    /// secret locations of this user (and `warden_dirs`, Warden's own config and data) hidden,
    /// the project's git hooks and config read-only, no network.
    pub fn for_project(project: &Path, warden_dirs: &[PathBuf]) -> Self {
        Self::with_home(project, dirs::home_dir().as_deref(), warden_dirs)
    }

    /// [`BoxPolicy::for_project`] for the user whose home is `home`.
    pub fn with_home(project: &Path, home: Option<&Path>, warden_dirs: &[PathBuf]) -> Self {
        let mut hidden = hidden_locations(home, project);
        hidden.extend(warden_dirs.iter().filter(|d| d.exists()).cloned());
        // A hidden folder that holds the project would hide the project itself.
        hidden.retain(|h| !project.starts_with(h));
        let read_only =
            [".git/hooks", ".git/config"].iter().map(|p| project.join(p)).filter(|p| p.exists()).collect();
        Self {
            project: project.to_path_buf(),
            writable: home.map(writable_caches).unwrap_or_default(),
            hidden,
            read_only,
            network: false,
        }
    }

    /// A short line for the tool block: "no network · writes: project".
    pub fn summary(&self) -> String {
        let network = if self.network { "network" } else { "no network" };
        let writes = if self.writable.is_empty() { "project" } else { "project, build caches" };
        format!("{network} · writes: {writes}")
    }
}

/// How commands are contained on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mechanism {
    /// bubblewrap (namespaces and mounts) plus a seccomp filter.
    Bubblewrap { program: PathBuf },
    /// Landlock (filesystem, TCP, signals) plus the same seccomp filter, where bubblewrap cannot
    /// run; `abi` is the kernel's Landlock version. The `landlock` module says what it does differently.
    Landlock { abi: u8 },
    /// Commands run as the user, with only the path sandbox and the blocklist between them and
    /// the machine; `why` says what is missing.
    Unavailable { why: String },
}

impl Mechanism {
    pub fn is_contained(&self) -> bool {
        !matches!(self, Self::Unavailable { .. })
    }

    /// For Settings: "bubblewrap" or "none (why)".
    pub fn describe(&self) -> String {
        match self {
            Self::Bubblewrap { .. } => "bubblewrap + seccomp".to_owned(),
            Self::Landlock { abi } => format!("Landlock (ABI {abi}) + seccomp"),
            Self::Unavailable { why } => format!("none: {why}"),
        }
    }
}

/// The environment variable that forces a mechanism: `bwrap`, `landlock` (for tests), or `none`
/// (for users whose machine cannot run the box and who accept that).
pub const MECHANISM_ENV: &str = "WARDEN_SANDBOX";

/// The mechanism of this machine, found once: bubblewrap when it is installed and can create the
/// namespaces it needs here, else Landlock when the kernel has it.
pub fn mechanism() -> &'static Mechanism {
    static FOUND: OnceLock<Mechanism> = OnceLock::new();
    FOUND.get_or_init(|| match std::env::var(MECHANISM_ENV).as_deref() {
        Ok("none") => Mechanism::Unavailable { why: format!("{MECHANISM_ENV}=none") },
        Ok("bwrap") => bwrap::probe(),
        #[cfg(target_os = "linux")]
        Ok("landlock") => landlock::probe(),
        #[cfg(target_os = "linux")]
        _ => landlock::fallback(bwrap::probe()),
        #[cfg(not(target_os = "linux"))]
        _ => bwrap::probe(),
    })
}

/// What to spawn for one boxed command.
#[derive(Debug)]
pub struct Launch {
    pub program: PathBuf,
    pub args: Vec<OsString>,
    /// Descriptors the program must inherit (the seccomp programs bubblewrap reads, the lock of
    /// the Landlock box's scratch folder). They are close-on-exec; [`Launch::inherit_fds`] clears
    /// that in the child.
    pub fds: Vec<OwnedFd>,
    /// Whether the command runs contained (false when no mechanism works here).
    pub contained: bool,
    /// What the child applies to itself before exec (the Landlock fallback), prepared here.
    restriction: Option<std::sync::Arc<Restriction>>,
}

#[cfg(target_os = "linux")]
use landlock::Restriction;
/// No restriction is applied in the child on other systems.
#[cfg(not(target_os = "linux"))]
#[derive(Debug)]
enum Restriction {}

impl Launch {
    /// The command to spawn. Keep `self` alive until it is spawned: the child inherits
    /// [`Launch::fds`] (their close-on-exec flag is cleared in the child only).
    pub fn command(&self) -> std::process::Command {
        let mut cmd = std::process::Command::new(&self.program);
        cmd.args(&self.args);
        #[cfg(unix)]
        inherit(&mut cmd, self.fds.iter().map(std::os::fd::AsRawFd::as_raw_fd).collect());
        #[cfg(target_os = "linux")]
        if let Some(restriction) = &self.restriction {
            Restriction::install(restriction, &mut cmd);
        }
        cmd
    }
}

#[cfg(unix)]
#[allow(unsafe_code)]
fn inherit(cmd: &mut std::process::Command, fds: Vec<i32>) {
    use std::os::unix::process::CommandExt;
    if fds.is_empty() {
        return;
    }
    // SAFETY: runs in the forked child between fork and exec; fcntl(2) is async-signal-safe, and
    // the closure only reads its own Vec (allocated before the fork) and builds an io::Error from
    // an errno without allocating.
    unsafe {
        cmd.pre_exec(move || {
            for &fd in &fds {
                nix::fcntl::fcntl(fd, nix::fcntl::FcntlArg::F_SETFD(nix::fcntl::FdFlag::empty()))
                    .map_err(|errno| std::io::Error::from_raw_os_error(errno as i32))?;
            }
            Ok(())
        });
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ContainError {
    #[error("cannot prepare the command's sandbox: {0}")]
    Setup(String),
}

/// The program and arguments that run `argv` in `cwd` inside the box, or `argv` itself when
/// commands cannot be contained here (`contained: false`; the caller says so).
pub fn launch(policy: &BoxPolicy, argv: &[OsString], cwd: &Path) -> Result<Launch, ContainError> {
    match mechanism() {
        Mechanism::Bubblewrap { program } => bwrap::launch(program, policy, argv, cwd),
        #[cfg(target_os = "linux")]
        Mechanism::Landlock { abi } => landlock::launch(*abi, policy, argv, cwd),
        #[cfg(not(target_os = "linux"))]
        Mechanism::Landlock { .. } => Err(ContainError::Setup("Landlock is Linux-only".to_owned())),
        Mechanism::Unavailable { .. } => {
            let (program, args) =
                argv.split_first().ok_or_else(|| ContainError::Setup("no command".into()))?;
            Ok(Launch {
                program: PathBuf::from(program),
                args: args.to_vec(),
                fds: Vec::new(),
                contained: false,
                restriction: None,
            })
        }
    }
}

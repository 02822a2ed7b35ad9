//! The OS box every command Warden starts for the model runs in: the whole system readable except
//! the user's home, of which it sees only the toolchains ([`home`]), and the secret locations
//! (hidden); writable only in the project and a private `/tmp` (the package caches are read-only,
//! with the project's private layer over them: [`cache_layer`]), no network unless allowed, its
//! own process tree that dies with the command.
//!
//! One policy type ([`BoxPolicy`]) and one way in ([`launch`]): it turns a command line into the
//! program Warden actually spawns. On Linux that is bubblewrap with a seccomp filter as a second
//! wall ([`bwrap`], [`seccomp`]); where bubblewrap cannot run (not installed, user namespaces
//! disabled), Landlock with the same seccomp filter (`landlock`, which says what it does
//! differently); on macOS Seatbelt ([`seatbelt`]); where none can, commands are not contained and
//! [`mechanism`] says why, so the window and the policy can say and act on it. Which box a
//! platform uses is decided in one place, [`platform`].
//! This is the process boundary; the path sandbox (`crate::sandbox`) is the file tools' boundary.

mod bwrap;
pub mod cache_layer;
mod explain;
mod git_aside;
mod git_before;
mod git_config;
mod git_metadata;
mod git_repositories;
mod git_snapshot;
mod hidden;
mod home;
#[cfg(target_os = "linux")]
mod landlock;
pub mod launcher;
mod layer_support;
pub mod long_lived;
mod mechanism;
pub mod net;
mod seatbelt;
#[cfg(target_os = "linux")]
mod seccomp;
mod started;

use std::ffi::OsString;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

pub use explain::{explain_denial, hidden_home_paths, readable_offers, refusals};
pub use git_aside::{restore as restore_git_aside, ASIDE_DIR as GIT_ASIDE_DIR};
pub use git_before::GitBefore;
pub use git_metadata::Swept;
pub use hidden::{credential_locations, hidden_locations, package_caches};
pub use home::{git_config as home_git_config, toolchains as home_toolchains};
pub use mechanism::{
    cache_layer_unavailable, mechanism, probe_in_background, try_cache_layer, Mechanism, MECHANISM_ENV,
};
pub use started::may_have_written;
pub(crate) use started::note_unboxed;

/// What a boxed command may do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoxPolicy {
    /// The project root (canonical): readable and writable, except what `read_only` and `hidden`
    /// take back.
    pub project: PathBuf,
    /// Other writable folders (the project's extra writable folders, `warden sandbox --write`).
    pub writable: Vec<PathBuf>,
    /// The user's package caches that exist (`~/.cargo/registry`, `~/.npm`, …): read-only in the
    /// box, since they hold code that runs outside it later; in bubblewrap's box with the
    /// project's private layer over them when `cache_layer` names one ([`cache_layer`]).
    pub caches: Vec<PathBuf>,
    /// The project's cache layer (`<project storage>/cache-layer`), where what the box writes to
    /// the caches goes. `None`: the caches are only read-only.
    pub cache_layer: Option<PathBuf>,
    /// Locations that look empty inside the box: secret folders and files, Warden's own home, the
    /// session's sockets.
    pub hidden: Vec<PathBuf>,
    /// Paths inside writable folders that stay read-only (the code-running parts of `.git`, see
    /// [`git_metadata`]).
    pub read_only: Vec<PathBuf>,
    /// Folders inside the project that cannot be renamed or replaced (the `.git` folder), though
    /// what is in them stays writable (bubblewrap binds them onto themselves).
    pub pinned: Vec<PathBuf>,
    /// Folders the command still sees, read-only, where the box would not show them (under the
    /// private `/tmp` or `/var/tmp`, in the emptied home): where a user's MCP server's own program
    /// lives, the folder it starts in. Hidden locations inside them stay hidden.
    pub visible: Vec<PathBuf>,
    /// Whether the command may use the network. In bubblewrap's box that is through Warden's proxy
    /// only ([`net`]): the public internet, and this machine or its networks where a rule names
    /// them. The Landlock fallback too from ABI 4 (TCP to the proxy's loopback port only); before
    /// that, and in Seatbelt's box, the host's network.
    pub network: bool,
    /// What the proxy lets through for this box (bubblewrap): the user's and the project's
    /// network rules.
    pub network_rules: net::Rules,
    /// The user's home, which the box shows empty but for `readable`, the writable caches and the
    /// user's git configuration without credentials (bubblewrap: a read-only tmpfs; Landlock: not
    /// granted). `None` when there is none to empty (unknown, `/`, or inside the project); Seatbelt
    /// does not use it (macOS keeps the home readable but for the hidden locations).
    pub home: Option<PathBuf>,
    /// Read-only paths shown in the emptied home, or elsewhere: the toolchains ([`home`]) and the
    /// project's "paths the box may read". Hidden locations inside them stay hidden.
    pub readable: Vec<PathBuf>,
    /// Whether the user's home was known when the box was drawn. Without it none of the home's
    /// secrets are in `hidden`, and [`launch_with`] builds no box.
    pub home_known: bool,
    /// The session's network namespace, which a box with the network joins (bubblewrap): a
    /// server one command starts is reachable from the next, and forwarded to the host. `None`
    /// for a box alone (`warden sandbox`, an MCP server), which gets a network of its own.
    pub shared_net: Option<net::SharedNet>,
    /// The proxy a box alone goes out through, instead of the one this process keeps for its
    /// rules ([`net::proxy_for`]): a local MCP server's, which asks the user about each new host
    /// in the server's name. Its rules are the proxy's own; `network_rules` is not read then.
    pub own_proxy: Option<net::OwnProxy>,
    /// Where what a box leaves in the project's git metadata is moved (`<project storage>/git-aside`),
    /// for a box that outlives its call ([`long_lived`]). `None`: nowhere of Warden's to move it.
    pub git_aside: Option<PathBuf>,
}

impl BoxPolicy {
    /// The same box with nothing writable and no network (plan mode): the project (its `.git`
    /// too) and every cache read-only, no cache layer, no proxy, a network of its own that reaches
    /// nothing. What it hides stays hidden.
    pub fn read_only_variant(&self) -> Self {
        let mut policy = self.clone();
        policy.read_only.insert(0, policy.project.clone());
        policy.writable.clear();
        policy.pinned.clear();
        policy.cache_layer = None;
        policy.network = false;
        policy.shared_net = None;
        policy.own_proxy = None;
        policy.git_aside = None;
        policy
    }

    /// The default box for a project: of the home only the toolchains and the package caches
    /// (read-only; [`BoxPolicy::with_cache_layer`] gives them a layer), writes in the project, the secret locations of this user (and `warden_dirs`, Warden's
    /// own config and data) hidden, the project's git hooks and config read-only, no network.
    pub fn for_project(project: &Path, warden_dirs: &[PathBuf]) -> Self {
        Self::with_home(project, dirs::home_dir().as_deref(), warden_dirs)
    }

    /// [`BoxPolicy::for_project`] for the user whose home is `home`.
    pub fn with_home(project: &Path, home: Option<&Path>, warden_dirs: &[PathBuf]) -> Self {
        let mut hidden = hidden_locations(home, project);
        hidden.extend(warden_dirs.iter().filter(|d| d.exists()).cloned());
        // A hidden folder that holds the project would hide the project itself.
        hidden.retain(|h| !project.starts_with(h));
        let git = git_metadata::guard(project);
        let mut readable = home.map(home::toolchains).unwrap_or_default();
        // A toolchain entry that is a link to a secret location (or to a folder holding one) would
        // show it under another name, where covering it at its own path does not reach.
        // So does one inside a hidden location: only the user's explicit choice may lie there
        // ([`BoxPolicy::with_project_choices`]).
        readable
            .retain(|path| !leads_to_hidden(path, &hidden) && !hidden.iter().any(|h| path.starts_with(h)));
        Self {
            project: project.to_path_buf(),
            writable: Vec::new(),
            caches: home.map(package_caches).unwrap_or_default(),
            cache_layer: None,
            home: home.and_then(|home| home::emptied(home, project)),
            readable,
            hidden,
            read_only: git.read_only,
            pinned: git.pinned,
            visible: Vec::new(),
            network: false,
            network_rules: net::Rules::default(),
            home_known: home.is_some(),
            shared_net: None,
            own_proxy: None,
            git_aside: None,
        }
    }

    /// The box with the project's own choices: the network, extra writable folders (absolute,
    /// existing) and extra paths it may read (absolute, existing files or folders). A folder that
    /// would open the user's home (the home itself, `/` or any folder that holds the home) is
    /// refused and logged; secret locations stay hidden inside the others (they are covered after
    /// the folders are mounted). A path to read that is a known credential location, or inside
    /// one, is the user's explicit choice: it is shown (Settings warns about it); one inside
    /// Warden's own folders or the session's sockets never is.
    pub fn with_project_choices(
        mut self,
        network: bool,
        extra_writable: &[String],
        extra_readable: &[String],
        home: Option<&Path>,
    ) -> Self {
        self.network = network;
        for dir in extra_writable {
            match writable_folder(Path::new(dir), home) {
                Ok(dir) => self.writable.push(dir),
                Err(why) => tracing::warn!(dir, why, "extra writable folder not used"),
            }
        }
        self.with_readable(extra_readable, home)
    }

    /// The box with `paths` (files, folders or sockets) readable too, each taken only as it
    /// really is and never when it holds the home or lies in a location hidden on purpose; one that
    /// cannot be shown is logged and left out.
    pub fn with_readable(mut self, paths: &[String], home: Option<&Path>) -> Self {
        for path in paths {
            match self.readable_path(Path::new(path), home) {
                Ok(path) => self.readable.push(path),
                Err(why) => tracing::warn!(path, why, "extra readable path not used"),
            }
        }
        self
    }

    /// The box with `dir` (`<project storage>/cache-layer`) as the caches' private layer: what the
    /// box writes to a cache lands there, seen by this project's boxes only.
    pub fn with_cache_layer(mut self, dir: PathBuf) -> Self {
        self.cache_layer = Some(dir);
        self
    }

    /// Move what the box leaves in git metadata to `dir` when it outlives its call.
    pub fn with_git_aside(mut self, dir: PathBuf) -> Self {
        self.git_aside = Some(dir);
        self
    }

    /// Mark for the box's lifetime that it outlives its call ([`long_lived`]); take it before the
    /// box starts. `None` when there is nowhere to move what it leaves.
    pub fn outlives_its_call(&self) -> Option<long_lived::LongLived> {
        self.git_aside.as_deref().map(|aside| long_lived::start(&self.project, aside))
    }

    /// The proxy a box alone with the network goes out through: its own when it has one, else the
    /// one this process keeps for its rules.
    pub fn egress_proxy(&self) -> Result<std::sync::Arc<net::Proxy>, String> {
        match &self.own_proxy {
            Some(own) => Ok(own.proxy()),
            None => net::proxy_for(&self.network_rules),
        }
    }

    /// The ports of the session's network forwarded to this machine now (none without the
    /// network or a session).
    pub fn forwarded_ports(&self) -> Vec<net::Forward> {
        match &self.shared_net {
            Some(shared) if self.network => shared.forwarded(),
            _ => Vec::new(),
        }
    }

    /// `path` as a path the box may read, or why not. A hidden location it names is taken out of
    /// `hidden`; one that holds it stays there (what lies beside the chosen path stays hidden, and
    /// Seatbelt's box, which shows the home, keeps the chosen path hidden too), and the boxes of
    /// bubblewrap and Landlock show the chosen path through it.
    fn readable_path(&mut self, path: &Path, home: Option<&Path>) -> Result<PathBuf, &'static str> {
        if !path.is_absolute() {
            return Err("not an absolute path");
        }
        let real = std::fs::canonicalize(path).map_err(|_| "does not exist")?;
        let real_home = home.map(|h| std::fs::canonicalize(h).unwrap_or_else(|_| h.to_path_buf()));
        if real.parent().is_none() || real_home.is_some_and(|home| home.starts_with(&real)) {
            return Err("it would show the whole home folder");
        }
        let chosen = |hidden: &PathBuf| real.starts_with(hidden) || path.starts_with(hidden);
        let credential =
            |hidden: &PathBuf| home.is_some_and(|home| hidden::is_credential_location(home, hidden));
        if self.hidden.iter().any(|h| chosen(h) && !credential(h)) {
            return Err(
                "it is inside Warden's own folders, the session's sockets or a secret of the project",
            );
        }
        self.hidden.retain(|h| h != &real && h != path);
        Ok(real)
    }

    /// Whether a command's block may offer to let the project's commands read `path`: a path of
    /// the user's home that exists and that the box leaves out only because it shows the home's
    /// toolchains alone — never one it hides on purpose (a credential location, Warden's own
    /// folders, the session's sockets), the home itself or a folder holding it. The engine checks
    /// the offer again when the user takes it: the path came from a command's output, which the
    /// model controls.
    pub fn may_offer_read(&self, path: &Path) -> Result<(), &'static str> {
        let Some(home) = &self.home else { return Err("the box shows the whole home here") };
        if !path.is_absolute() || path.components().any(|c| matches!(c, std::path::Component::ParentDir)) {
            return Err("not a plain absolute path");
        }
        let real = std::fs::canonicalize(path).map_err(|_| "it does not exist")?;
        let real_home = std::fs::canonicalize(home).unwrap_or_else(|_| home.clone());
        if !real.starts_with(&real_home) || real == real_home {
            return Err("it is not inside the home");
        }
        if self.hidden.iter().any(|h| path.starts_with(h) || real.starts_with(h))
            || hidden::is_credential_location(home, path)
            || hidden::is_credential_location(home, &real)
        {
            return Err(
                "the box hides it on purpose (a credential, Warden's own files or the session's sockets)",
            );
        }
        if self.shows_in_home(&real) {
            return Err("the box shows it already");
        }
        Ok(())
    }

    /// Whether `path` is there in the box as far as the emptied home goes: outside the home, or
    /// inside something mounted in it (a toolchain, a cache, the project, a visible folder).
    /// Hidden locations are not considered here.
    pub fn shows_in_home(&self, path: &Path) -> bool {
        let Some(home) = &self.home else { return true };
        let real_home = std::fs::canonicalize(home).unwrap_or_else(|_| home.clone());
        if !path.starts_with(home) && !path.starts_with(&real_home) {
            return true;
        }
        // What holds the home is not a way into it: it was mounted before the home was emptied
        // (a visible folder under /tmp), or refused.
        let mounted = self.readable.iter().chain(&self.writable).chain(&self.caches).chain(&self.visible);
        mounted.chain([&self.project]).any(|dir| path.starts_with(dir) && !home.starts_with(dir))
    }

    /// A short line for the tool block: "no network · writes: project".
    pub fn summary(&self) -> String {
        let network = if self.network { "network" } else { "no network" };
        let writes = if self.writable.is_empty() { "project" } else { "project, extra folders" };
        let sockets = if mechanism().leaves_sockets_reachable(self.network) {
            " · this machine's unix sockets reachable"
        } else {
            ""
        };
        format!("{network} · writes: {writes}{sockets}")
    }
}

/// Whether `path` is a link whose target is, is inside, or holds a hidden location.
fn leads_to_hidden(path: &Path, hidden: &[PathBuf]) -> bool {
    let Ok(real) = std::fs::canonicalize(path) else { return true };
    real != path && hidden.iter().any(|h| real.starts_with(h) || h.starts_with(&real))
}

/// `dir` as a writable folder of the box, or why not.
fn writable_folder(dir: &Path, home: Option<&Path>) -> Result<PathBuf, &'static str> {
    if !dir.is_absolute() {
        return Err("not an absolute path");
    }
    let dir = std::fs::canonicalize(dir).map_err(|_| "does not exist")?;
    if !dir.is_dir() {
        return Err("not a folder");
    }
    let home = home.map(|h| std::fs::canonicalize(h).unwrap_or_else(|_| h.to_path_buf()));
    if dir.parent().is_none() || home.is_some_and(|home| home.starts_with(&dir)) {
        return Err("it would make the whole home folder writable");
    }
    Ok(dir)
}

/// What to spawn for one boxed command.
#[derive(Debug)]
pub struct Launch {
    pub program: PathBuf,
    pub args: Vec<OsString>,
    /// Descriptors the program must inherit (the seccomp program bubblewrap reads, the lock of
    /// the Landlock box's scratch folder). They are close-on-exec; [`Launch::inherit_fds`] clears
    /// that in the child.
    pub fds: Vec<OwnedFd>,
    /// Whether the command runs contained (false when no mechanism works here).
    pub contained: bool,
    /// Whether the box reaches out through this process's proxy ([`net::shared`]), which must then
    /// run for as long as the box does.
    pub proxied: bool,
    /// What the child applies to itself before exec (the Landlock fallback), prepared here.
    restriction: Option<std::sync::Arc<Restriction>>,
    /// The session's network namespace, entered by the child before bubblewrap starts.
    #[cfg(target_os = "linux")]
    join: Option<net::Join>,
    #[cfg(not(target_os = "linux"))]
    join: Option<std::convert::Infallible>,
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
        #[cfg(target_os = "linux")]
        if let Some(join) = &self.join {
            join.install(&mut cmd);
        }
        cmd
    }
}

#[cfg(unix)]
#[allow(unsafe_code)]
pub(crate) fn inherit(cmd: &mut std::process::Command, fds: Vec<i32>) {
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

/// The seccomp filter of a box, as a descriptor bubblewrap reads.
#[cfg(target_os = "linux")]
pub(crate) fn seccomp_filter(network: bool) -> Result<OwnedFd, ContainError> {
    seccomp::filter(network)
}

/// bubblewrap's arguments for a session's keeper ([`net::SharedNet`]).
pub(crate) fn keeper_arguments(proxy_dir: &Path, control_dir: &Path, launcher: &Path) -> Vec<OsString> {
    bwrap::keeper_arguments(proxy_dir, control_dir, launcher)
}

#[derive(Debug, thiserror::Error)]
pub enum ContainError {
    #[error("cannot prepare the command's sandbox: {0}")]
    Setup(String),
}

/// The program and arguments that run `argv` in `cwd` inside the box, or `argv` itself when
/// commands cannot be contained here (`contained: false`; the caller says so).
pub fn launch(policy: &BoxPolicy, argv: &[OsString], cwd: &Path) -> Result<Launch, ContainError> {
    launch_with(mechanism(), policy, argv, cwd)
}

/// The mechanism for a process that starts one box and ends (`warden sandbox`): bubblewrap when it
/// is installed, without the probe [`mechanism`] makes (a whole extra bubblewrap start); if it
/// cannot create its namespaces here, it fails and says why itself. Anything else, as
/// [`mechanism`] finds it (and always when [`MECHANISM_ENV`] is set).
pub fn mechanism_unprobed() -> Mechanism {
    if cfg!(target_os = "linux") && std::env::var_os(MECHANISM_ENV).is_none() {
        if let Some(program) = bwrap::installed() {
            return Mechanism::Bubblewrap { program };
        }
    }
    mechanism().clone()
}

/// [`launch`] with a given mechanism.
pub fn launch_with(
    mechanism: &Mechanism,
    policy: &BoxPolicy,
    argv: &[OsString],
    cwd: &Path,
) -> Result<Launch, ContainError> {
    if mechanism.is_contained() && !policy.home_known {
        return Err(ContainError::Setup(
            "cannot find your home folder (HOME is not set and the user database has no entry), so the \
             secrets in it could not be hidden; set HOME"
                .to_owned(),
        ));
    }
    started::note(mechanism, policy);
    match mechanism {
        Mechanism::Bubblewrap { program } => bwrap::launch(program, policy, argv, cwd),
        Mechanism::Seatbelt { program } => seatbelt::launch(program, policy, argv),
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
                proxied: false,
                restriction: None,
                join: None,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extra_writable_folders_never_open_the_home() {
        let root = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(root.path()).unwrap();
        let (home, project, out) = (base.join("home/me"), base.join("home/me/proj"), base.join("out"));
        for dir in [&project, &out] {
            std::fs::create_dir_all(dir).unwrap();
        }
        let chosen: Vec<String> = [
            out.display().to_string(),
            home.display().to_string(),
            base.join("home").display().to_string(),
            "/".to_owned(),
            "relative/dir".to_owned(),
            base.join("missing").display().to_string(),
        ]
        .into();
        let policy = BoxPolicy::with_home(&project, Some(&home), &[]).with_project_choices(
            true,
            &chosen,
            &[],
            Some(&home),
        );
        assert_eq!(policy.writable, [out], "only the folder that opens nothing of the home");
        assert!(policy.network);
    }

    #[test]
    fn extra_readable_paths_never_open_the_home_nor_wardens_folders() {
        let root = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(root.path()).unwrap();
        let (home, project) = (base.join("home/me"), base.join("home/me/proj"));
        let warden = home.join(".config/warden");
        for dir in [&project, &home.join("data"), &home.join(".aws"), &warden] {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::fs::write(home.join(".aws/config"), "[default]").unwrap();
        std::fs::write(home.join(".aws/credentials"), "k").unwrap();
        let chosen: Vec<String> = [
            home.join("data"),
            home.join(".aws/config"),
            home.clone(),
            base.join("home"),
            PathBuf::from("/"),
            PathBuf::from("relative/dir"),
            home.join("missing"),
            warden.clone(),
        ]
        .iter()
        .map(|p| p.display().to_string())
        .collect();
        let policy = BoxPolicy::with_home(&project, Some(&home), std::slice::from_ref(&warden))
            .with_project_choices(false, &[], &chosen, Some(&home));
        let extra: Vec<&PathBuf> = policy.readable.iter().filter(|p| p.starts_with(&home)).collect();
        assert_eq!(extra, [&home.join("data"), &home.join(".aws/config")], "only what opens neither");
        assert!(policy.hidden.contains(&home.join(".aws")), "what lies beside the chosen file stays hidden");
        assert!(policy.hidden.contains(&warden), "Warden's folder stays hidden");
    }

    #[test]
    fn no_box_is_built_without_the_home_whose_secrets_it_hides() {
        let project = tempfile::tempdir().unwrap();
        let mechanism = Mechanism::Bubblewrap { program: PathBuf::from("/usr/bin/bwrap") };
        let argv = [OsString::from("true")];
        let homeless = BoxPolicy::with_home(project.path(), None, &[]);
        let refused = launch_with(&mechanism, &homeless, &argv, project.path()).err().map(|e| e.to_string());
        assert!(
            refused.is_some_and(|e| e.contains("cannot find your home folder")),
            "a box hiding nothing of the home"
        );

        let home = tempfile::tempdir().unwrap();
        let housed = BoxPolicy::with_home(project.path(), Some(home.path()), &[]);
        assert!(launch_with(&mechanism, &housed, &argv, project.path()).is_ok());
    }
}

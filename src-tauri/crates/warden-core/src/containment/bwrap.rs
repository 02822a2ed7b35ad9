//! The box on Linux: bubblewrap. The whole filesystem is mounted read-only, the user's home
//! emptied (a read-only tmpfs showing only the toolchains, the caches and a git configuration
//! without credentials: [`super::home`]), the project read-write over it, the package caches
//! read-only with the project's private layer over them ([`super::cache_layer`]), hidden
//! locations covered (an empty tmpfs over a folder, `/dev/null` over a file), a private `/tmp`,
//! `/proc` and `/dev`; every namespace is new (user, pid, ipc, uts,
//! cgroup and net), no capability survives, no user namespace can be made inside, the command
//! cannot type into a terminal (the seccomp filter) and dies with Warden. The seccomp filter
//! ([`super::seccomp`]) is loaded by bubblewrap right before the command; in a box whose caches
//! get their layer, by `warden-box` instead, which bubblewrap starts with the capabilities to mount
//! the overlays, and which gives them all up before it loads the filter and becomes the command.
//!
//! The network namespace is the box's own even when the network is allowed: then the box gets
//! Warden's proxy ([`super::net`]) — its socket's folder mounted read-only, the variables that name
//! it, and the launcher (`warden-box`) first, bridging the box's loopback to it. The host's
//! network namespace, with its abstract unix sockets (X11, a session bus) and its loopback
//! services, is never the box's.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::cache_layer::{self, Layer};
use super::layer_support;
use super::{net, BoxPolicy, ContainError, Launch, Mechanism};

/// How a box with the network reaches out: the proxy's folder on the host, and the launcher.
pub(super) struct Egress<'a> {
    pub proxy_dir: &'a Path,
    pub launcher: &'a Path,
}

/// What every box starts from, its keeper's included: the whole system read-only, its own
/// `/dev` and `/proc`, private temporary folders.
const BASE: &[&str] =
    &["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--tmpfs", "/var/tmp"];

/// The namespaces every box makes new (the network's is chosen apart: see [`Net`]).
const NEW_NAMESPACES: &[&str] =
    &["--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"];

/// A box whose first program is `warden-box`, mounting the caches' layers and loading the filter.
pub(super) struct Confined<'a> {
    pub launcher: &'a Path,
    pub layers: &'a [Layer],
    /// The name of the box's own work folder in each layer's `work/` ([`cache_layer::BoxWork`]).
    pub work: &'a str,
}

/// The capabilities bubblewrap leaves `warden-box` in the box's own user namespace, which it drops
/// before the command: to mount the overlays; to pass overlayfs's own work folder, which it makes
/// with mode 0; to map the user's ids in the command's user namespace (writing a map that names
/// the parent namespace's root needs it since Linux 5.12).
const LAUNCHER_CAPABILITIES: &[&str] = &["CAP_SYS_ADMIN", "CAP_DAC_OVERRIDE", "CAP_SETFCAP"];

/// A box's network namespace.
pub(super) enum Net<'a> {
    /// A new one with only a loopback: no network.
    Closed,
    /// A new one whose launcher bridges its loopback to the proxy (a box alone, `warden sandbox`).
    Own(Egress<'a>),
    /// The session's, joined before bubblewrap starts ([`net::SharedNet`]): its keeper bridges
    /// the loopback to the proxy. bubblewrap then runs as the root of the keeper's user namespace,
    /// so the command is given the user's own ids back.
    Joined,
}

const CANDIDATES: &[&str] = &["/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"];

/// bubblewrap when it is installed and can create the namespaces the box needs on this machine.
/// Where bubblewrap is installed, if it is.
pub(super) fn installed() -> Option<PathBuf> {
    CANDIDATES.iter().map(PathBuf::from).find(|p| p.is_file())
}

pub(super) fn probe() -> Mechanism {
    let Some(program) = installed() else {
        return Mechanism::Unavailable {
            why: "bubblewrap is not installed (Debian/Ubuntu: apt install bubblewrap)".to_owned(),
        };
    };
    let probe = Command::new(&program)
        .args(["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"])
        .args(["--unshare-all", "--unshare-user", "--die-with-parent", "--"])
        .arg("/bin/true")
        .env_clear()
        .output();
    match probe {
        Ok(out) if out.status.success() => Mechanism::Bubblewrap { program },
        Ok(out) => Mechanism::Unavailable {
            why: format!(
                "bubblewrap cannot create its namespaces here ({}); unprivileged user namespaces may be disabled",
                String::from_utf8_lossy(&out.stderr).trim()
            ),
        },
        Err(error) => Mechanism::Unavailable { why: format!("bubblewrap does not start: {error}") },
    }
}

/// The arguments of bubblewrap for `policy`, without the seccomp descriptors and the command;
/// `git_config`, the descriptor bubblewrap copies the box's `~/.gitconfig` from; `confined`, when
/// `warden-box` starts first to mount the caches' layers.
#[allow(clippy::too_many_lines)] // The box's arguments in the order bubblewrap applies them, one list read top to bottom.
pub(super) fn arguments(
    policy: &BoxPolicy,
    cwd: &Path,
    network: &Net,
    git_config: Option<i32>,
    confined: Option<&Confined>,
) -> Vec<OsString> {
    let mut args = Args::default();
    args.flags(BASE);
    if let Net::Own(egress) = network {
        args.flags(&["--ro-bind"]);
        args.path(egress.proxy_dir);
        args.flags(&[net::DIR_IN_BOX]);
    }
    if matches!(network, Net::Own(_) | Net::Joined) {
        for (name, value) in net::proxy_env() {
            args.flags(&["--setenv", name, &value]);
        }
    }
    // Before the hidden locations, so one inside a visible folder stays hidden; one that holds the
    // home (a home under /tmp) before the home is emptied, which would otherwise show it whole.
    let (around_home, visible): (Vec<&PathBuf>, Vec<&PathBuf>) =
        policy.visible.iter().partition(|dir| policy.home.as_ref().is_some_and(|home| home.starts_with(dir)));
    for dir in around_home {
        args.bind("--ro-bind", dir);
    }
    // The home, empty: read-only (remounted so once everything in it is mounted), with only the
    // toolchains, the caches and the git configuration the box gets. `-try`: a toolchain removed
    // since the box was drawn is simply not there.
    if let Some(home) = &policy.home {
        args.pair("--tmpfs", home);
        if let Some(fd) = git_config {
            args.flags(&["--ro-bind-data", &fd.to_string()]);
            args.path(&home.join(".gitconfig"));
        }
    }
    for path in &policy.readable {
        args.bind("--ro-bind-try", path);
    }
    // A working folder the emptied home does not show is there, empty, as a hidden one was.
    if policy.home.is_some() && !shown(policy, cwd) {
        args.pair("--dir", cwd);
    }
    for dir in visible {
        args.bind("--ro-bind", dir);
    }
    for dir in &policy.writable {
        args.bind("--bind", dir);
    }
    // Read-only where they are; `warden-box` puts each one's overlay there, from the staging
    // mounts below, which it detaches once the overlays are up.
    for cache in &policy.caches {
        args.bind("--ro-bind", cache);
    }
    for layer in confined.map(|c| c.layers).unwrap_or_default() {
        args.flags(&["--ro-bind"]);
        args.path(&layer.cache);
        args.path(&layer.staging.join("lower"));
        args.flags(&["--bind"]);
        args.path(&layer.dir);
        args.path(&layer.staging.join("layer"));
    }
    args.bind("--bind", &policy.project);
    let launcher = match (network, confined) {
        (Net::Own(egress), _) => Some(egress.launcher),
        (_, Some(confined)) => Some(confined.launcher),
        _ => None,
    };
    if let Some(launcher) = launcher {
        // At its own path, after the private /tmp and the emptied home: a build run from a
        // checkout under /tmp or in the home has it there.
        args.bind("--ro-bind", launcher);
    }
    // Writable where they are, and not to be renamed or replaced: a mount point cannot be.
    for path in &policy.pinned {
        args.bind("--bind", path);
    }
    // After the binds, so a read-only or hidden path inside a writable folder is covered; hidden
    // last, so that nothing mounted after them can put a secret back in view.
    for path in &policy.read_only {
        args.bind("--ro-bind", path);
    }
    // One that is gone since the box was drawn hides nothing, and a mount point for it could not
    // be made where the file system is read-only (bubblewrap would refuse to start the box).
    let present = |path: &&PathBuf| std::fs::symlink_metadata(path).is_ok();
    for path in policy.hidden.iter().filter(|path| shown(policy, path)).filter(present) {
        if path.is_dir() {
            args.pair("--tmpfs", path);
        } else {
            args.flags(&["--ro-bind", "/dev/null"]);
            args.path(path);
        }
    }
    // A path the user chose to show inside a hidden location that was just covered (a credential
    // file in a folder the project also shows) is shown through the cover: the one exception to
    // "hidden last", and only the user's explicit choice lies there (`BoxPolicy::readable`).
    let covered = |path: &Path| policy.hidden.iter().any(|h| path.starts_with(h) && shown(policy, h));
    for path in policy.readable.iter().filter(|path| covered(path)) {
        args.bind("--ro-bind-try", path);
    }
    // So is the launcher, which the box starts first: Warden's own program, where an engine
    // copied to another machine keeps it (`~/.local/share/warden/bin`, inside Warden's hidden
    // folders). Nothing beside it comes back into view.
    if let Some(launcher) = launcher.filter(|launcher| covered(launcher)) {
        args.bind("--ro-bind", launcher);
    }
    if let Some(home) = &policy.home {
        args.pair("--remount-ro", home);
    }
    args.flags(NEW_NAMESPACES);
    if confined.is_some() {
        // The namespace's root, which overlayfs needs; `warden-box` gives the command the user's
        // ids in a user namespace of its own (as bubblewrap would have in a second one).
        args.flags(&["--uid", "0", "--gid", "0"]);
    } else if matches!(network, Net::Joined) {
        let (uid, gid) = (nix::unistd::getuid().to_string(), nix::unistd::getgid().to_string());
        args.flags(&["--uid", &uid, "--gid", &gid]);
    }
    if !matches!(network, Net::Joined) {
        args.flags(&["--unshare-net"]);
    }
    // No `--new-session`: the caller gives bubblewrap a session of its own (tool commands) that every
    // process of the box then shares, so Warden's process sweeps know them as the command's; the
    // seccomp filter refuses typing into a terminal (TIOCSTI) either way.
    // No `--disable-userns`: the seccomp filter already refuses every way to a new user namespace
    // (`unshare`, `setns`, `clone` with a namespace flag, `clone3`), as it does in the Landlock box;
    // bubblewrap's own version of that wall costs a second user namespace per command (~0.4 ms,
    // bench/sandbox) and needs bubblewrap 0.8 (Ubuntu 22.04 ships 0.6).
    args.flags(&["--cap-drop", "ALL"]);
    if confined.is_some() {
        for capability in LAUNCHER_CAPABILITIES {
            args.flags(&["--cap-add", capability]);
        }
    }
    args.flags(&["--die-with-parent"]);
    args.flags(&["--setenv", "TMPDIR", "/tmp"]);
    args.pair("--chdir", cwd);
    args.0
}

/// Whether `path` would be seen in the box without a cover ([`BoxPolicy::shows_in_home`]).
/// Covering what is absent anyway would only make an empty stand-in.
fn shown(policy: &BoxPolicy, path: &Path) -> bool {
    policy.shows_in_home(path)
}

/// bubblewrap running `argv` in `cwd` under `policy`, with the seccomp filter.
#[allow(clippy::too_many_lines)] // One launch: box, proxy, seccomp and the child, in the order they must happen.
pub(super) fn launch(
    program: &Path,
    policy: &BoxPolicy,
    argv: &[OsString],
    cwd: &Path,
) -> Result<Launch, ContainError> {
    if argv.is_empty() {
        return Err(ContainError::Setup("no command".to_owned()));
    }
    #[cfg(target_os = "linux")]
    let join = match (&policy.shared_net, policy.network) {
        (Some(shared), true) => {
            Some(shared.join(program, &policy.network_rules).map_err(ContainError::Setup)?)
        }
        _ => None,
    };
    #[cfg(not(target_os = "linux"))]
    let join: Option<net::Join> = None;
    let mut layers = cache_layer::layers(policy);
    // Without `warden-box` (a `warden` copied alone), or where a layered box cannot start
    // ([`layer_support`]), the caches are only read-only: nothing mounts their layer, and nothing
    // the box writes can reach them either way.
    if !layers.is_empty() {
        let usable = super::launcher::find().map(|_| ()).and_then(|()| layer_support::available(program));
        if let Err(why) = usable {
            tracing::debug!(why, "the package caches are read-only in this box, without the project's layer");
            layers.clear();
        }
    }
    let work = match &policy.cache_layer {
        Some(root) => cache_layer::prepare(root, &layers)
            .map_err(|e| ContainError::Setup(format!("cannot make the project's cache layer: {e}")))?,
        None => None,
    };
    let own_network = policy.network && join.is_none();
    let launcher = if own_network || !layers.is_empty() {
        Some(super::launcher::find().map_err(ContainError::Setup)?)
    } else {
        None
    };
    let proxy = if own_network { Some(policy.egress_proxy().map_err(ContainError::Setup)?) } else { None };
    let (work_name, work_lock) = match work {
        Some(work) => (Some(work.name), Some(work.lock)),
        None => (None, None),
    };
    let confined = launcher.zip(work_name.as_deref()).map(|(launcher, work)| Confined {
        launcher,
        layers: &layers,
        work,
    });
    let egress =
        proxy.as_ref().zip(launcher).map(|(proxy, launcher)| Egress { proxy_dir: proxy.dir(), launcher });
    let network = match egress {
        Some(egress) => Net::Own(egress),
        None if join.is_some() => Net::Joined,
        None => Net::Closed,
    };
    // The lock that keeps the box's work folders from a later box's sweep, for as long as any
    // process of this box runs (close-on-exec here; the box inherits it).
    let mut fds: Vec<std::os::fd::OwnedFd> = work_lock.into_iter().collect();
    // The user's git configuration without its credentials, copied by bubblewrap from memory.
    #[cfg(target_os = "linux")]
    let git_config = match policy.home.as_deref().and_then(super::home::git_config) {
        Some(text) => {
            use std::os::fd::AsRawFd;
            let fd = super::seccomp::memfd("warden-gitconfig", text.as_bytes())?;
            let raw = fd.as_raw_fd();
            fds.push(fd);
            Some(raw)
        }
        None => None,
    };
    #[cfg(not(target_os = "linux"))]
    let git_config = None;
    let mut args = arguments(policy, cwd, &network, git_config, confined.as_ref());
    // The filter: loaded by bubblewrap, or by `warden-box` once it has mounted the layers.
    #[cfg(target_os = "linux")]
    let seccomp = {
        use std::os::fd::AsRawFd;
        let fd = super::seccomp::filter(policy.network)?;
        let raw = fd.as_raw_fd().to_string();
        fds.push(fd);
        raw
    };
    #[cfg(not(target_os = "linux"))]
    let seccomp = String::new();
    if confined.is_none() && !seccomp.is_empty() {
        args.push("--add-seccomp-fd".into());
        args.push(seccomp.clone().into());
    }
    args.push("--".into());
    let first = match (&network, &confined) {
        (Net::Own(egress), _) => Some(egress.launcher),
        (_, Some(confined)) => Some(confined.launcher),
        _ => None,
    };
    if let Some(launcher) = first {
        args.push(launcher.as_os_str().to_owned());
    }
    if let Some(confined) = &confined {
        args.extend(launcher_confinement(policy, confined, &seccomp));
    }
    if let Net::Own(_) = &network {
        args.push("--proxy-socket".into());
        args.push(Path::new(net::DIR_IN_BOX).join(net::proxy::SOCKET_NAME).into_os_string());
        args.push("--port".into());
        args.push(net::PORT_IN_BOX.to_string().into());
    }
    if first.is_some() {
        args.push("--".into());
    }
    args.extend(argv.iter().cloned());
    let proxied = matches!(network, Net::Own(_));
    Ok(Launch {
        program: program.to_path_buf(),
        args,
        fds,
        contained: true,
        proxied,
        restriction: None,
        join,
    })
}

/// `warden-box`'s arguments for what it sets up before the command: the filter's descriptor, the
/// user's ids, each overlay, and the hidden locations inside the layered caches, which the overlays
/// would otherwise show (an overlay shows its lower folder's own files, not what was mounted over
/// them).
fn launcher_confinement(policy: &BoxPolicy, confined: &Confined, seccomp: &str) -> Vec<OsString> {
    let mut args = Args::default();
    let (uid, gid) = (nix::unistd::getuid().to_string(), nix::unistd::getgid().to_string());
    args.flags(&["--seccomp-fd", seccomp, "--uid", &uid, "--gid", &gid, "--work", confined.work]);
    for layer in confined.layers {
        args.flags(&["--overlay"]);
        args.path(&layer.staging);
        args.path(&layer.cache);
    }
    let layered = |path: &&PathBuf| confined.layers.iter().any(|layer| path.starts_with(&layer.cache));
    // As with the covers: one gone since the box was drawn hides nothing.
    let present = |path: &&PathBuf| std::fs::symlink_metadata(path).is_ok();
    for path in policy.hidden.iter().filter(layered).filter(|path| shown(policy, path)).filter(present) {
        args.pair("--hide", path);
    }
    args.0
}

/// The arguments of bubblewrap for a session's keeper ([`net::SharedNet`]), without the
/// descriptors and the command: the proxy's folder, the keeper's control folder (writable: it
/// makes its socket there) and the launcher, a new network namespace, and nothing of the home —
/// the keeper runs only Warden's own program, which needs none of it.
pub(super) fn keeper_arguments(proxy_dir: &Path, control_dir: &Path, launcher: &Path) -> Vec<OsString> {
    let mut args = Args::default();
    args.flags(BASE);
    if let Some(home) = dirs::home_dir().filter(|home| home.parent().is_some()) {
        args.pair("--tmpfs", &home);
    }
    args.flags(&["--ro-bind"]);
    args.path(proxy_dir);
    args.flags(&[net::DIR_IN_BOX, "--bind"]);
    args.path(control_dir);
    #[cfg(target_os = "linux")]
    args.flags(&[net::control_in_box()]);
    args.bind("--ro-bind", launcher);
    args.flags(NEW_NAMESPACES);
    args.flags(&["--unshare-net", "--cap-drop", "ALL", "--die-with-parent", "--chdir", "/"]);
    args.0
}

#[derive(Default)]
struct Args(Vec<OsString>);

impl Args {
    fn flags(&mut self, flags: &[&str]) {
        self.0.extend(flags.iter().map(OsString::from));
    }

    fn path(&mut self, path: &Path) {
        self.0.push(path.as_os_str().to_owned());
    }

    fn pair(&mut self, flag: &str, path: &Path) {
        self.0.push(flag.into());
        self.path(path);
    }

    /// `--bind SRC DEST` with the same path on both sides.
    fn bind(&mut self, flag: &str, path: &Path) {
        self.0.push(flag.into());
        self.path(path);
        self.path(path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy() -> BoxPolicy {
        BoxPolicy {
            project: "/srv/p".into(),
            writable: vec![],
            caches: vec!["/home/u/.cargo/registry".into()],
            cache_layer: None,
            hidden: vec!["/home/u/.netrc".into()],
            read_only: vec!["/srv/p/.git/hooks".into()],
            pinned: vec![],
            visible: vec![],
            network: false,
            network_rules: Default::default(),
            home: None,
            readable: vec![],
            home_known: true,
            shared_net: None,
            own_proxy: None,
            git_aside: None,
        }
    }

    fn joined(args: &[OsString]) -> String {
        args.iter().map(|a| a.to_string_lossy().into_owned()).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn the_project_is_writable_and_read_only_paths_come_after_it() {
        // A secret that is there (covers are made only for what still is).
        let secret_file = tempfile::NamedTempFile::new().unwrap_or_else(|e| panic!("{e}"));
        let mut p = policy();
        p.hidden.push(secret_file.path().to_path_buf());
        let line = joined(&arguments(&p, Path::new("/srv/p/src"), &Net::Closed, None, None));
        assert!(line.starts_with("--ro-bind / / "), "{line}");
        let project = line.find("--bind /srv/p /srv/p").expect("project bound");
        let hooks = line.find("--ro-bind /srv/p/.git/hooks /srv/p/.git/hooks").expect("hooks read-only");
        assert!(project < hooks, "{line}");
        let covered = format!("--ro-bind /dev/null {}", secret_file.path().display());
        let secret = line.find(&covered).expect("secret covered");
        assert!(!line.contains("/home/u/.netrc"), "a secret that is not there gets no cover: {line}");
        assert!(hooks < secret, "the hidden come last, so nothing mounted after uncovers one: {line}");
        assert!(line.contains("--ro-bind /home/u/.cargo/registry /home/u/.cargo/registry"), "{line}");
        assert!(
            line.contains("--unshare-net")
                && line.contains("--unshare-user")
                && line.contains("--cap-drop ALL")
        );
        assert!(line.ends_with("--chdir /srv/p/src"), "{line}");
    }

    #[test]
    fn the_home_is_emptied_before_its_toolchains_and_the_project_are_mounted_in_it() {
        let root = tempfile::tempdir().expect("tmp");
        let home = std::fs::canonicalize(root.path()).expect("canonical");
        let (project, ssh, netrc) =
            (home.join("src/p"), home.join(".ssh"), home.join(".cargo/registry/.netrc"));
        for dir in [&project, &ssh, &home.join(".cargo/bin")] {
            std::fs::create_dir_all(dir).expect("mkdir");
        }
        std::fs::create_dir_all(netrc.parent().expect("parent")).expect("mkdir");
        std::fs::write(&netrc, "").expect("netrc");
        let mut p = policy();
        p.project = project.clone();
        p.home = Some(home.clone());
        p.readable = vec![home.join(".cargo/bin")];
        p.caches = vec![home.join(".cargo/registry")];
        p.hidden = vec![ssh, netrc];
        let line = joined(&arguments(&p, &project, &Net::Closed, Some(7), None));
        let (h, at) =
            (home.display(), |needle: &str| line.find(needle).unwrap_or_else(|| panic!("{needle}: {line}")));
        let emptied = at(&format!("--tmpfs {h} "));
        let git = at(&format!("--ro-bind-data 7 {h}/.gitconfig"));
        let bin = at(&format!("--ro-bind-try {h}/.cargo/bin {h}/.cargo/bin"));
        let cache = at(&format!("--ro-bind {h}/.cargo/registry {h}/.cargo/registry"));
        let proj = at(&format!("--bind {0}/src/p {0}/src/p", h));
        let covered = at(&format!("--ro-bind /dev/null {h}/.cargo/registry/.netrc"));
        let read_only = at(&format!("--remount-ro {h} "));
        assert!(
            emptied < git
                && git < bin
                && bin < cache
                && cache < proj
                && proj < covered
                && covered < read_only
        );
        assert!(!line.contains(&format!("{h}/.ssh")), "what the home does not show needs no cover: {line}");
    }

    #[test]
    fn network_on_gets_the_proxy_and_never_the_host_network() {
        let mut p = policy();
        p.network = true;
        let egress = Egress {
            proxy_dir: Path::new("/run/w/net-1"),
            launcher: Path::new("/usr/lib/warden/warden-box"),
        };
        let line = joined(&arguments(&p, Path::new("/"), &Net::Own(egress), None, None));
        assert!(line.contains("--unshare-net"), "{line}");
        let tmp = line.find("--tmpfs /tmp").unwrap_or_else(|| panic!("{line}"));
        let socket = line.find("--ro-bind /run/w/net-1 /tmp/.warden-net").unwrap_or_else(|| panic!("{line}"));
        assert!(tmp < socket, "the socket's folder is mounted on the private /tmp: {line}");
        assert!(line.contains("--setenv HTTPS_PROXY http://127.0.0.1:39281"), "{line}");
        assert!(line.contains("--setenv no_proxy localhost,127.0.0.1,::1"), "{line}");
    }

    #[test]
    fn the_launcher_is_there_even_in_the_emptied_home() {
        let mut p = policy();
        p.home = Some("/home/u".into());
        p.network = true;
        let egress = Egress {
            proxy_dir: Path::new("/run/w/net-1"),
            launcher: Path::new("/home/u/src/w/target/warden-box"),
        };
        let line = joined(&arguments(&p, Path::new("/srv/p"), &Net::Own(egress), None, None));
        let emptied = line.find("--tmpfs /home/u ").unwrap_or_else(|| panic!("{line}"));
        let launcher = line
            .find("--ro-bind /home/u/src/w/target/warden-box /home/u/src/w/target/warden-box")
            .unwrap_or_else(|| panic!("{line}"));
        assert!(emptied < launcher, "the emptied home would hide the launcher: {line}");
    }

    #[test]
    fn a_launcher_inside_a_hidden_folder_is_shown_through_its_cover_and_nothing_beside_it() {
        // Where `warden remote install` puts a copied engine: inside Warden's own data, which
        // every box hides.
        let root = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let data = root.path().join("share/warden");
        let launcher = data.join("bin/warden-box");
        std::fs::create_dir_all(data.join("bin")).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(&launcher, "").unwrap_or_else(|e| panic!("{e}"));
        let mut p = policy();
        p.hidden = vec![data.clone()];
        p.network = true;
        let egress = Egress { proxy_dir: Path::new("/run/w/net-1"), launcher: &launcher };
        let line = joined(&arguments(&p, Path::new("/srv/p"), &Net::Own(egress), None, None));
        let (d, l) = (data.display(), launcher.display());
        let cover = line.find(&format!("--tmpfs {d} ")).unwrap_or_else(|| panic!("{line}"));
        let shown = line.rfind(&format!("--ro-bind {l} {l}")).unwrap_or_else(|| panic!("{line}"));
        assert!(cover < shown, "the cover hides the launcher the box starts with: {line}");
        assert_eq!(line.matches(&format!("{d}/")).count(), 4, "only the launcher comes back: {line}");
    }

    #[test]
    fn a_box_joining_the_sessions_network_makes_no_network_of_its_own() {
        let mut p = policy();
        p.network = true;
        let line = joined(&arguments(&p, Path::new("/"), &Net::Joined, None, None));
        assert!(!line.contains("--unshare-net"), "{line}");
        assert!(!line.contains(net::DIR_IN_BOX), "the keeper reaches the proxy, not this box: {line}");
        assert!(line.contains("--setenv HTTPS_PROXY http://127.0.0.1:39281"), "{line}");
        let ids = format!("--uid {} --gid {}", nix::unistd::getuid(), nix::unistd::getgid());
        assert!(line.contains(&ids), "the command keeps the user's ids: {line}");
        assert!(line.contains("--unshare-user") && line.contains("--cap-drop ALL"), "{line}");
    }

    #[test]
    fn odd_path_bytes_pass_unchanged() {
        use std::ffi::OsStr;
        use std::os::unix::ffi::OsStrExt;
        let mut p = policy();
        p.project = PathBuf::from(OsStr::from_bytes(b"/tmp/a b\n\xff"));
        let args = arguments(&p, &p.project.clone(), &Net::Closed, None, None);
        assert!(args.iter().any(|a| a.as_bytes() == b"/tmp/a b\n\xff"));
    }
}

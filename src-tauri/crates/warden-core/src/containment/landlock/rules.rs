//! The Landlock ruleset of one command: reading everywhere but the user's home, where only the
//! toolchains and what the project added are read (`BoxPolicy::readable`), writing in the
//! project, the writable folders and the scratch folder, never in a hidden location (the package
//! caches are only read); TCP off
//! without network; signals and abstract unix sockets scoped to the box.
//!
//! Landlock only grants, and a right granted on a folder reaches everything beneath it. So a
//! folder that holds a hidden location is not granted as a whole: it gets only the rights that
//! cannot reach the hidden location (listing, when that is a file), and each of its entries is
//! granted on its own, recursing only along the paths that lead to a hidden location, which is
//! never granted. Symlinks are never followed while walking (a link in the project to a folder
//! outside must not make that folder writable); their targets are granted where they are.
//!
//! `read_only` (`.git/hooks`, `.git/config`) is not enforced here: git creates its lock files right
//! in `.git` (`index.lock`, `HEAD.lock`, `config.lock`), and any right that lets it do so reaches
//! `.git/hooks` and `.git/config` too. Carving them out would make git unusable in the box.

use std::fs::File;
use std::os::fd::OwnedFd;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use landlock::{
    make_bitflags, Access, AccessFs, AccessNet, BitFlags, NetPort, PathBeneath, Ruleset, RulesetAttr,
    RulesetCreatedAttr, RulesetError, Scope, ABI,
};

use super::super::{BoxPolicy, ContainError};

/// The ABI whose rights are requested; older kernels get what they support (best effort), newer
/// rights are left unhandled until they are reviewed here.
const TARGET: ABI = ABI::V6;

/// Devices a command writes to as a matter of course.
const DEVICES: &[&str] = &["/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"];

/// The ruleset for `policy`, with `scratch` writable, as the descriptor to enforce in the child.
/// `scoped`: the kernel has signal and abstract unix socket scoping (ABI 6). `proxy_port`: with
/// the network, the one TCP port a command may connect to (Warden's proxy on this machine's
/// loopback); without it (a kernel before ABI 4) the network is the host's.
pub(super) fn ruleset(
    policy: &BoxPolicy,
    scratch: &Path,
    scoped: bool,
    proxy_port: Option<u16>,
) -> Result<OwnedFd, ContainError> {
    let all = AccessFs::from_all(TARGET);
    let mut ruleset = Ruleset::default().handle_access(all).map_err(setup)?;
    if !policy.network {
        ruleset = ruleset.handle_access(make_bitflags!(AccessNet::{BindTcp | ConnectTcp})).map_err(setup)?;
    } else if proxy_port.is_some() {
        ruleset = ruleset.handle_access(AccessNet::ConnectTcp).map_err(setup)?;
    }
    if scoped {
        // Abstract sockets in every mode: with the network too, the host's X server and session
        // bus listen there.
        ruleset = ruleset.scope(Scope::Signal | Scope::AbstractUnixSocket).map_err(setup)?;
    }
    let mut created = ruleset.create().map_err(setup)?;
    if let (true, Some(port)) = (policy.network, proxy_port) {
        created = created.add_rule(NetPort::new(port, AccessNet::ConnectTcp)).map_err(setup)?;
    }
    for (path, access) in grants(policy, scratch) {
        // A path that vanished since it was listed needs no rule.
        let Ok(fd) = open_path(&path) else { continue };
        created = created.add_rule(PathBeneath::new(fd, access)).map_err(setup)?;
    }
    Option::<OwnedFd>::from(created)
        .ok_or_else(|| ContainError::Setup("Landlock is not supported by this kernel".to_owned()))
}

/// Which rights each path gets.
fn grants(policy: &BoxPolicy, scratch: &Path) -> Vec<(PathBuf, BitFlags<AccessFs>)> {
    let hidden: Vec<Hidden> = policy.hidden.iter().map(|p| Hidden::new(p)).collect();
    let mut out = Vec::new();
    // Everything but the home is read as it is; of the home, what the box may read, one by one.
    let mut away = hidden.clone();
    if let Some(home) = &policy.home {
        away.push(Hidden::new(&std::fs::canonicalize(home).unwrap_or_else(|_| home.clone())));
    }
    grant(Path::new("/"), AccessFs::from_read(TARGET), &away, &mut out);
    for path in &policy.readable {
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        // A hidden location that holds the path does not stop it: only the user's explicit choice
        // lies there (a credential file they named, `BoxPolicy::readable`); what lies inside it
        // and is hidden stays so.
        let inside: Vec<Hidden> = hidden.iter().filter(|h| !path.starts_with(&h.path)).cloned().collect();
        grant(&path, AccessFs::from_read(TARGET), &inside, &mut out);
    }
    // The package caches: read only. Landlock has no overlay to give the project a layer of its
    // own, and what a box writes there (a crate's `build.rs`) would run outside it later.
    for path in policy.visible.iter().chain(&policy.caches) {
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        grant(&path, AccessFs::from_read(TARGET), &hidden, &mut out);
    }
    let writable = std::iter::once(&policy.project).chain(&policy.writable).map(PathBuf::as_path);
    for root in writable.chain([scratch]) {
        // Rights on a root reach it through whatever symlinks name it, as a bind mount would.
        let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        grant(&root, AccessFs::from_all(TARGET), &hidden, &mut out);
    }
    let device = make_bitflags!(AccessFs::{WriteFile | Truncate | IoctlDev}) & AccessFs::from_all(TARGET);
    out.extend(DEVICES.iter().map(|d| (PathBuf::from(d), device)));
    out
}

/// A hidden location, and the rights a folder above it must not get.
#[derive(Clone)]
struct Hidden {
    path: PathBuf,
    above: BitFlags<AccessFs>,
}

impl Hidden {
    fn new(path: &Path) -> Self {
        let all = AccessFs::from_all(TARGET);
        // Listing the folder that holds a hidden file shows only its name (bubblewrap shows it
        // too, as an empty file); above a hidden folder, listing would reach inside it.
        let above = if path.is_dir() { all } else { all & !AccessFs::ReadDir };
        Self { path: path.to_path_buf(), above }
    }
}

/// `access` on `path` and beneath, except the hidden locations.
fn grant(
    path: &Path,
    access: BitFlags<AccessFs>,
    hidden: &[Hidden],
    out: &mut Vec<(PathBuf, BitFlags<AccessFs>)>,
) {
    if hidden.iter().any(|h| path.starts_with(&h.path)) {
        return; // hidden itself, or inside a hidden folder
    }
    let below: Vec<&Hidden> = hidden.iter().filter(|h| h.path.starts_with(path)).collect();
    if below.is_empty() {
        out.push((path.to_path_buf(), access));
        return;
    }
    let here = below.iter().fold(access, |a, h| a & !h.above);
    if !here.is_empty() {
        out.push((path.to_path_buf(), here));
    }
    let Ok(entries) = std::fs::read_dir(path) else { return };
    let below: Vec<Hidden> = below.into_iter().cloned().collect();
    for entry in entries.flatten() {
        if entry.file_type().map_or(true, |t| t.is_symlink()) {
            continue;
        }
        grant(&entry.path(), access, &below, out);
    }
}

/// An `O_PATH` descriptor of `path` itself (a symlink is not followed).
fn open_path(path: &Path) -> std::io::Result<File> {
    std::fs::OpenOptions::new().read(true).custom_flags(nix::libc::O_PATH | nix::libc::O_NOFOLLOW).open(path)
}

fn setup(error: RulesetError) -> ContainError {
    ContainError::Setup(format!("Landlock ruleset: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(project: &Path, hidden: Vec<PathBuf>) -> BoxPolicy {
        BoxPolicy {
            project: project.to_path_buf(),
            writable: vec![],
            caches: vec![],
            cache_layer: None,
            hidden,
            read_only: vec![],
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

    fn rights(grants: &[(PathBuf, BitFlags<AccessFs>)], path: &Path) -> Option<BitFlags<AccessFs>> {
        // Landlock unites the rules of one path.
        grants.iter().filter(|(p, _)| p == path).map(|(_, a)| *a).reduce(|a, b| a | b)
    }

    #[test]
    fn siblings_of_a_hidden_location_are_granted_and_it_never_is() {
        let root = tempfile::tempdir().expect("tmp");
        let project = std::fs::canonicalize(root.path()).expect("canonical").join("p");
        for dir in ["src", "keys/inner", "web/pages"] {
            std::fs::create_dir_all(project.join(dir)).expect("mkdir");
        }
        std::fs::write(project.join("web/.env"), "k").expect("env");
        std::os::unix::fs::symlink("/etc", project.join("link")).expect("link");
        let p = policy(&project, vec![project.join("web/.env"), project.join("keys/inner")]);
        let scratch = tempfile::tempdir().expect("scratch");
        let grants = grants(&p, scratch.path());
        let all = AccessFs::from_all(TARGET);
        assert_eq!(rights(&grants, &project), None, "above a hidden folder: nothing");
        assert_eq!(rights(&grants, &project.join("keys")), None);
        assert_eq!(rights(&grants, &project.join("web")), Some(BitFlags::from(AccessFs::ReadDir)));
        assert_eq!(rights(&grants, &project.join("web/pages")), Some(all));
        assert_eq!(rights(&grants, &project.join("src")), Some(all));
        for never in [project.join("web/.env"), project.join("keys/inner"), project.join("link")] {
            assert!(grants.iter().all(|(p, _)| p != &never), "{} granted", never.display());
        }
        assert!(grants.iter().all(|(p, _)| p != Path::new("/")), "/ holds a hidden folder");
        assert!(rights(&grants, scratch.path()).is_some_and(|a| a == all));
    }

    #[test]
    fn of_the_home_only_what_the_box_may_read_is_granted() {
        let root = tempfile::tempdir().expect("tmp");
        let base = std::fs::canonicalize(root.path()).expect("canonical");
        let (home, project) = (base.join("home"), base.join("home/src/p"));
        for dir in
            [&project, &home.join("Documents"), &home.join(".cargo/bin"), &home.join(".cargo/registry")]
        {
            std::fs::create_dir_all(dir).expect("mkdir");
        }
        let mut p = policy(&project, vec![]);
        p.home = Some(home.clone());
        p.readable = vec![home.join(".cargo/bin")];
        p.caches = vec![home.join(".cargo/registry")];
        let scratch = tempfile::tempdir().expect("scratch");
        let grants = grants(&p, scratch.path());
        let (read, all) = (AccessFs::from_read(TARGET), AccessFs::from_all(TARGET));
        assert_eq!(rights(&grants, &home.join(".cargo/bin")), Some(read));
        assert_eq!(rights(&grants, &home.join(".cargo/registry")), Some(read), "the caches are read-only");
        assert_eq!(rights(&grants, &project), Some(all));
        let in_home: Vec<&PathBuf> = grants.iter().map(|(p, _)| p).filter(|p| p.starts_with(&home)).collect();
        assert_eq!(in_home.len(), 3, "nothing else of the home: {in_home:?}");
        assert_eq!(rights(&grants, &base), None, "above the home: nothing");
    }
}

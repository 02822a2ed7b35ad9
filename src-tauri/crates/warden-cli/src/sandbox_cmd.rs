//! `warden sandbox [--project DIR] [--network [--allow-host H]… [--resolve N:A]…] [--write DIR]… --
//! COMMAND [ARGS…]`: any command inside exactly the box the agent's commands get, with the
//! environment they get. Exit status passed through (without the network the box replaces this
//! process: a command killed by signal N is seen as such; with it this process stays, serving the
//! box's proxy and printing what it refuses — the organisation's policy
//! (`/etc/warden/managed-settings.json`) applies here as everywhere —, and a command killed by signal N exits 128 + N); 125 when
//! Warden cannot prepare the box or start it, and when commands cannot be contained on this
//! machine (nothing runs unboxed from here). Where bubblewrap is installed but cannot create its
//! namespaces, it says so itself and exits 1. (Every status of the command line: [`crate::exit`].)
//!
//! The `warden` front runs it for a well-formed command line without starting the engine (see
//! [`crate::front`]), and the engine runs it for every other spelling clap accepts; either way it
//! skips the mechanism probe (see [`containment::mechanism_unprobed`]): a script may start many
//! boxes, and each pays only for its own.

use std::ffi::OsString;
use std::path::PathBuf;

use warden_core::config::managed::{self, Managed};
use warden_core::config::WardenHome;
use warden_core::containment::{self, net, BoxPolicy};

use crate::exit::Exit;
use crate::say;

/// What `warden sandbox` was asked for, however it was parsed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BoxRequest {
    /// The writable project folder; the current directory when absent.
    pub project: Option<PathBuf>,
    /// The network allowed, through Warden's proxy.
    pub network: bool,
    /// Hosts the proxy reaches whatever they resolve to (`HOST[:PORT]`).
    pub allow_host: Vec<String>,
    /// Names given their address (`NAME:ADDRESS`).
    pub resolve: Vec<String>,
    /// More writable folders.
    pub write: Vec<PathBuf>,
    /// The command and its arguments (at least the command).
    pub command: Vec<OsString>,
}

pub fn run(args: BoxRequest) -> Result<(), Exit> {
    match prepare(&args) {
        Ok(launch) if launch.proxied => wait(launch),
        Ok(launch) => Err(exec(launch)),
        Err(message) => Err(no_box(message)),
    }
}

/// Why there is no box, as said on stderr.
fn no_box(message: impl std::fmt::Display) -> Exit {
    Exit::NoBox(format!("warden sandbox: {message}"))
}

fn prepare(args: &BoxRequest) -> Result<containment::Launch, String> {
    let mechanism = containment::mechanism_unprobed();
    if !mechanism.is_contained() {
        return Err(format!("commands cannot be contained on this machine ({})", mechanism.describe()));
    }
    let project = match &args.project {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?,
    };
    let project =
        std::fs::canonicalize(&project).map_err(|e| format!("--project {}: {e}", project.display()))?;
    let home = WardenHome::from_env();
    let warden_dirs: Vec<PathBuf> = home.as_ref().map(|home| home.dirs()).unwrap_or_default();
    let mut policy = BoxPolicy::for_project(&project, &warden_dirs);
    // The package caches' writes land in the project's private layer, as in the project's sessions.
    if let Ok(home) = &home {
        policy =
            policy.with_cache_layer(home.project_dir(&project).join(containment::cache_layer::LAYER_DIR));
    }
    policy.network = args.network;
    if args.network {
        let file =
            home.as_ref().map_or(std::path::Path::new(managed::MANAGED_SETTINGS), WardenHome::managed_file);
        policy.network_rules = network_rules(args, &Managed::load(file))?;
    }
    for dir in &args.write {
        let dir = std::fs::canonicalize(dir).map_err(|e| format!("--write {}: {e}", dir.display()))?;
        policy.writable.push(dir);
    }
    let cwd =
        std::env::current_dir().ok().filter(|d| d.starts_with(&project)).unwrap_or_else(|| project.clone());
    containment::launch_with(&mechanism, &policy, &args.command, &cwd).map_err(|e| e.to_string())
}

/// The proxy's rules from the request and the organisation's policy (whose deny rules win over
/// `--allow-host`); refusals are said on stderr.
fn network_rules(args: &BoxRequest, managed: &Managed) -> Result<net::Rules, String> {
    let mut allow = args.allow_host.iter().map(|h| net::HostRule::parse(h)).collect::<Result<Vec<_>, _>>()?;
    let resolve = args.resolve.iter().map(|r| resolve_entry(r)).collect::<Result<Vec<_>, _>>()?;
    net::report_decisions(|decision| {
        if let Err(why) = &decision.outcome {
            say::err(&format!(
                "warden sandbox: the network proxy refused {}:{}: {why}",
                decision.host, decision.port
            ));
        }
    });
    let organisation = net::Rules::from_permission_rules(&managed.rules());
    allow.extend(organisation.allow);
    let mut rules = net::Rules { allow, deny: organisation.deny, resolve, ..net::Rules::default() };
    if let Some(domains) = managed.allowed_domains() {
        rules.pin(&domains);
    }
    Ok(rules)
}

/// `name:address` (`name:[v6]` too) as a resolver entry.
fn resolve_entry(text: &str) -> Result<(String, std::net::IpAddr), String> {
    let bad = || format!("--resolve {text:?}: expected NAME:ADDRESS");
    let (name, address) = text.split_once(':').ok_or_else(bad)?;
    let address = address.trim_start_matches('[').trim_end_matches(']');
    match address.parse() {
        Ok(ip) if !name.is_empty() => Ok((name.to_owned(), ip)),
        _ => Err(bad()),
    }
}

/// Run the box as a child, serving its proxy until it ends; its status as this process's.
fn wait(launch: containment::Launch) -> Result<(), Exit> {
    use std::os::unix::process::ExitStatusExt;
    let mut command = launch.command();
    command.env_clear().envs(warden_core::sandbox::env::child_env());
    let status = command.status();
    drop(launch);
    let status = match status {
        Ok(status) => match (status.code(), status.signal()) {
            (Some(code), _) => u8::try_from(code).unwrap_or(1),
            (None, Some(signal)) => u8::try_from(128 + signal).unwrap_or(1),
            (None, None) => 1,
        },
        Err(error) => return Err(no_box(format!("cannot start the box: {error}"))),
    };
    match status {
        0 => Ok(()),
        status => Err(Exit::Boxed(status)),
    }
}

/// Replace this process with the box; returns only when that fails.
fn exec(launch: containment::Launch) -> Exit {
    use std::os::unix::process::CommandExt;
    let mut command = launch.command();
    command.env_clear().envs(warden_core::sandbox::env::child_env());
    // `exec` returns only on failure; `launch` (the seccomp descriptors) lives until then.
    let error = command.exec();
    drop(launch);
    no_box(format!("cannot start the box: {error}"))
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    /// `--allow-host` cannot open a host the organisation's policy denies (root's file, as the
    /// suite runs as root).
    #[test]
    fn the_organisations_deny_wins_over_allow_host() {
        assert!(nix::unistd::geteuid().is_root(), "the organisation's policy must be root's: run as root");
        let dir = tempfile::tempdir().unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let file = dir.path().join("managed-settings.json");
        std::fs::write(
            &file,
            r#"{"permissionRules": [{"effect": "deny", "tool": "network", "pattern": "*.corp.test"}]}"#,
        )
        .unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        let request = BoxRequest {
            network: true,
            allow_host: vec!["db.corp.test".to_owned(), "other.test".to_owned()],
            resolve: vec!["db.corp.test:10.0.0.5".to_owned(), "other.test:10.0.0.6".to_owned()],
            ..BoxRequest::default()
        };
        let rules = network_rules(&request, &Managed::load(&file)).unwrap();
        assert!(matches!(rules.addresses("db.corp.test", 5432), Err(net::Refusal::Denied { .. })));
        assert!(rules.addresses("other.test", 80).is_ok(), "the control: another allowed host");
        let none = network_rules(&request, &Managed::load(&dir.path().join("absent.json"))).unwrap();
        assert!(none.addresses("db.corp.test", 5432).is_ok(), "the control: without the policy");
    }
}

//! `warden sandbox [--project DIR] [--network] [--write DIR]… -- COMMAND [ARGS…]`: any command inside
//! exactly the box the agent's commands get, with the environment they get. Exit status passed
//! through (the box replaces this process: a command killed by signal N is seen as such); 125 when
//! Warden cannot prepare the box or start it, and when commands cannot be contained on this
//! machine (nothing runs unboxed from here). Where bubblewrap is installed but cannot create its
//! namespaces, it says so itself and exits 1.
//!
//! The `warden` front runs it for a well-formed command line without starting the engine (see
//! [`crate::front`]), and the engine runs it for every other spelling clap accepts; either way it
//! skips the mechanism probe (see [`containment::mechanism_unprobed`]): a script may start many
//! boxes, and each pays only for its own.

use std::ffi::OsString;
use std::path::PathBuf;

use warden_core::config::WardenHome;
use warden_core::containment::{self, BoxPolicy};

use crate::say;

/// What `warden sandbox` was asked for, however it was parsed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BoxRequest {
    /// The writable project folder; the current directory when absent.
    pub project: Option<PathBuf>,
    /// The network allowed (loopback included).
    pub network: bool,
    /// More writable folders.
    pub write: Vec<PathBuf>,
    /// The command and its arguments (at least the command).
    pub command: Vec<OsString>,
}

/// The status for "the box could not be set up" (as `env`, `nice` and `timeout` use 125).
const SETUP_FAILED: u8 = 125;

pub fn run(args: BoxRequest) -> u8 {
    match prepare(&args) {
        Ok(launch) => exec(launch),
        Err(message) => {
            say::err(&format!("warden sandbox: {message}"));
            SETUP_FAILED
        }
    }
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
    let warden_dirs: Vec<PathBuf> = WardenHome::from_env().map(|home| home.dirs()).unwrap_or_default();
    let mut policy = BoxPolicy::for_project(&project, &warden_dirs);
    policy.network = args.network;
    for dir in &args.write {
        let dir = std::fs::canonicalize(dir).map_err(|e| format!("--write {}: {e}", dir.display()))?;
        policy.writable.push(dir);
    }
    let cwd =
        std::env::current_dir().ok().filter(|d| d.starts_with(&project)).unwrap_or_else(|| project.clone());
    containment::launch_with(&mechanism, &policy, &args.command, &cwd).map_err(|e| e.to_string())
}

/// Replace this process with the box; returns only when that fails.
fn exec(launch: containment::Launch) -> u8 {
    use std::os::unix::process::CommandExt;
    let mut command = launch.command();
    command.env_clear().envs(warden_core::sandbox::env::child_env());
    // `exec` returns only on failure; `launch` (the seccomp descriptors) lives until then.
    let error = command.exec();
    drop(launch);
    say::err(&format!("warden sandbox: cannot start the box: {error}"));
    SETUP_FAILED
}

//! `warden sandbox [--project DIR] [--network] [--write DIR]… -- COMMAND [ARGS…]`: any command inside
//! exactly the box the agent's commands get, with the environment they get. Exit status passed
//! through (128 + N when the command died of signal N); 125 when the box cannot be set up, and
//! when commands cannot be contained on this machine (nothing runs unboxed from here).

use std::path::PathBuf;

use warden_core::config::WardenHome;
use warden_core::containment::{self, BoxPolicy};

use crate::args::SandboxArgs;
use crate::sanitize;

/// The status for "the box could not be set up" (as `env`, `nice` and `timeout` use 125).
const SETUP_FAILED: u8 = 125;

pub async fn run(args: SandboxArgs) -> u8 {
    match prepare(&args) {
        Ok(launch) => wait(launch).await,
        Err(message) => {
            eprintln!("warden sandbox: {}", sanitize::body(&message));
            SETUP_FAILED
        }
    }
}

fn prepare(args: &SandboxArgs) -> Result<containment::Launch, String> {
    let mechanism = containment::mechanism();
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
    containment::launch(&policy, &args.command, &cwd).map_err(|e| e.to_string())
}

async fn wait(launch: containment::Launch) -> u8 {
    let mut command = launch.command();
    command.env_clear().envs(warden_core::sandbox::env::child_env());
    let spawned = tokio::process::Command::from(command).kill_on_drop(true).spawn();
    drop(launch);
    let mut child = match spawned {
        Ok(child) => child,
        Err(error) => {
            eprintln!("warden sandbox: cannot start the box: {error}");
            return SETUP_FAILED;
        }
    };
    match child.wait().await {
        Ok(status) => exit_code(status),
        Err(error) => {
            eprintln!("warden sandbox: {error}");
            SETUP_FAILED
        }
    }
}

fn exit_code(status: std::process::ExitStatus) -> u8 {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => u8::try_from(code).unwrap_or(1),
        (None, Some(signal)) => u8::try_from(128 + signal).unwrap_or(1),
        (None, None) => 1,
    }
}

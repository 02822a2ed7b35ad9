//! One hook run: `sh -c command` as every process Warden starts for the model (its own session and
//! process group, the credential-stripped environment), in the project's box unless it is the
//! user's own hook marked to run outside it; the event as JSON on stdin; stdout and stderr kept up
//! to a cap; killed, with its whole group, at its time limit or when the turn is stopped.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio_util::sync::CancellationToken;

use super::Hook;
use crate::containment::BoxPolicy;
use crate::tool::process::{spawn_in_session, GroupGuard};

/// At most this much of each of stdout and stderr is kept (the rest is read and dropped).
pub const OUTPUT_CAP: usize = 64 * 1024;

/// Where a session's hooks run.
#[derive(Debug, Clone)]
pub struct Place {
    pub project: PathBuf,
    /// The project's box for commands; `None` where commands run unboxed (no OS box here).
    pub commands_box: Option<Arc<BoxPolicy>>,
}

/// What one run did.
#[derive(Debug, Clone, Default)]
pub struct Ran {
    pub exit_code: Option<i32>,
    pub timed_out: bool,
    pub stdout: String,
    pub stderr: String,
    pub duration: Duration,
    pub limit: Duration,
    pub contained: bool,
    pub spawn_error: Option<String>,
}

/// Run `hook` with `input` on stdin.
pub async fn run(hook: &Hook, input: &serde_json::Value, place: &Place, cancel: &CancellationToken) -> Ran {
    let started = Instant::now();
    let mut ran = Ran { limit: hook.timeout, ..Ran::default() };
    let argv: [OsString; 3] = ["sh".into(), "-c".into(), hook.command.clone().into()];
    let policy = if hook.outside_box { None } else { place.commands_box.as_deref() };
    if policy.is_none() && hook.origin == super::HookOrigin::Project {
        ran.spawn_error =
            Some("a project's hook runs only in the box, and commands are not boxed here".to_owned());
        return ran;
    }
    let project = place.project.clone();
    let spawned = spawn_in_session(&argv, &place.project, policy, |cmd| {
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        set_project_env(cmd, &project);
    });
    let (mut child, contained) = match spawned {
        Ok(spawned) => spawned,
        Err(error) => {
            ran.spawn_error = Some(error.to_string());
            return ran;
        }
    };
    ran.contained = contained;
    let group = GroupGuard::new(child.id());
    let stdin = child.stdin.take();
    let payload = serde_json::to_vec(input).unwrap_or_default();
    let feed = async move {
        if let Some(mut stdin) = stdin {
            // A hook that does not read its stdin closes the pipe: that is not a failure.
            let _ = stdin.write_all(&payload).await;
            let _ = stdin.shutdown().await;
        }
    };
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let work = async {
        let ((), out, err, status) = tokio::join!(feed, capped(stdout), capped(stderr), child.wait());
        (out, err, status)
    };
    tokio::select! {
        (out, err, status) = work => {
            ran.stdout = out;
            ran.stderr = err;
            ran.exit_code = status.ok().and_then(|s| s.code());
        }
        () = tokio::time::sleep(hook.timeout) => ran.timed_out = true,
        () = cancel.cancelled() => ran.spawn_error = Some("the turn was stopped".to_owned()),
    }
    // The whole group goes, whatever it left running.
    group.kill();
    drop(group);
    ran.duration = started.elapsed();
    ran
}

fn set_project_env(cmd: &mut tokio::process::Command, project: &Path) {
    // Claude Code's name, which hooks written for it use, and Warden's own.
    cmd.env("CLAUDE_PROJECT_DIR", project).env("WARDEN_PROJECT_DIR", project);
}

/// Everything `pipe` gives, the first [`OUTPUT_CAP`] bytes kept (lossily as UTF-8).
async fn capped(pipe: Option<impl AsyncRead + Unpin>) -> String {
    let Some(mut pipe) = pipe else { return String::new() };
    let mut kept = Vec::new();
    let mut buffer = [0_u8; 8192];
    loop {
        match pipe.read(&mut buffer).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = OUTPUT_CAP.saturating_sub(kept.len());
                kept.extend_from_slice(&buffer[..n.min(room)]);
            }
        }
    }
    String::from_utf8_lossy(&kept).into_owned()
}

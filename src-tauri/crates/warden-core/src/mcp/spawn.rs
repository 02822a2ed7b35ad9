//! Starting a stdio server the way every process for the model starts (`spawn_in_session`: its own
//! session, the project's box, the credential-stripped environment), plus only the variables its
//! entry configures; its whole process tree is killed as one when the connection ends. Its stderr
//! is kept as the last lines, for Settings.

use std::collections::{BTreeMap, VecDeque};
use std::ffi::OsString;
use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::process::{Child, ChildStdin, ChildStdout};

use crate::containment::BoxPolicy;
use crate::tool::process::{spawn_in_session, GroupGuard};

/// How many of the last stderr lines are kept.
const STDERR_LINES: usize = 40;
/// The longest stderr line kept (a server that prints megabytes on one line keeps memory flat).
const STDERR_LINE_CHARS: usize = 400;

/// The last lines a server wrote to stderr.
#[derive(Debug, Clone, Default)]
pub struct StderrTail(Arc<Mutex<VecDeque<String>>>);

impl StderrTail {
    pub fn lines(&self) -> Vec<String> {
        self.0.lock().map(|lines| lines.iter().cloned().collect()).unwrap_or_default()
    }

    fn push(&self, line: &str) {
        let line: String =
            line.chars().filter(|c| !c.is_control() || *c == '\t').take(STDERR_LINE_CHARS).collect();
        if let Ok(mut lines) = self.0.lock() {
            if lines.len() == STDERR_LINES {
                lines.pop_front();
            }
            lines.push_back(line);
        }
    }
}

/// A running server program. Dropping it kills its whole process group.
pub struct ServerProcess {
    pub child: Child,
    pub stderr: StderrTail,
    /// Whether it runs inside the sandbox.
    pub contained: bool,
    _group: GroupGuard,
}

/// Start `command args` in `cwd`, boxed by `policy` when given.
pub fn spawn(
    command: &str,
    args: &[String],
    env: &BTreeMap<String, String>,
    cwd: &Path,
    policy: Option<&BoxPolicy>,
) -> std::io::Result<(ServerProcess, ChildStdout, ChildStdin)> {
    let argv: Vec<OsString> =
        std::iter::once(OsString::from(command)).chain(args.iter().map(OsString::from)).collect();
    let (mut child, contained) = spawn_in_session(&argv, cwd, policy, |cmd| {
        cmd.envs(env).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    })?;
    let group = GroupGuard::new(child.id());
    let (Some(stdout), Some(stdin)) = (child.stdout.take(), child.stdin.take()) else {
        return Err(std::io::Error::other("the server's stdin/stdout could not be opened"));
    };
    let stderr = StderrTail::default();
    if let Some(pipe) = child.stderr.take() {
        let tail = stderr.clone();
        tokio::spawn(keep_tail(pipe, tail));
    }
    Ok((ServerProcess { child, stderr, contained, _group: group }, stdout, stdin))
}

/// Read `pipe` to its end, keeping its last lines; a line longer than the cap is cut, never held
/// whole.
async fn keep_tail(mut pipe: impl AsyncRead + Unpin, tail: StderrTail) {
    let mut chunk = [0u8; 8192];
    let mut line: Vec<u8> = Vec::new();
    loop {
        let read = match pipe.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(read) => read,
        };
        for piece in chunk[..read].split_inclusive(|b| *b == b'\n') {
            let room = (STDERR_LINE_CHARS * 4).saturating_sub(line.len());
            line.extend_from_slice(&piece[..piece.len().min(room)]);
            if piece.ends_with(b"\n") {
                tail.push(String::from_utf8_lossy(&line).trim_end());
                line.clear();
            }
        }
    }
    if !line.is_empty() {
        tail.push(String::from_utf8_lossy(&line).trim_end());
    }
}

//! Child processes: spawning `sh -c` in its own process group with a sanitized environment, killing
//! the whole group, pumping stdout/stderr as they come, and keeping output in bounded buffers so a
//! command that prints gigabytes keeps Warden's memory flat.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::path::Path;
use std::process::Stdio;

use tokio::io::AsyncReadExt;
use tokio::process::{Child, ChildStderr, ChildStdout, Command};
use warden_protocol::OutputStream;

use super::OutputSink;
use crate::containment::{self, BoxPolicy};
use crate::sandbox::env::child_env;

/// `sh -c command` in `cwd`: stdin closed, stdout/stderr piped, credentials stripped from the
/// environment, its own session (so it has no controlling terminal: it cannot open `/dev/tty` to
/// read or type into the terminal Warden asks its questions on) and so its own process group (the
/// group can be killed as one). With a box, `sh` runs inside it ([`containment::launch`]): the
/// group is led by the box's launcher, and the box's whole process tree dies with it. The session
/// is registered with [`crate::process_guard`] until the caller releases it ([`GroupGuard`], or
/// `release` for background commands).
pub(crate) fn spawn_shell(
    command: &str,
    cwd: &Path,
    commands_box: Option<&BoxPolicy>,
) -> std::io::Result<Child> {
    let argv: [OsString; 3] = ["sh".into(), "-c".into(), command.into()];
    let (child, _contained) = spawn_in_session(&argv, cwd, commands_box, |cmd| {
        cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    })?;
    Ok(child)
}

/// `argv` in `cwd` as every process Warden starts for the model runs: inside `policy`'s box when
/// given ([`containment::launch`]), with the credential-stripped environment, in a session (and
/// process group) of its own registered with [`crate::process_guard`], killed when dropped.
/// `configure` sets its stdio and anything else (an MCP server's own variables) last. Says
/// whether the process is contained.
pub(crate) fn spawn_in_session(
    argv: &[OsString],
    cwd: &Path,
    policy: Option<&BoxPolicy>,
    configure: impl FnOnce(&mut Command),
) -> std::io::Result<(Child, bool)> {
    // Kept alive until the spawn: the launcher inherits its descriptors (the seccomp filter).
    let launch = match policy {
        Some(policy) => Some(containment::launch(policy, argv, cwd).map_err(std::io::Error::other)?),
        None => None,
    };
    let contained = launch.as_ref().is_some_and(|l| l.contained);
    let std_command = match &launch {
        Some(launch) => launch.command(),
        None => {
            containment::note_unboxed();
            let (program, args) = argv.split_first().ok_or_else(|| std::io::Error::other("no command"))?;
            let mut plain = std::process::Command::new(program);
            plain.args(args);
            plain
        }
    };
    let mut cmd = Command::from(std_command);
    cmd.current_dir(cwd).env_clear().envs(child_env()).kill_on_drop(true);
    configure(&mut cmd);
    #[cfg(unix)]
    new_session(&mut cmd);
    let child = crate::process_guard::spawn_registered(|| cmd.spawn(), Child::id);
    drop(launch);
    Ok((child?, contained))
}

/// `setsid()` in the child before `exec`: a new session and process group led by the child, with no
/// controlling terminal.
#[cfg(unix)]
#[allow(unsafe_code)]
fn new_session(cmd: &mut Command) {
    // SAFETY: the closure runs in the forked child between fork and exec. It only calls setsid(2),
    // which is async-signal-safe, and builds an io::Error from an errno without allocating; it
    // touches no lock and no state of the parent.
    unsafe {
        cmd.pre_exec(|| match nix::unistd::setsid() {
            Ok(_) => Ok(()),
            Err(errno) => Err(std::io::Error::from_raw_os_error(errno as i32)),
        });
    }
}

/// Kills a process group with SIGKILL when told to, and always when dropped (timeouts, cancellation
/// and a dropped future all end the whole group, grandchildren included). Dropping it also releases
/// the command's session, so the next sweep kills whatever of it escaped the group.
pub(crate) struct GroupGuard {
    pgid: Option<i32>,
}

impl GroupGuard {
    pub fn new(pid: Option<u32>) -> Self {
        Self { pgid: pid.and_then(|p| i32::try_from(p).ok()).filter(|p| *p > 1) }
    }

    pub fn kill(&self) {
        if let Some(pgid) = self.pgid {
            kill_group(pgid);
        }
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        self.kill();
        if let Some(pgid) = self.pgid {
            crate::process_guard::release(pgid);
        }
    }
}

#[cfg(unix)]
pub(crate) fn kill_group(pgid: i32) {
    use nix::sys::signal::{killpg, Signal};
    use nix::unistd::Pid;
    // ESRCH (the group is already gone) is the normal case after a clean exit.
    let _ = killpg(Pid::from_raw(pgid), Signal::SIGKILL);
}

#[cfg(not(unix))]
pub(crate) fn kill_group(_pgid: i32) {}

/// The first `cap/2` bytes and the last `cap/2` bytes of a stream, and how many bytes it had.
pub(crate) struct HeadTail {
    head: Vec<u8>,
    tail: VecDeque<u8>,
    half: usize,
    total: u64,
}

impl HeadTail {
    pub fn new(cap: usize) -> Self {
        let half = (cap / 2).max(1);
        Self { head: Vec::with_capacity(half.min(64 * 1024)), tail: VecDeque::new(), half, total: 0 }
    }

    pub fn push(&mut self, mut bytes: &[u8]) {
        self.total += bytes.len() as u64;
        if self.head.len() < self.half {
            let take = (self.half - self.head.len()).min(bytes.len());
            self.head.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
        }
        if bytes.len() >= self.half {
            self.tail.clear();
            self.tail.extend(&bytes[bytes.len() - self.half..]);
            return;
        }
        let overflow = (self.tail.len() + bytes.len()).saturating_sub(self.half);
        self.tail.drain(..overflow);
        self.tail.extend(bytes);
    }

    pub fn total(&self) -> u64 {
        self.total
    }

    /// Bytes held right now (never more than the cap).
    pub fn held(&self) -> usize {
        self.head.len() + self.tail.len()
    }

    pub fn dropped(&self) -> u64 {
        self.total - self.held() as u64
    }

    /// The text, with a marker where bytes were dropped.
    pub fn render(&self) -> String {
        let mut text = String::from_utf8_lossy(&self.head).into_owned();
        if self.dropped() > 0 {
            text.push_str(&format!(
                "\n\n[… {} bytes of output dropped: {} bytes in all, first and last {} kept …]\n\n",
                self.dropped(),
                self.total,
                self.half
            ));
        }
        let (a, b) = self.tail.as_slices();
        let mut tail = Vec::with_capacity(self.tail.len());
        tail.extend_from_slice(a);
        tail.extend_from_slice(b);
        text.push_str(&String::from_utf8_lossy(&tail));
        text
    }
}

/// Turns byte chunks into text chunks without splitting a UTF-8 sequence across two of them.
#[derive(Default)]
pub(crate) struct Utf8Chunker {
    carry: Vec<u8>,
}

impl Utf8Chunker {
    pub fn push(&mut self, bytes: &[u8]) -> String {
        self.carry.extend_from_slice(bytes);
        let valid = match std::str::from_utf8(&self.carry) {
            Ok(_) => self.carry.len(),
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            Err(_) => self.carry.len(),
        };
        let rest = self.carry.split_off(valid);
        let text = String::from_utf8_lossy(&self.carry).into_owned();
        self.carry = rest;
        text
    }

    pub fn finish(&mut self) -> String {
        let text = String::from_utf8_lossy(&self.carry).into_owned();
        self.carry.clear();
        text
    }
}

/// Reads a child's stdout and stderr as they come, in arrival order.
pub(crate) struct Pump {
    stdout: Option<ChildStdout>,
    stderr: Option<ChildStderr>,
    out_buf: Vec<u8>,
    err_buf: Vec<u8>,
    out_text: Utf8Chunker,
    err_text: Utf8Chunker,
}

impl Pump {
    pub fn new(child: &mut Child) -> Self {
        Self {
            stdout: child.stdout.take(),
            stderr: child.stderr.take(),
            out_buf: vec![0; 64 * 1024],
            err_buf: vec![0; 64 * 1024],
            out_text: Utf8Chunker::default(),
            err_text: Utf8Chunker::default(),
        }
    }

    pub fn done(&self) -> bool {
        self.stdout.is_none() && self.stderr.is_none()
    }

    /// The next chunk from either stream; `None` when both are closed. Cancel-safe.
    pub async fn next(&mut self) -> Option<(OutputStream, &[u8])> {
        loop {
            let Self { stdout, stderr, out_buf, err_buf, .. } = self;
            let (out_open, err_open) = (stdout.is_some(), stderr.is_some());
            if !out_open && !err_open {
                return None;
            }
            let (stream, read) = tokio::select! {
                read = async {
                    match stdout.as_mut() {
                        Some(s) => s.read(out_buf).await,
                        None => Ok(0),
                    }
                }, if out_open => (OutputStream::Stdout, read),
                read = async {
                    match stderr.as_mut() {
                        Some(s) => s.read(err_buf).await,
                        None => Ok(0),
                    }
                }, if err_open => (OutputStream::Stderr, read),
            };
            match (stream, read) {
                (OutputStream::Stdout, Ok(n)) if n > 0 => return Some((stream, &self.out_buf[..n])),
                (OutputStream::Stderr, Ok(n)) if n > 0 => return Some((stream, &self.err_buf[..n])),
                (OutputStream::Stdout, _) => self.stdout = None,
                (OutputStream::Stderr, _) => self.stderr = None,
            }
        }
    }

    /// Forward a chunk to the UI as text (UTF-8 sequences kept whole across chunks).
    pub fn stream_to(&mut self, sink: &OutputSink, stream: OutputStream, bytes: &[u8]) {
        if !sink.is_listening() {
            return;
        }
        let chunker = match stream {
            OutputStream::Stdout => &mut self.out_text,
            OutputStream::Stderr => &mut self.err_text,
        };
        sink.send(stream, chunker.push(bytes));
    }

    pub fn flush_to(&mut self, sink: &OutputSink) {
        sink.send(OutputStream::Stdout, self.out_text.finish());
        sink.send(OutputStream::Stderr, self.err_text.finish());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_tail_stays_bounded_and_keeps_both_ends() {
        let mut buf = HeadTail::new(100);
        buf.push(b"START");
        for _ in 0..10_000 {
            buf.push(&[b'x'; 1000]);
        }
        buf.push(b"END");
        assert!(buf.held() <= 100);
        assert_eq!(buf.total(), 5 + 10_000_000 + 3);
        let text = buf.render();
        assert!(text.starts_with("START") && text.ends_with("END") && text.contains("dropped"));
    }

    #[test]
    fn utf8_sequences_are_not_split() {
        let mut chunker = Utf8Chunker::default();
        let bytes = "é".as_bytes();
        assert_eq!(chunker.push(&bytes[..1]), "");
        assert_eq!(chunker.push(&bytes[1..]), "é");
    }
}

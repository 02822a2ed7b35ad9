//! Warden's own process: closed to same-user processes, and the processes its tools leave behind
//! killed.
//!
//! - [`harden_process`] makes the process non-dumpable: a process of the same user (a command Warden
//!   ran, say) can no longer open `/proc/<warden>/fd/*`, read `/proc/<warden>/environ` or `mem`, or
//!   ptrace it. Call it first thing, in the CLI and in the desktop shell alike.
//! - [`become_subreaper`] makes Warden the parent of every orphan its commands leave (`setsid cmd &`,
//!   a double-forked daemon), instead of init, and turns on the sweeps below.
//! - Every shell a tool starts is its own session (see `tool::process`), registered here while it is
//!   meant to run. [`kill_orphans`] kills every descendant of Warden that belongs to a session other
//!   than Warden's own and not to a registered one; [`kill_all_descendants`] kills every descendant
//!   in another session. A command cannot join Warden's session (setsid only makes new ones), so
//!   children Warden starts itself (a webview, `secret-tool`) are never touched.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};

/// Sessions (= pid of the shell that leads them) of commands that are meant to be running.
static LIVE: Mutex<Vec<i32>> = Mutex::new(Vec::new());
/// Set by [`become_subreaper`]: the sweeps only run in a process that opted in.
static SWEEPS: AtomicBool = AtomicBool::new(false);

fn live() -> MutexGuard<'static, Vec<i32>> {
    // A panic while holding the list leaves it usable: it is a plain list of pids.
    LIVE.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Make this process non-dumpable (`PR_SET_DUMPABLE` 0): same-user processes can no longer open its
/// file descriptors or read its environment or memory through `/proc`, nor attach a debugger.
/// Children are not affected (`execve` resets the flag).
pub fn harden_process() -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    nix::sys::prctl::set_dumpable(false)?;
    Ok(())
}

/// Whether [`harden_process`] is in effect.
pub fn is_hardened() -> bool {
    #[cfg(target_os = "linux")]
    let hardened = nix::sys::prctl::get_dumpable().is_ok_and(|dumpable| !dumpable);
    #[cfg(not(target_os = "linux"))]
    let hardened = false;
    hardened
}

/// Become a child subreaper (`PR_SET_CHILD_SUBREAPER`): orphans of the commands Warden runs are
/// reparented to it, so [`kill_orphans`] and [`kill_all_descendants`] can find and end them.
pub fn become_subreaper() -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    nix::sys::prctl::set_child_subreaper(true)?;
    SWEEPS.store(true, Ordering::SeqCst);
    Ok(())
}

/// Run `spawn` (which starts a process leading a new session) and register that session as live,
/// atomically with respect to the sweeps: a sweep never sees the new session unregistered.
pub(crate) fn spawn_registered<T>(
    spawn: impl FnOnce() -> std::io::Result<T>,
    pid: impl FnOnce(&T) -> Option<u32>,
) -> std::io::Result<T> {
    let mut live = live();
    let child = spawn()?;
    if let Some(pid) = pid(&child).and_then(|p| i32::try_from(p).ok()) {
        live.push(pid);
    }
    Ok(child)
}

/// The session led by `sid` is no longer meant to run: the next sweep may kill what is left of it.
pub(crate) fn release(sid: i32) {
    live().retain(|s| *s != sid);
}

/// Kill (SIGKILL) and reap every descendant of this process that is in neither Warden's own session
/// nor the session of a command still meant to run. Blocks for at most about two seconds. Does
/// nothing unless [`become_subreaper`] was called.
pub fn kill_orphans() {
    if SWEEPS.load(Ordering::SeqCst) {
        sweep(false);
    }
}

/// Kill and reap every descendant in another session than Warden's, running commands included (the
/// end of a session, an interrupt). Does nothing unless [`become_subreaper`] was called.
pub fn kill_all_descendants() {
    if SWEEPS.load(Ordering::SeqCst) {
        sweep(true);
    }
}

/// [`kill_orphans`] off the async runtime's worker threads.
pub(crate) async fn kill_orphans_async() {
    if SWEEPS.load(Ordering::SeqCst) {
        let _ = tokio::task::spawn_blocking(kill_orphans).await;
    }
}

#[cfg(target_os = "linux")]
fn sweep(everything: bool) {
    use std::time::{Duration, Instant};

    use nix::sys::signal::{kill, Signal};
    use nix::sys::wait::{waitpid, WaitPidFlag};
    use nix::unistd::{getpid, getsid, Pid};

    let me = getpid().as_raw();
    let Ok(own_session) = getsid(None).map(Pid::as_raw) else { return };
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        let targets = {
            // Held while scanning and killing: no command starts (and registers) in between.
            let live = live();
            let targets: Vec<Proc> = descendants(me, &read_processes())
                .into_iter()
                .filter(|p| p.session != own_session && (everything || !live.contains(&p.session)))
                .collect();
            for p in targets.iter().filter(|p| !p.zombie) {
                let _ = kill(Pid::from_raw(p.pid), Signal::SIGKILL);
            }
            targets
        };
        // Orphans are reparented to us: reap the ones that died (no-op for the others).
        for p in targets.iter().filter(|p| p.ppid == me) {
            let _ = waitpid(Pid::from_raw(p.pid), Some(WaitPidFlag::WNOHANG));
        }
        if targets.is_empty() || Instant::now() >= deadline {
            return;
        }
        // A killed process takes a moment to become a zombie; its own children then come to us.
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[cfg(not(target_os = "linux"))]
fn sweep(_everything: bool) {}

/// One line of `/proc/<pid>/stat`, the fields that matter here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Proc {
    pub pid: i32,
    pub ppid: i32,
    pub session: i32,
    pub zombie: bool,
}

/// Parse `/proc/<pid>/stat`: `pid (comm) state ppid pgrp session …`. `comm` is whatever bytes the
/// process named itself (spaces, parentheses, bytes that are not UTF-8), so the fields are read
/// after the last `)` and only they must be text.
pub(crate) fn parse_stat(stat: &[u8]) -> Option<Proc> {
    let close = stat.iter().rposition(|&b| b == b')')?;
    let (head, rest) = (&stat[..close], std::str::from_utf8(&stat[close + 1..]).ok()?);
    let open = head.iter().position(|&b| b == b'(')?;
    let pid = std::str::from_utf8(&head[..open]).ok()?.trim().parse().ok()?;
    let mut fields = rest.split_ascii_whitespace();
    let state = fields.next()?;
    let ppid = fields.next()?.parse().ok()?;
    let _pgrp = fields.next()?;
    let session = fields.next()?.parse().ok()?;
    Some(Proc { pid, ppid, session, zombie: state == "Z" || state == "X" })
}

/// Every process of the machine, from one read of each `/proc/<pid>/stat` into one buffer (a stat
/// line is a few hundred bytes; the sweep runs after every call, so it stays cheap on a machine with
/// many processes).
fn read_processes() -> Vec<Proc> {
    use std::io::Read;

    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    let mut buf = vec![0u8; 4096];
    dir.filter_map(Result::ok)
        .filter(|e| e.file_name().to_str().is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit())))
        .filter_map(|e| {
            let mut file = std::fs::File::open(e.path().join("stat")).ok()?;
            let n = file.read(&mut buf).ok()?;
            parse_stat(&buf[..n])
        })
        .collect()
}

/// Every process whose chain of parents leads to `root` (not `root` itself).
pub(crate) fn descendants(root: i32, processes: &[Proc]) -> Vec<Proc> {
    let mut found = Vec::new();
    let mut frontier = vec![root];
    while let Some(parent) = frontier.pop() {
        for p in processes.iter().filter(|p| p.ppid == parent && p.pid != root) {
            if !found.iter().any(|f: &Proc| f.pid == p.pid) {
                found.push(*p);
                frontier.push(p.pid);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_parse_even_with_odd_names() {
        let p = parse_stat(b"4242 (a) b) (c) S 17 4242 4242 0 -1 4194560 0 0").unwrap();
        assert_eq!(p, Proc { pid: 4242, ppid: 17, session: 4242, zombie: false });
        assert!(parse_stat(b"9 (sleep) Z 1 9 9 0").unwrap().zombie);
        assert_eq!(parse_stat(b"garbage"), None);
        // A process may name itself with any bytes; it must still be seen (and swept).
        let odd = parse_stat(b"77 (\xff\xfe) x) R 5 77 70 0").unwrap();
        assert_eq!(odd, Proc { pid: 77, ppid: 5, session: 70, zombie: false });
    }

    #[test]
    fn descendants_follow_parent_chains_only() {
        let p = |pid, ppid| Proc { pid, ppid, session: pid, zombie: false };
        let table = [p(1, 0), p(10, 1), p(11, 10), p(12, 11), p(13, 10), p(20, 1), p(21, 20)];
        let mut pids: Vec<i32> = descendants(10, &table).iter().map(|p| p.pid).collect();
        pids.sort_unstable();
        assert_eq!(pids, [11, 12, 13]);
    }

    #[test]
    fn this_process_reads_as_its_own_child_of_its_parent() {
        let me = std::process::id() as i32;
        let all = read_processes();
        let mine = all.iter().find(|p| p.pid == me).unwrap();
        assert_eq!(mine.ppid, nix::unistd::getppid().as_raw());
    }
}

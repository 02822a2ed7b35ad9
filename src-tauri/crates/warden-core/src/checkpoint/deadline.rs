//! A time limit on every git the store starts. A git that does not finish in time is killed, which
//! closes its pipes: whoever waits on it gets an end of file at once, reports the git as stopped,
//! and the store's lock is released with the call that failed. Nothing of the store waits forever.
//!
//! The git is never reaped while its watch is armed, so the process the watch kills is always the
//! git itself (a reaped process id could be given to another process).

use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long one git of the store may run (one request, for a long-lived one).
pub(super) const GIT_TIME_LIMIT: Duration = Duration::from_secs(120);

#[derive(Default)]
struct Armed {
    /// When the git is to be killed; `None` while it is not working for anyone.
    deadline: Option<Instant>,
    /// The watch ends (its git is about to be reaped).
    done: bool,
    /// The git was killed by this watch.
    fired: bool,
}

/// A watch over one child process.
pub(super) struct Watch {
    shared: Arc<(Mutex<Armed>, Condvar)>,
    thread: Option<JoinHandle<()>>,
}

impl Watch {
    /// Watch the process `pid`; nothing happens until [`Watch::arm`].
    pub fn new(pid: u32) -> Self {
        let shared = Arc::new((Mutex::new(Armed::default()), Condvar::new()));
        let watched = shared.clone();
        let thread = std::thread::Builder::new()
            .name("checkpoint-git-watch".into())
            .spawn(move || watch(pid, &watched))
            .ok();
        Self { shared, thread }
    }

    /// Watch a process that must end within `limit` from now.
    pub fn started(pid: u32, limit: Duration) -> Self {
        let watch = Self::new(pid);
        watch.arm(limit);
        watch
    }

    /// Kill the process unless it is disarmed within `limit` from now.
    pub fn arm(&self, limit: Duration) {
        let mut armed = lock(&self.shared.0);
        armed.deadline = Some(Instant::now() + limit);
        self.shared.1.notify_all();
    }

    /// The process finished its work in time. Whether it was killed (then its answer is cut).
    pub fn disarm(&self) -> bool {
        let mut armed = lock(&self.shared.0);
        armed.deadline = None;
        armed.fired
    }

    /// Whether the watch killed its process.
    #[cfg(test)]
    pub fn fired(&self) -> bool {
        lock(&self.shared.0).fired
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        {
            let mut armed = lock(&self.shared.0);
            armed.done = true;
            self.shared.1.notify_all();
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn watch(pid: u32, shared: &(Mutex<Armed>, Condvar)) {
    let (state, changed) = shared;
    let mut armed = lock(state);
    loop {
        if armed.done {
            return;
        }
        match armed.deadline {
            None => armed = changed.wait(armed).unwrap_or_else(PoisonError::into_inner),
            Some(deadline) => {
                let now = Instant::now();
                if now >= deadline {
                    kill_group(pid);
                    armed.fired = true;
                    armed.deadline = None;
                    continue;
                }
                armed = changed.wait_timeout(armed, deadline - now).unwrap_or_else(PoisonError::into_inner).0;
            }
        }
    }
}

/// Kill the process and its group (the store's gits lead groups of their own), so whatever the
/// git started goes too and no pipe stays open behind it.
#[cfg(unix)]
fn kill_group(pid: u32) {
    use nix::sys::signal::{kill, killpg, Signal};
    if let Ok(pid) = i32::try_from(pid) {
        let pid = nix::unistd::Pid::from_raw(pid);
        let _ = killpg(pid, Signal::SIGKILL);
        let _ = kill(pid, Signal::SIGKILL);
    }
}

#[cfg(not(unix))]
fn kill_group(_pid: u32) {}

fn lock(m: &Mutex<Armed>) -> MutexGuard<'_, Armed> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_process_past_its_limit_is_killed_and_one_in_time_is_not() {
        let mut slow =
            std::process::Command::new("sleep").arg("30").spawn().unwrap_or_else(|e| panic!("{e}"));
        let watch = Watch::started(slow.id(), Duration::from_millis(50));
        let status = slow.wait().unwrap_or_else(|e| panic!("{e}"));
        assert!(watch.fired(), "the watch did not fire");
        assert!(!status.success(), "{status}");
        drop(watch);

        let mut quick = std::process::Command::new("true").spawn().unwrap_or_else(|e| panic!("{e}"));
        let watch = Watch::started(quick.id(), Duration::from_secs(30));
        // Disarmed before the reap: the watch cannot touch whatever gets the id later.
        std::thread::sleep(Duration::from_millis(20));
        assert!(!watch.disarm(), "killed although in time");
        drop(watch);
        assert!(quick.wait().unwrap_or_else(|e| panic!("{e}")).success());
    }
}

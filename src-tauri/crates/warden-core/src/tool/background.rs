//! Background commands: `bash {background: true}` starts one, `command_output` reads what it printed
//! from an offset, `cancel_command` stops it (the tools are in `crate::tools`). They live in the
//! session's [`BackgroundProcesses`] and their process groups, and whatever escaped them, are killed
//! when it is dropped.

use std::collections::{HashMap, VecDeque};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::process::{kill_group, spawn_shell, Pump};
use crate::containment::BoxPolicy;

/// At most this many background commands per session, running or finished.
const MAX_BACKGROUND: usize = 32;

/// The last `cap` bytes of a stream, addressed by absolute offset.
struct Ring {
    bytes: VecDeque<u8>,
    cap: usize,
    /// Absolute offset of `bytes[0]`.
    start: u64,
}

impl Ring {
    fn push(&mut self, data: &[u8]) {
        self.bytes.extend(data);
        let excess = self.bytes.len().saturating_sub(self.cap);
        self.bytes.drain(..excess);
        self.start += excess as u64;
    }

    fn end(&self) -> u64 {
        self.start + self.bytes.len() as u64
    }

    /// Bytes from `from` (or the oldest kept, if older ones were dropped), at most `limit`.
    fn read(&self, from: u64, limit: usize) -> (u64, Vec<u8>) {
        let from = from.clamp(self.start, self.end());
        let skip = (from - self.start) as usize;
        (from, self.bytes.iter().skip(skip).take(limit).copied().collect())
    }
}

/// Where a background command is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CommandStatus {
    Running,
    Exited(Option<i32>),
    Cancelled,
}

struct Process {
    command: String,
    pgid: Option<i32>,
    state: Mutex<(Ring, CommandStatus)>,
}

/// What [`BackgroundProcesses::read`] found.
pub(crate) struct OutputWindow {
    /// The command line.
    pub command: String,
    /// Offset of the first byte: the one asked for, or the oldest still kept if older ones were dropped.
    pub from: u64,
    pub bytes: Vec<u8>,
    /// Offset just past the newest byte kept.
    pub end: u64,
    pub status: CommandStatus,
}

/// The background commands of one session. Dropping it kills every one of them.
#[derive(Default)]
pub struct BackgroundProcesses {
    processes: Mutex<HashMap<String, Arc<Process>>>,
    next: AtomicU64,
}

impl std::fmt::Debug for BackgroundProcesses {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BackgroundProcesses").field("count", &self.handles().len()).finish()
    }
}

impl BackgroundProcesses {
    pub fn new() -> Self {
        Self::default()
    }

    /// Handles of every background command started in this session.
    pub fn handles(&self) -> Vec<String> {
        let mut handles: Vec<String> =
            self.processes.lock().map(|p| p.keys().cloned().collect()).unwrap_or_default();
        handles.sort();
        handles
    }

    /// Start `command` in the background (needs a tokio runtime); returns its handle and pid.
    pub(crate) fn start(
        &self,
        command: &str,
        cwd: &Path,
        commands_box: Option<&BoxPolicy>,
        cap: usize,
    ) -> Result<(String, Option<u32>), String> {
        let mut processes = self.processes.lock().map_err(|_| "the process table is poisoned".to_owned())?;
        if processes.len() >= MAX_BACKGROUND {
            return Err(format!("at most {MAX_BACKGROUND} background commands per session"));
        }
        // Its box outlives this call: repositories made while it runs count as new until it ends.
        let outlives = commands_box.and_then(BoxPolicy::outlives_its_call);
        let mut child =
            spawn_shell(command, cwd, commands_box).map_err(|e| format!("could not start `sh`: {e}"))?;
        let pid = child.id();
        let process = Arc::new(Process {
            command: command.to_owned(),
            pgid: pid.and_then(|p| i32::try_from(p).ok()).filter(|p| *p > 1),
            state: Mutex::new((
                Ring { bytes: VecDeque::new(), cap: cap.max(1), start: 0 },
                CommandStatus::Running,
            )),
        });
        let handle = format!("bg-{}", self.next.fetch_add(1, Ordering::Relaxed) + 1);
        processes.insert(handle.clone(), process.clone());
        let mut pump = Pump::new(&mut child);
        tokio::spawn(async move {
            while let Some((_, bytes)) = pump.next().await {
                if let Ok(mut state) = process.state.lock() {
                    state.0.push(bytes);
                }
            }
            let exit = child.wait().await.ok().and_then(|s| s.code());
            if let Ok(mut state) = process.state.lock() {
                if state.1 == CommandStatus::Running {
                    state.1 = CommandStatus::Exited(exit);
                }
            }
            // Whatever the shell left running in its group ends with it.
            if let Some(pgid) = process.pgid {
                kill_group(pgid);
                crate::process_guard::release(pgid);
            }
            // Its box is gone: what it left in the project's git metadata is looked at once more.
            drop(outlives);
        });
        Ok((handle, pid))
    }

    /// The commands still running: handle and command line.
    pub fn running(&self) -> Vec<(String, String)> {
        let Ok(processes) = self.processes.lock() else { return Vec::new() };
        let mut running: Vec<(String, String)> = processes
            .iter()
            .filter(|(_, p)| p.state.lock().is_ok_and(|s| s.1 == CommandStatus::Running))
            .map(|(handle, p)| (handle.clone(), p.command.clone()))
            .collect();
        running.sort();
        running
    }

    fn get(&self, handle: &str) -> Option<Arc<Process>> {
        self.processes.lock().ok()?.get(handle).cloned()
    }

    /// At most `limit` bytes of a background command's output from offset `from`, and its status.
    /// `None` for an unknown handle.
    pub(crate) fn read(&self, handle: &str, from: u64, limit: usize) -> Option<Result<OutputWindow, String>> {
        let process = self.get(handle)?;
        let Ok(state) = process.state.lock() else {
            return Some(Err("the process table is poisoned".to_owned()));
        };
        let (ring, status) = &*state;
        let (from, bytes) = ring.read(from, limit);
        Some(Ok(OutputWindow {
            command: process.command.clone(),
            from,
            bytes,
            end: ring.end(),
            status: *status,
        }))
    }

    /// Kill a background command's whole process group. `None` for an unknown handle, `Some(false)`
    /// when it had already ended.
    pub fn cancel(&self, handle: &str) -> Option<bool> {
        let process = self.get(handle)?;
        let mut state = process.state.lock().ok()?;
        if state.1 != CommandStatus::Running {
            return Some(false);
        }
        if let Some(pgid) = process.pgid {
            kill_group(pgid);
            crate::process_guard::release(pgid);
        }
        state.1 = CommandStatus::Cancelled;
        Some(true)
    }

    /// Kill every background command of the session, and every orphan left by any command.
    pub fn kill_all(&self) {
        if let Ok(processes) = self.processes.lock() {
            for process in processes.values() {
                if let Some(pgid) = process.pgid {
                    kill_group(pgid);
                    crate::process_guard::release(pgid);
                }
            }
        }
        crate::process_guard::kill_orphans();
    }
}

impl Drop for BackgroundProcesses {
    fn drop(&mut self) {
        self.kill_all();
    }
}

//! Background commands: `bash {background: true}` starts one, `command_output` reads what it printed
//! from an offset, `cancel_command` stops it. They live in the session's [`BackgroundProcesses`] and
//! their process groups, and whatever escaped them, are killed when it is dropped.

use std::collections::{HashMap, VecDeque};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::Deserialize;
use warden_protocol::{DangerLevel, ToolCategory, ToolErrorCode};

use super::process::{kill_group, spawn_shell, Pump};
use super::{ToolContext, ToolOutput, TypedTool};

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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Running,
    Exited(Option<i32>),
    Cancelled,
}

struct Process {
    command: String,
    pgid: Option<i32>,
    state: Mutex<(Ring, Status)>,
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
        cap: usize,
    ) -> Result<(String, Option<u32>), String> {
        let mut processes = self.processes.lock().map_err(|_| "the process table is poisoned".to_owned())?;
        if processes.len() >= MAX_BACKGROUND {
            return Err(format!("at most {MAX_BACKGROUND} background commands per session"));
        }
        let mut child = spawn_shell(command, cwd).map_err(|e| format!("could not start `sh`: {e}"))?;
        let pid = child.id();
        let process = Arc::new(Process {
            command: command.to_owned(),
            pgid: pid.and_then(|p| i32::try_from(p).ok()).filter(|p| *p > 1),
            state: Mutex::new((Ring { bytes: VecDeque::new(), cap: cap.max(1), start: 0 }, Status::Running)),
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
                if state.1 == Status::Running {
                    state.1 = Status::Exited(exit);
                }
            }
            // Whatever the shell left running in its group ends with it.
            if let Some(pgid) = process.pgid {
                kill_group(pgid);
                crate::process_guard::release(pgid);
            }
        });
        Ok((handle, pid))
    }

    fn get(&self, handle: &str) -> Option<Arc<Process>> {
        self.processes.lock().ok()?.get(handle).cloned()
    }

    /// Kill a background command's whole process group. `None` for an unknown handle, `Some(false)`
    /// when it had already ended.
    pub fn cancel(&self, handle: &str) -> Option<bool> {
        let process = self.get(handle)?;
        let mut state = process.state.lock().ok()?;
        if state.1 != Status::Running {
            return Some(false);
        }
        if let Some(pgid) = process.pgid {
            kill_group(pgid);
            crate::process_guard::release(pgid);
        }
        state.1 = Status::Cancelled;
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

/// Read the output of a background command started with `bash {background: true}`, from a byte
/// offset. The result ends with the command's status and the offset to read on from.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CommandOutputInput {
    /// The handle `bash` returned (e.g. `bg-1`).
    pub handle: String,
    /// Byte offset to read from (default 0; use the `next_offset` of the previous read).
    #[serde(default)]
    pub from: Option<u64>,
    /// Read at most this many bytes (default 65536).
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub limit: Option<u64>,
}

pub struct CommandOutputTool;

fn unknown(handle: &str, ctx: &ToolContext) -> ToolOutput {
    let known = ctx.processes.handles();
    ToolOutput::error(
        ToolErrorCode::ValidationError,
        format!("invalid input: field `handle`: no background command `{handle}` (known: {known:?})"),
    )
}

#[async_trait]
impl TypedTool for CommandOutputTool {
    type Input = CommandOutputInput;
    const NAME: &'static str = "command_output";
    const CATEGORY: ToolCategory = ToolCategory::Exec;
    const DANGER: DangerLevel = DangerLevel::Safe;
    const PARALLEL: bool = true;

    async fn run(&self, input: CommandOutputInput, ctx: ToolContext) -> ToolOutput {
        let Some(process) = ctx.processes.get(&input.handle) else { return unknown(&input.handle, &ctx) };
        let limit = input.limit.unwrap_or(64 * 1024).min(ctx.config.model_output_cap as u64) as usize;
        let Ok(state) = process.state.lock() else {
            return ToolOutput::error(ToolErrorCode::ExecutionError, "the process table is poisoned");
        };
        let (ring, status) = &*state;
        let requested = input.from.unwrap_or(0);
        let (from, bytes) = ring.read(requested, limit);
        let next = from + bytes.len() as u64;
        let mut text = String::from_utf8_lossy(&bytes).into_owned();
        if from > requested {
            text.insert_str(
                0,
                &format!("[{} older bytes were dropped; reading from offset {from}]\n", from - requested),
            );
        }
        let status_text = match status {
            Status::Running => "running".to_owned(),
            Status::Exited(Some(code)) => format!("exited with code {code}"),
            Status::Exited(None) => "killed by a signal".to_owned(),
            Status::Cancelled => "cancelled".to_owned(),
        };
        let more = ring.end() > next;
        text.push_str(&format!(
            "\n[`{}` {status_text}; next_offset {next}{}]",
            process.command,
            if more { "; more output is available" } else { "" }
        ));
        ToolOutput::success(text)
            .with_metadata("handle", &input.handle)
            .with_metadata("running", *status == Status::Running)
            .with_metadata("exit_code", if let Status::Exited(code) = status { *code } else { None })
            .with_metadata("from", from)
            .with_metadata("next_offset", next)
            .with_metadata("end_offset", ring.end())
    }
}

/// Stop a background command (its whole process group) started with `bash {background: true}`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CancelCommandInput {
    /// The handle `bash` returned (e.g. `bg-1`).
    pub handle: String,
}

pub struct CancelCommandTool;

#[async_trait]
impl TypedTool for CancelCommandTool {
    type Input = CancelCommandInput;
    const NAME: &'static str = "cancel_command";
    const CATEGORY: ToolCategory = ToolCategory::Exec;
    const DANGER: DangerLevel = DangerLevel::Safe;
    const PARALLEL: bool = true;

    async fn run(&self, input: CancelCommandInput, ctx: ToolContext) -> ToolOutput {
        match ctx.processes.cancel(&input.handle) {
            None => unknown(&input.handle, &ctx),
            Some(true) => {
                ToolOutput::success(format!("cancelled `{}`", input.handle)).with_metadata("cancelled", true)
            }
            Some(false) => ToolOutput::success(format!("`{}` had already ended", input.handle))
                .with_metadata("cancelled", false),
        }
    }
}

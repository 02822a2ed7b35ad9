//! `bash`: `sh -c` in the project root, sanitized environment, own session and process group, output
//! streamed and kept bounded, timeout and cancel kill the whole group, and whatever the command left
//! running is killed when the call ends; `background: true` returns a handle.

use std::time::Duration;

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::Deserialize;
use warden_protocol::{
    ApprovalPreview, BoxUse, CommandEnd, DangerLevel, ForwardedPort, ToolCategory, ToolErrorCode,
};

use crate::containment::{self, BoxPolicy};
use crate::shell::blocklist::check_command;
use crate::tool::process::{spawn_shell, GroupGuard, HeadTail, Pump};
use crate::tool::{Needs, Timeout, ToolContext, ToolOutput, TypedTool};

use super::git_init;

/// After the shell exits, how long processes it left behind may keep its output pipes open before
/// the group is killed (use `background: true` for commands meant to outlive the call).
const LEFTOVER_GRACE: Duration = Duration::from_millis(250);

/// Run a shell command (`sh -c`) in the project root. Output (stdout and stderr, interleaved) is
/// returned when it finishes; a non-zero exit is an error. The environment has no credentials and
/// stdin is closed. Default timeout 60 s. With `background: true` the command keeps running and a
/// handle is returned: read its output with `command_output`, stop it with `cancel_command`.
/// Where the machine supports it, commands run in Warden's sandbox: they can write only in the
/// project (and the package managers' caches), cannot see secrets such as `~/.ssh`, and reach the
/// network only through Warden's proxy (HTTP_PROXY, HTTPS_PROXY and ALL_PROXY are set; the user
/// is asked about each new host). Where the project's commands have no network, set
/// `network: true` for a command that needs it (a download, a package install);
/// `outside_sandbox: true` runs it with the user's full access. Both ask the user first.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BashInput {
    /// The command line, as you would type it in a shell.
    pub command: String,
    /// Timeout in seconds (default 60; capped by the configured maximum).
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub timeout: Option<u64>,
    /// Start the command in the background and return a handle at once (default false).
    #[serde(default)]
    pub background: bool,
    /// Ask for network access where the project's commands have none (default false; the user
    /// is asked). Not needed where they have it.
    #[serde(default)]
    pub network: bool,
    /// Run outside the sandbox, with the user's full access (default false). Only when the user
    /// wants it; the user is asked.
    #[serde(default)]
    pub outside_sandbox: bool,
}

pub struct BashTool;

fn timeout_for(input: &BashInput, ctx: &ToolContext) -> Duration {
    let config = &ctx.config;
    let mut max = config.bash_max_timeout;
    if let Some(&secs) = ctx.workspace.scope().timeouts_secs.get(BashTool::NAME) {
        max = max.min(Duration::from_secs(secs));
    }
    input
        .timeout
        .map_or(config.bash_default_timeout, Duration::from_secs)
        .min(max)
        .max(Duration::from_secs(1))
}

#[async_trait]
impl TypedTool for BashTool {
    type Input = BashInput;
    const NAME: &'static str = "bash";
    const LABEL: &'static str = "Run commands";
    const CATEGORY: ToolCategory = ToolCategory::Exec;
    const DANGER: DangerLevel = DangerLevel::Dangerous;
    const PARALLEL: bool = false;

    async fn run(&self, input: BashInput, ctx: ToolContext) -> ToolOutput {
        if input.command.trim().is_empty() {
            return ToolOutput::error(
                ToolErrorCode::ValidationError,
                "invalid input: field `command` is empty",
            );
        }
        if let Err(blocked) = check_command(&input.command) {
            return ToolOutput::error(ToolErrorCode::BlockedCommand, blocked.to_string())
                .with_metadata("reason", blocked.reason);
        }
        let cwd = ctx.workspace.project_root().to_path_buf();
        // The box the runner granted this call (the session's, widened or left only as the user
        // approved): bash never widens its own box from its input.
        let commands_box = ctx.commands_box.clone();
        if input.background {
            let started = match ctx.processes.start(
                &input.command,
                &cwd,
                commands_box.as_deref(),
                ctx.config.background_buffer_bytes,
            ) {
                Ok((handle, pid)) => ToolOutput::success(format!(
                    "started in the background with handle `{handle}`; read its output with command_output, \
                     stop it with cancel_command"
                ))
                .with_metadata("handle", handle)
                .with_metadata("pid", pid),
                Err(message) => ToolOutput::error(ToolErrorCode::ExecutionError, message),
            };
            return with_box(started, commands_box.as_deref());
        }
        let timeout = timeout_for(&input, &ctx);
        if let (Some(init), None) = (hardened_git_init(&input), &commands_box) {
            // Approved to run outside the box (or there is no box here): git itself, not a shell.
            let child = match git_init::spawn(&init, &ctx.workspace) {
                Ok(child) => child,
                Err(refused) => return refused,
            };
            let output = run_foreground(Ok(child), &ctx, None, timeout).await;
            return output.with_metadata("hardened_git", init.shown());
        }
        let child = spawn_shell(&input.command, &cwd, commands_box.as_deref());
        run_foreground(child, &ctx, commands_box.as_deref(), timeout).await
    }

    /// A command for the blocklist and the box, the network or the outside when the model asks for
    /// them, and a clock of its own (`timeout`, killing the process group on its deadline).
    fn needs(&self, input: &BashInput) -> Needs {
        Needs {
            command: Some(input.command.clone()),
            network: input.network,
            outside_sandbox: input.outside_sandbox,
            hardened_git: hardened_git_init(input).is_some(),
            timeout: Timeout::KeptByTool,
            unreadable: false,
            files: None,
        }
    }

    async fn preview(&self, input: BashInput, ctx: &ToolContext) -> Option<ApprovalPreview> {
        Some(ApprovalPreview::Command {
            command: input.command,
            cwd: ctx.workspace.project_root().to_string_lossy().into_owned(),
        })
    }
}

enum Ending {
    Exited(std::process::ExitStatus),
    TimedOut,
    Cancelled,
}

#[allow(clippy::too_many_lines)] // One foreground run from spawn to result: wait, time out, cancel, cap, report.
async fn run_foreground(
    spawned: std::io::Result<tokio::process::Child>,
    ctx: &ToolContext,
    commands_box: Option<&BoxPolicy>,
    timeout: Duration,
) -> ToolOutput {
    let cwd = ctx.workspace.project_root();
    let mut child = match spawned {
        Ok(child) => child,
        Err(e) => {
            return ToolOutput::error(
                ToolErrorCode::ExecutionError,
                format!("could not start the command: {e}"),
            )
        }
    };
    let guard = GroupGuard::new(child.id());
    let mut pump = Pump::new(&mut child);
    let mut buffer = HeadTail::new(ctx.config.bash_buffer_bytes);
    let deadline = tokio::time::Instant::now() + timeout;
    let mut status = None;
    let mut leftover_deadline = None;
    let ending = loop {
        if let Some(exit) = status.filter(|_| pump.done()) {
            break Ending::Exited(exit);
        }
        let grace = async {
            match leftover_deadline {
                Some(at) => tokio::time::sleep_until(at).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            chunk = pump.next(), if !pump.done() => {
                if let Some((stream, bytes)) = chunk {
                    let bytes = bytes.to_vec();
                    buffer.push(&bytes);
                    pump.stream_to(&ctx.output, stream, &bytes);
                }
            }
            exit = child.wait(), if status.is_none() => match exit {
                Ok(exit) => {
                    status = Some(exit);
                    leftover_deadline = Some(tokio::time::Instant::now() + LEFTOVER_GRACE);
                }
                Err(e) => return ToolOutput::error(ToolErrorCode::ExecutionError, format!("waiting for the command failed: {e}")),
            },
            () = grace => {
                // The shell is done but something it started still holds the pipes: end the group.
                guard.kill();
                if let Some(exit) = status {
                    break Ending::Exited(exit);
                }
            }
            () = tokio::time::sleep_until(deadline) => break Ending::TimedOut,
            () = ctx.cancel.cancelled() => break Ending::Cancelled,
        }
    };
    guard.kill();
    if !matches!(ending, Ending::Exited(_)) {
        let _ = tokio::time::timeout(Duration::from_secs(2), child.wait()).await;
    }
    // The call is over: nothing it started may outlive it, including what left its process group
    // (`setsid cmd &`, `nohup … &`, a double-forked daemon), now orphans of the subreaper.
    drop(guard);
    crate::process_guard::kill_orphans_async().await;
    pump.flush_to(&ctx.output);
    let mut text = buffer.render();
    let output = match ending {
        Ending::Exited(exit) => {
            let code = exit.code();
            let signal = exit_signal(&exit);
            if exit.success() {
                if text.is_empty() {
                    text = "(no output)".to_owned();
                }
                ToolOutput::success(text)
            } else {
                let why = match (code, signal) {
                    (Some(code), _) => format!("exit code {code}"),
                    (None, Some(sig)) => format!("killed by signal {sig}"),
                    (None, None) => "failed".to_owned(),
                };
                text.push_str(&format!("\n[the command ended with {why}]"));
                // Paths of the home the command named that the box leaves out (not those it hides
                // on purpose), for the block to offer adding to what the project's box may read.
                let hidden: Vec<String> = commands_box
                    .map(|policy| containment::readable_offers(&text, policy))
                    .unwrap_or_default()
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect();
                // What the box refused, for the block (read before the model's note is added).
                let refused =
                    commands_box.map(|policy| containment::refusals(&text, policy)).unwrap_or_default();
                if let Some(hint) = commands_box.and_then(|policy| containment::explain_denial(&text, policy))
                {
                    text.push_str(&format!("\n[{hint}]"));
                }
                ToolOutput::error(ToolErrorCode::ExecutionError, text).with_report(|report| {
                    report.readable_offers = hidden;
                    report.box_refused = refused;
                })
            }
            .with_report(|report| report.command = Some(CommandEnd { exit_code: code, signal }))
        }
        Ending::TimedOut => {
            text.push_str(&format!(
                "\n[timed out after {} s; the command's process group was killed]",
                timeout.as_secs()
            ));
            ToolOutput::error(ToolErrorCode::ToolTimeout, text)
        }
        Ending::Cancelled => {
            text.push_str("\n[cancelled; the command's process group was killed]");
            ToolOutput::error(ToolErrorCode::Cancelled, text)
        }
    };
    let output = output
        .with_metadata("output_bytes", buffer.total())
        .with_metadata("truncated", buffer.dropped() > 0)
        .with_metadata("cwd", cwd.to_string_lossy());
    with_box(output, commands_box)
}

/// The plain `git init` a call is, when it asks for nothing else: a background start, or the whole
/// outside, is an ordinary command.
fn hardened_git_init(input: &BashInput) -> Option<git_init::GitInit> {
    if input.background || input.outside_sandbox {
        return None;
    }
    git_init::parse(&input.command)
}

/// Whether the command ran contained and with what, for the tool block.
fn with_box(output: ToolOutput, commands_box: Option<&BoxPolicy>) -> ToolOutput {
    let sandbox = BoxUse { contained: commands_box.is_some(), summary: commands_box.map(BoxPolicy::summary) };
    with_forwarded_ports(output, commands_box).with_report(|report| report.sandbox = Some(sandbox))
}

/// The ports of the session's network that this machine reaches now (a dev server started in the
/// box), said to the model and, in the report, to the tool block.
pub(crate) fn with_forwarded_ports(mut output: ToolOutput, commands_box: Option<&BoxPolicy>) -> ToolOutput {
    let forwarded = commands_box.map(BoxPolicy::forwarded_ports).unwrap_or_default();
    if forwarded.is_empty() {
        return output;
    }
    let list: Vec<String> =
        forwarded.iter().map(|f| format!("{} → localhost:{}", f.port, f.host_port)).collect();
    output.content.push_str(&format!("\n[ports forwarded to the user's machine: {}]", list.join(", ")));
    output.with_report(|report| {
        report.forwarded_ports =
            forwarded.iter().map(|f| ForwardedPort { port: f.port, host_port: f.host_port }).collect();
    })
}

#[cfg(unix)]
fn exit_signal(exit: &std::process::ExitStatus) -> Option<i32> {
    use std::os::unix::process::ExitStatusExt;
    exit.signal()
}

#[cfg(not(unix))]
fn exit_signal(_exit: &std::process::ExitStatus) -> Option<i32> {
    None
}

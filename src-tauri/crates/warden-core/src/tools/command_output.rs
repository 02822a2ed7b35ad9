//! `command_output`: what a background command printed, from a byte offset, and its status.

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::Deserialize;
use warden_protocol::{DangerLevel, ToolCategory, ToolErrorCode};

use crate::tool::{CommandStatus, OutputWindow, ToolContext, ToolOutput, TypedTool};

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

/// The answer to a handle the session does not know (`command_output` and `cancel_command`).
pub(super) fn unknown_handle(handle: &str, ctx: &ToolContext) -> ToolOutput {
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
    const LABEL: &'static str = "Read background command output";
    const CATEGORY: ToolCategory = ToolCategory::Exec;
    const DANGER: DangerLevel = DangerLevel::Safe;
    const PARALLEL: bool = true;

    async fn run(&self, input: CommandOutputInput, ctx: ToolContext) -> ToolOutput {
        let limit = input.limit.unwrap_or(64 * 1024).min(ctx.config.model_output_cap as u64) as usize;
        let requested = input.from.unwrap_or(0);
        let OutputWindow { command, from, bytes, end, status } =
            match ctx.processes.read(&input.handle, requested, limit) {
                None => return unknown_handle(&input.handle, &ctx),
                Some(Err(message)) => return ToolOutput::error(ToolErrorCode::ExecutionError, message),
                Some(Ok(window)) => window,
            };
        let next = from + bytes.len() as u64;
        let mut text = String::from_utf8_lossy(&bytes).into_owned();
        if from > requested {
            text.insert_str(
                0,
                &format!("[{} older bytes were dropped; reading from offset {from}]\n", from - requested),
            );
        }
        let status_text = match status {
            CommandStatus::Running => "running".to_owned(),
            CommandStatus::Exited(Some(code)) => format!("exited with code {code}"),
            CommandStatus::Exited(None) => "killed by a signal".to_owned(),
            CommandStatus::Cancelled => "cancelled".to_owned(),
        };
        let more = end > next;
        text.push_str(&format!(
            "\n[`{command}` {status_text}; next_offset {next}{}]",
            if more { "; more output is available" } else { "" }
        ));
        super::bash::with_forwarded_ports(ToolOutput::success(text), ctx.commands_box.as_deref())
            .with_metadata("handle", &input.handle)
            .with_metadata("running", status == CommandStatus::Running)
            .with_report(|report| {
                if let CommandStatus::Exited(exit_code) = status {
                    report.command = Some(warden_protocol::CommandEnd { exit_code, signal: None });
                }
            })
            .with_metadata("from", from)
            .with_metadata("next_offset", next)
            .with_metadata("end_offset", end)
    }
}

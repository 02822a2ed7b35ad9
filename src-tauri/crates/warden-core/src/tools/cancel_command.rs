//! `cancel_command`: stop a background command and its whole process group.

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::Deserialize;
use warden_protocol::{DangerLevel, ToolCategory};

use super::command_output::unknown_handle;
use crate::tool::{ToolContext, ToolOutput, TypedTool};

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
    const LABEL: &'static str = "Stop background commands";
    const CATEGORY: ToolCategory = ToolCategory::Exec;
    const DANGER: DangerLevel = DangerLevel::Safe;
    const PARALLEL: bool = true;

    async fn run(&self, input: CancelCommandInput, ctx: ToolContext) -> ToolOutput {
        match ctx.processes.cancel(&input.handle) {
            None => unknown_handle(&input.handle, &ctx),
            Some(true) => {
                ToolOutput::success(format!("cancelled `{}`", input.handle)).with_metadata("cancelled", true)
            }
            Some(false) => ToolOutput::success(format!("`{}` had already ended", input.handle))
                .with_metadata("cancelled", false),
        }
    }
}

//! `system_info`: the time (RFC 3339 with the local zone), OS, architecture and working directory.

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::Deserialize;
use warden_protocol::{DangerLevel, ToolCategory};

use crate::tool::{ToolContext, ToolOutput, TypedTool};

/// The current date and time (with time zone), the operating system and architecture, and the
/// working directory (the project root).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SystemInfoInput {}

pub struct SystemInfoTool;

fn os_release() -> Option<String> {
    let text = std::fs::read_to_string("/etc/os-release").ok()?;
    text.lines().find_map(|l| l.strip_prefix("PRETTY_NAME=")).map(|v| v.trim_matches('"').to_owned())
}

#[async_trait]
impl TypedTool for SystemInfoTool {
    type Input = SystemInfoInput;
    const NAME: &'static str = "system_info";
    const LABEL: &'static str = "See system information";
    const CATEGORY: ToolCategory = ToolCategory::System;
    const DANGER: DangerLevel = DangerLevel::Safe;
    const PARALLEL: bool = true;

    async fn run(&self, _input: SystemInfoInput, ctx: ToolContext) -> ToolOutput {
        let now = chrono::Local::now();
        let time = now.to_rfc3339_opts(chrono::SecondsFormat::Secs, false);
        let os = std::env::consts::OS;
        let arch = std::env::consts::ARCH;
        let release = if os == "linux" { os_release() } else { None };
        let cwd = ctx.workspace.project_root().to_string_lossy().into_owned();
        let mut text = format!("time: {time}\nos: {os}");
        if let Some(release) = &release {
            text.push_str(&format!(" ({release})"));
        }
        text.push_str(&format!("\narch: {arch}\nworking directory: {cwd}"));
        ToolOutput::success(text)
            .with_metadata("time", time)
            .with_metadata("utc_offset_seconds", now.offset().local_minus_utc())
            .with_metadata("os", os)
            .with_metadata("os_release", release)
            .with_metadata("arch", arch)
            .with_metadata("cwd", cwd)
    }
}

//! Runs `bash` through the registry on a command that prints `<bytes>` (default 1 GB), with a UI
//! listener attached, and reports what Warden kept — for `bench/bash_memory/run.sh`, which samples
//! this process's RSS meanwhile.

use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

use serde_json::json;
use warden_core::sandbox::Workspace;
use warden_core::scope::Scope;
use warden_core::tool::{OutputSink, ToolRegistry, ToolsConfig};
use warden_protocol::ToolCall;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let bytes: u64 = std::env::args().nth(1).and_then(|b| b.parse().ok()).unwrap_or(1_000_000_000);
    let project = tempfile::tempdir()?;
    let storage = tempfile::tempdir()?;
    let workspace = Workspace::new(project.path(), storage.path(), Scope::all())?;
    let registry = ToolRegistry::with_core_tools(ToolsConfig::default());
    let (sink, mut rx) = OutputSink::channel(registry.config().stream_cap_bytes);
    let ui = tokio::spawn(async move {
        let mut streamed = 0usize;
        while let Some((_, chunk)) = rx.recv().await {
            streamed += chunk.len();
        }
        streamed
    });
    let ctx = registry.context(Arc::new(workspace)).with_output(sink);
    let call = ToolCall {
        id: "bench".to_owned(),
        name: "bash".to_owned(),
        input: json!({ "command": format!("head -c {bytes} /dev/zero | tr '\\0' 'a'"), "timeout": 600 }),
    };
    let started = Instant::now();
    let out = registry.execute(&call, ctx).await;
    let elapsed = started.elapsed();
    let streamed = ui.await?;
    let total = out.metadata.get("output_bytes").and_then(|v| v.as_u64()).unwrap_or(0);
    writeln!(
        std::io::stdout().lock(),
        "command printed {total} bytes in {:.2} s ({:.0} MB/s); result for the model: {} bytes; streamed to the UI: {streamed} bytes",
        elapsed.as_secs_f64(),
        total as f64 / elapsed.as_secs_f64() / 1e6,
        out.content.len()
    )?;
    Ok(())
}

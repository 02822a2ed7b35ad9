//! Runs `search_in_files` once through the registry, the way the agent loop would, and prints the
//! total match count — for `bench/search/run.sh`, which compares it with `rg -c` on the same corpus.
//!
//! Usage: `search_bench <dir> [regex]` (default regex `fn |function `).

use std::io::Write;
use std::sync::Arc;

use serde_json::json;
use warden_core::sandbox::Workspace;
use warden_core::scope::Scope;
use warden_core::tool::{ToolRegistry, ToolsConfig};
use warden_protocol::ToolCall;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = args.next().ok_or("usage: search_bench <dir> [regex]")?;
    let query = args.next().unwrap_or_else(|| "fn |function ".to_owned());
    let storage = tempfile::tempdir()?;
    let workspace = Workspace::new(&dir, storage.path(), Scope::read_only())?;
    let config = ToolsConfig { model_output_cap: usize::MAX, ..ToolsConfig::default() };
    let registry = ToolRegistry::with_core_tools(config);
    let ctx = registry.context(Arc::new(workspace));
    let call = ToolCall {
        id: "bench".to_owned(),
        name: "search_in_files".to_owned(),
        input: json!({ "query": query, "output_mode": "count", "max_results": 1_000_000 }),
    };
    let out = registry.execute(&call, ctx).await;
    if out.is_error && out.metadata.get("matches").and_then(|m| m.as_u64()) != Some(0) {
        return Err(out.content.into());
    }
    if std::env::var_os("SEARCH_BENCH_LIST").is_some() {
        writeln!(std::io::stdout().lock(), "{}", out.content)?;
    }
    let get = |key: &str| out.metadata.get(key).and_then(|v| v.as_u64()).unwrap_or(0);
    writeln!(
        std::io::stdout().lock(),
        "matches={} files_with_matches={} files_searched={}",
        get("matches"),
        get("files_with_matches"),
        get("files_searched")
    )?;
    Ok(())
}

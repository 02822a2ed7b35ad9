//! Warden's MCP client alone, for `bench/mcp/run.sh`: start a stdio server, list its tools, then
//! make CALLS sequential `echo` calls. Prints one JSON line: the start-up time to a listed toolset
//! and the time of the calls. With `--boxed` the server starts as users' servers do: in the
//! project's box (`BoxPolicy::for_project` of the working directory), with its network through
//! its own proxy.
//!
//!   mcp_client CALLS [--boxed] -- COMMAND [ARGS…]
// A benchmark driver: a failed unwrap is a failed run, and stdout is its output.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

use std::collections::BTreeMap;
use std::time::Instant;

use warden_core::containment::BoxPolicy;
use warden_core::mcp::{connect, Origin, ServerSpec, Transport};
use warden_core::tool::OutputSink;

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let calls: usize =
        args.first().and_then(|n| n.parse().ok()).expect("usage: mcp_client CALLS -- COMMAND [ARGS…]");
    let split = args.iter().position(|a| a == "--").expect("usage: mcp_client CALLS -- COMMAND [ARGS…]");
    let boxed = args[..split].iter().any(|a| a == "--boxed");
    let (command, rest) = args[split + 1..].split_first().expect("a command after --");
    let spec = ServerSpec {
        name: "bench".to_owned(),
        transport: Transport::Stdio {
            command: command.clone(),
            args: rest.to_vec(),
            env: BTreeMap::new(),
            cwd: None,
            network: true,
            readable: Vec::new(),
            outside_sandbox: false,
        },
        tools: BTreeMap::new(),
        sampling: false,
        origin: Origin::User,
    };
    let root = std::env::current_dir().unwrap();
    let policy = boxed.then(|| BoxPolicy::for_project(&root, &[]));
    let started = Instant::now();
    let connection = connect(&spec, &root, policy.as_ref()).await.expect("the server starts");
    let tools = connection.tools().await.unwrap().len();
    let startup = started.elapsed();
    let message = serde_json::json!({"message": "hello from the benchmark"}).as_object().cloned().unwrap();
    let started = Instant::now();
    for _ in 0..calls {
        let result =
            connection.call("echo", message.clone(), OutputSink::none()).await.expect("echo answers");
        assert!(result["content"][0]["text"].as_str().is_some_and(|t| t.ends_with("benchmark")));
    }
    let elapsed = started.elapsed();
    connection.close().await;
    println!(
        "{}",
        serde_json::json!({
            "boxed": boxed,
            "startup_ms": startup.as_secs_f64() * 1e3,
            "tools": tools,
            "calls": calls,
            "calls_ms": elapsed.as_secs_f64() * 1e3,
        })
    );
}

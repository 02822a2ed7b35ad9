//! The client side of the MCP conformance suite (`@modelcontextprotocol/conformance client`, run by
//! `tests/mcp/conformance.sh`): Warden's MCP client, as its sessions use it, against the suite's
//! test server. The suite appends the server's URL and names the scenario in
//! `MCP_CONFORMANCE_SCENARIO`; this connects over streamable HTTP, lists the tools and calls each
//! one the scenario offers, then ends the session.
// A test driver: a failed unwrap is a failed scenario, and stdout is its log.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

use std::collections::BTreeMap;

use serde_json::json;
use warden_core::mcp::{connect, ServerSpec, Transport};
use warden_core::tool::OutputSink;

#[tokio::main]
async fn main() {
    let url = std::env::args().last().expect("the server URL");
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    println!("scenario {scenario} at {url}");
    let spec = ServerSpec {
        name: "conformance".to_owned(),
        transport: Transport::Http { url, headers: BTreeMap::new() },
        tools: BTreeMap::new(),
    };
    let root = std::env::current_dir().unwrap();
    let connection = connect(&spec, &root, None).await.expect("connected");
    let tools = connection.tools().await.expect("tools listed");
    for tool in &tools {
        let arguments = match tool.name.as_ref() {
            "add_numbers" => json!({"a": 2, "b": 3}),
            _ => json!({}),
        };
        let result = connection
            .call(&tool.name, arguments.as_object().cloned().unwrap_or_default(), OutputSink::none())
            .await;
        println!("{} -> {result:?}", tool.name);
    }
    connection.close().await;
}

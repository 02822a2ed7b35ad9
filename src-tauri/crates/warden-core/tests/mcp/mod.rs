//! Warden's MCP client against real servers no one here wrote, installed from npm by the test
//! set-up: `@modelcontextprotocol/server-everything` over stdio and streamable HTTP, and
//! `@modelcontextprotocol/server-filesystem` over stdio.

mod contained;
mod engine;
mod issuer;
mod lifecycle;
mod oauth;
mod project;
mod server_network;
mod transports;

use std::collections::BTreeMap;
use std::path::Path;

use warden_core::mcp::{Origin, ServerSpec, Transport};
use warden_testkit::mcp::server_bin;

/// `mcp-server-everything stdio` as a configured server.
pub fn everything_stdio() -> ServerSpec {
    stdio("everything", &server_bin("mcp-server-everything").to_string_lossy(), &["stdio"], BTreeMap::new())
}

pub fn stdio(name: &str, command: &str, args: &[&str], env: BTreeMap<String, String>) -> ServerSpec {
    ServerSpec {
        name: name.to_owned(),
        transport: Transport::Stdio {
            command: command.to_owned(),
            args: args.iter().map(|a| (*a).to_owned()).collect(),
            env,
            cwd: None,
            network: true,
            readable: Vec::new(),
            outside_sandbox: false,
        },
        tools: BTreeMap::new(),
        sampling: false,
        origin: Origin::User,
    }
}

pub fn http(name: &str, url: &str) -> ServerSpec {
    ServerSpec {
        name: name.to_owned(),
        transport: Transport::Http { url: url.to_owned(), headers: BTreeMap::new(), oauth: None },
        tools: BTreeMap::new(),
        sampling: false,
        origin: Origin::User,
    }
}

/// Whether the process `pid` still exists (a zombie counts as gone).
pub fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat.rsplit(')').next().is_some_and(|rest| rest.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

/// Every process whose command line mentions `needle` (to find a server's whole tree).
pub fn processes_with(needle: &str) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|cmd| String::from_utf8_lossy(&cmd).contains(needle))
                && alive(*pid)
        })
        .collect()
}

/// The processes whose parent is `pid`.
pub fn children_of(pid: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|child| {
            std::fs::read_to_string(format!("/proc/{child}/stat")).is_ok_and(|stat| {
                stat.rsplit(')')
                    .next()
                    .and_then(|rest| rest.split_whitespace().nth(1))
                    .and_then(|p| p.parse::<u32>().ok())
                    == Some(pid)
            })
        })
        .collect()
}

pub fn project() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

pub fn text_of(result: &serde_json::Value) -> String {
    result["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|b| b["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn root(dir: &tempfile::TempDir) -> &Path {
    dir.path()
}

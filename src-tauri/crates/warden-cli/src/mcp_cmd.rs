//! `warden mcp list|add|remove|login|logout|secret`: the MCP servers of the settings, as the
//! window's Settings → MCP servers shows them (a project's own `.mcp.json`: `project_mcp_cmd`).
//! `list` starts each server (for the project in the current directory) to say whether it works
//! and what tools it has. Exit 0, 1 on failure, 2 on usage (every status: [`crate::exit`]).

use std::collections::BTreeMap;
use std::path::Path;

use warden_core::engine::Engine;
use warden_protocol::{McpServerConfig, McpServerState, McpServerStatus};

use crate::args::{McpAction, McpArgs};
use crate::exit::Exit;
use crate::{project_mcp_cmd, sanitize, say};

/// The servers of an `mcpServers` JSON file (`--mcp-config`), checked.
pub fn read_config(file: &Path) -> Result<BTreeMap<String, McpServerConfig>, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("--mcp-config {}: {e}", file.display()))?;
    warden_core::mcp::parse_servers(&text).map_err(|e| format!("--mcp-config {}: {e}", file.display()))
}

pub async fn run(args: McpArgs) -> Result<(), Exit> {
    let engine = Engine::from_env().map_err(Exit::failed)?;
    let ended = act(&engine, args.action).await;
    engine.close_mcp_servers().await;
    ended
}

async fn act(engine: &Engine, action: McpAction) -> Result<(), Exit> {
    match action {
        McpAction::List { project, json, mcp_config } => {
            let extra = mcp_config.as_deref().map(read_config).transpose().map_err(Exit::usage)?;
            let project = project
                .map_or_else(std::env::current_dir, Ok)
                .map_err(|error| Exit::usage(format!("cannot read the current directory: {error}")))?;
            list(engine, &project, &extra.unwrap_or_default(), json).await
        }
        McpAction::Add { name, url, headers, env, command } => {
            let config = entry(url, headers, env, command).map_err(Exit::usage)?;
            engine.add_mcp_server(&name, config).map_err(Exit::usage)?;
            say::err(&format!("warden: added the MCP server `{}`", sanitize::line(&name)));
            Ok(())
        }
        McpAction::Login { name } => login(engine, &name).await,
        McpAction::Secret { name } => {
            let mut value = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut value)
                .map_err(|error| Exit::usage(format!("cannot read the secret from stdin: {error}")))?;
            let value = value.trim_end_matches(['\n', '\r']);
            engine.keep_mcp_secret(&name, value).await.map_err(Exit::usage)?;
            let name = sanitize::line(&name);
            say::err(&format!(
                "warden: kept `{name}` in the keychain; use it as \"keychain:{name}\" in an entry's env or headers"
            ));
            Ok(())
        }
        McpAction::Show { project, json } => project_mcp_cmd::show(engine, project, json),
        McpAction::Approve { project, digest } => project_mcp_cmd::approve(engine, project, digest).await,
        McpAction::Decline { project } => project_mcp_cmd::decline(engine, project),
        McpAction::Logout { name } => {
            engine.mcp_sign_out(&name).await.map_err(Exit::failed)?;
            say::err(&format!("warden: signed out of the MCP server `{}`", sanitize::line(&name)));
            Ok(())
        }
        McpAction::Remove { name } => {
            engine.remove_mcp_server(&name).map_err(Exit::usage)?;
            say::err(&format!("warden: removed the MCP server `{}`", sanitize::line(&name)));
            Ok(())
        }
    }
}

/// The OAuth sign-in: the page opens in the browser (its address is printed too, for a machine
/// whose browser does not open), and the browser comes back to a loopback address.
async fn login(engine: &Engine, name: &str) -> Result<(), Exit> {
    let authorizer = warden_core::mcp::BrowserAuthorizer::bind(|page| {
        say::err(&format!(
            "warden: sign in in your browser; if it does not open, visit:\n  {}",
            sanitize::line(page)
        ));
    })
    .await
    .map_err(|error| Exit::failed(format!("cannot listen for the sign-in's return: {error}")))?;
    match engine.mcp_sign_in(name, &authorizer).await {
        Ok(()) => {
            say::err(&format!("warden: signed in to the MCP server `{}`", sanitize::line(name)));
            Ok(())
        }
        Err(warden_core::engine::McpSetupError::Unknown(_)) => {
            Err(Exit::usage(format!("there is no MCP server named `{}`", sanitize::line(name))))
        }
        Err(error) => Err(Exit::failed(error)),
    }
}

/// The settings entry `warden mcp add` describes.
fn entry(
    url: Option<String>,
    headers: Vec<String>,
    env: Vec<String>,
    command: Vec<String>,
) -> Result<McpServerConfig, String> {
    let pairs = |list: Vec<String>, flag: &str| -> Result<BTreeMap<String, String>, String> {
        list.into_iter()
            .map(|pair| match pair.split_once('=') {
                Some((name, value)) if !name.is_empty() => Ok((name.to_owned(), value.to_owned())),
                _ => Err(format!("{flag} takes NAME=VALUE, not `{pair}`")),
            })
            .collect()
    };
    let mut config = McpServerConfig {
        env: pairs(env, "--env")?,
        headers: pairs(headers, "--header")?,
        ..Default::default()
    };
    match (url, command.split_first()) {
        (Some(url), None) => config.url = Some(url),
        (None, Some((program, args))) => {
            config.command = Some(program.clone());
            config.args = args.to_vec();
        }
        (None, None) => {
            return Err("give the server's program after `--`, or --url for an HTTP server".to_owned())
        }
        (Some(_), Some(_)) => return Err("give either --url or a program after `--`, not both".to_owned()),
    }
    Ok(config)
}

async fn list(
    engine: &Engine,
    project: &Path,
    extra: &BTreeMap<String, McpServerConfig>,
    json: bool,
) -> Result<(), Exit> {
    let statuses = match engine.mcp_statuses(project, extra).await {
        Ok(statuses) => statuses,
        Err(error) if error.is_usage() => return Err(Exit::usage(error)),
        Err(error) => return Err(Exit::failed(error)),
    };
    if !json {
        if let Ok(Some(offer)) = engine.project_mcp_offer(project) {
            if offer.approved != Some(true) && offer.error.is_none() {
                print_line(&format!(
                    "This project's .mcp.json names {} server(s), not used until you run `warden mcp \
                     approve` (`warden mcp show` shows every field first).",
                    offer.servers.len()
                ));
            }
        }
    }
    if json {
        let value = serde_json::to_value(&statuses).map_err(Exit::failed)?;
        say::json_line(&value);
    } else if statuses.is_empty() {
        print_line("No MCP servers. Add one with `warden mcp add NAME -- COMMAND [ARGS…]` or `--url URL`.");
    } else {
        for status in &statuses {
            print_line(&describe(status));
        }
    }
    let failed = statuses
        .iter()
        .any(|s| matches!(s.state, McpServerState::Failed { .. } | McpServerState::NeedsSignIn));
    // The listing shows which and why.
    if failed {
        Err(Exit::FailedAsShown)
    } else {
        Ok(())
    }
}

/// One server in a few lines: name, transport, state, tools. Each piece is one line of its own
/// (what the server said included), so none can pass for another.
fn describe(status: &McpServerStatus) -> String {
    let name = sanitize::line(&status.name);
    let state = match &status.state {
        McpServerState::Connected => format!("connected, {} tools", status.tools.len()),
        McpServerState::Starting => "starting".to_owned(),
        McpServerState::Disabled => "disabled".to_owned(),
        McpServerState::Failed { error } => format!("failed: {}", sanitize::line(error)),
        McpServerState::NeedsSignIn => format!("needs you to sign in: `warden mcp login {name}`"),
    };
    let mut text = format!("{name} ({}): {state}", sanitize::line(&status.transport));
    for tool in &status.tools {
        let choice =
            tool.choice.map(|c| format!(" [{}]", format!("{c:?}").to_lowercase())).unwrap_or_default();
        text.push_str(&format!("\n  {}{choice}", sanitize::line(&tool.qualified_name)));
    }
    if matches!(status.state, McpServerState::Failed { .. }) {
        for line in status.stderr_tail.iter().rev().take(5).rev() {
            text.push_str(&format!("\n  stderr: {}", sanitize::line(line)));
        }
    }
    text
}

fn print_line(line: &str) {
    say::out(line);
}

//! `warden-engine`: the headless faces of the engine, started by the `warden` front (see
//! [`warden_cli::front`]) with the command line it was given. `warden exec` runs a whole turn and
//! prints its events; `warden tool` runs one tool through the same registry, sandbox and policy;
//! `warden sandbox` runs any command in the box the agent's commands run in; `warden checkpoint`
//! lists, compares and restores the checkpoints taken before each change; `warden mcp` lists, adds
//! and removes the MCP servers whose tools the agent gets; `warden sessions` lists, shows, searches
//! and deletes the saved conversations; `warden rules` lists, adds and removes permission rules and
//! checks what a call would do; `warden serve --stdio` is the engine for a face on another
//! machine (`warden exec --remote`).
//!
//! Nothing here prints but through [`say`], which sanitizes (clippy denies the rest).
#![deny(clippy::print_stdout, clippy::print_stderr, clippy::disallowed_methods)]

mod approvals_input;
mod args;
mod checkpoint_cmd;
mod exec;
mod exec_remote;
mod hooks_cmd;
mod legacy_keys;
mod mcp_cmd;
mod project_mcp_cmd;
mod remote_cmd;
mod render;
mod rules_cmd;
mod serve_cmd;
mod sessions_cmd;
mod sessions_remote;
mod signals;
mod tool_cmd;

use std::process::ExitCode;

use clap::Parser;
use warden_cli::exit::{self, Exit};
use warden_cli::{sandbox_cmd, sanitize, say};

use args::{Cli, Command};

fn main() -> ExitCode {
    // Started by ssh as Warden's SSH_ASKPASS: ask the face that started ssh, and nothing else
    // (before the scrub below, which would take its token for a credential).
    if let Some(status) = warden_core::remote::askpass::run_if_asked() {
        return ExitCode::from(u8::try_from(status).unwrap_or(1));
    }
    // First, while this is the only thread: keys given in the environment move into memory and out
    // of the environment block that /proc/<pid>/environ shows to the commands Warden runs.
    warden_core::secrets::env_keys::capture_and_scrub();
    let protected = protect_self();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) if error.use_stderr() => {
            // A usage error, which repeats what was given: sanitized like every other line.
            return Exit::Usage(error.render().to_string().trim_end().to_owned()).report();
        }
        Err(error) => {
            // Help and version, clap's own text: to stdout with status 0.
            let _ = error.print();
            return ExitCode::SUCCESS;
        }
    };
    init_logging(cli.verbose);
    if let Err(error) = protected {
        tracing::warn!(%error, "could not harden the process or become a subreaper");
    }
    // One box and done: no runtime to start.
    let cli = match cli.command {
        Command::Sandbox(args) => return exit::status(sandbox_cmd::run(args.into())),
        Command::Checkpoint(args) => return exit::status(checkpoint_cmd::run(args)),
        Command::Sessions(args) if args.remote.is_none() => return exit::status(sessions_cmd::run(args)),
        Command::Rules(args) => return exit::status(rules_cmd::run(args)),
        command => Cli { command, ..cli },
    };
    warden_core::containment::probe_in_background();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => return Exit::failed(format!("could not start the runtime: {error}")).report(),
    };
    let ended = runtime.block_on(async move {
        match cli.command {
            Command::Exec(args) => match args.remote.clone() {
                Some(remote) => exec_remote::run(args, &remote).await,
                None => exec::run(args).await,
            },
            Command::Tool(args) => tool_cmd::run(args).await,
            Command::Sandbox(args) => sandbox_cmd::run(args.into()),
            Command::Checkpoint(args) => checkpoint_cmd::run(args),
            Command::Mcp(args) => mcp_cmd::run(args).await,
            Command::Sessions(args) => match args.remote.clone() {
                Some(host) => sessions_remote::run(args, &host).await,
                None => sessions_cmd::run(args),
            },
            Command::Rules(args) => rules_cmd::run(args),
            Command::Hooks { action } => hooks_cmd::run(action).await,
            Command::Serve(args) => serve_cmd::run(args).await,
            Command::Remote { action } => remote_cmd::run(action).await,
        }
    });
    // Do not wait for lingering blocking tasks (a keychain call, a stdin read).
    runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    exit::status(ended)
}

/// Before anything else: no process of the same user (a command Warden runs) may open Warden's
/// file descriptors or read its memory; and every orphan of those commands comes to Warden, which
/// kills them when their call or the session ends.
fn protect_self() -> std::io::Result<()> {
    let hardened = warden_core::process_guard::harden_process();
    warden_core::process_guard::become_subreaper().and(hardened)
}

/// Logs go to stderr, never stdout (stdout carries the events).
fn init_logging(verbose: u8) {
    let default = match verbose {
        0 => "warn",
        1 => "info",
        _ => "debug",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_env("WARDEN_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(false)
        .with_writer(say::log_writer)
        .try_init();
}

//! `warden tool <name> '<json>'`: one tool through the same registry, schema validation, sandbox
//! and policy as the loop. Exit 0 on success, 1 on a tool error, 2 on usage, 130 / 143 / 129 on
//! SIGINT / SIGTERM / SIGHUP (after killing what the tool started; every status: [`crate::exit`]).
//! A confirmation is asked on the terminal, or read from stdin with `--json`.

use std::io::Write;

use warden_protocol::{ToolApproval, ToolConfirm};

use warden_core::engine::{Engine, OneShot, SessionSpec};
use warden_core::scope::Scope;

use crate::approvals_input::{self, Answer};
use crate::args::{ApproveArg, CommonArgs, ExecArgs, ToolArgs};
use crate::exit::Exit;
use crate::signals::Signals;
use crate::{sanitize, say};

/// The session spec both subcommands share; `Err` is a usage error.
pub fn session_spec(common: &CommonArgs, exec: Option<&ExecArgs>) -> Result<SessionSpec, String> {
    let project = match &common.project {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?,
    };
    if !project.is_dir() {
        return Err(format!("--project {}: not a directory", project.display()));
    }
    let scope = match common.allow.as_deref() {
        None => None,
        Some(list) => Some(parse_allow(list)?),
    };
    let mut spec = SessionSpec::new(project);
    spec.trust = common.trust.into();
    spec.scope = scope;
    spec.network = common.network.map(Into::into);
    if let Some(file) = &common.mcp_config {
        spec.mcp_servers = crate::mcp_cmd::read_config(file)?;
    }
    if let Some(exec) = exec {
        spec.provider = exec.provider.into();
        spec.model = exec.model.clone();
        spec.base_url = exec.base_url.clone();
        spec.max_turns = exec.max_turns;
        spec.searxng_url = exec.searxng_url.clone();
        spec.approval_timeout_secs = exec.approval_timeout;
        if exec.text_tools {
            spec.native_tools = Some(false);
        }
        // Run from a subfolder of the project: its AGENTS.md files down to here count too.
        spec.work_dir = std::env::current_dir().ok();
    }
    Ok(spec)
}

/// `all` or a comma-separated list of tool names, checked against the registry.
fn parse_allow(list: &str) -> Result<Scope, String> {
    let names: Vec<&str> = list.split(',').map(str::trim).filter(|n| !n.is_empty()).collect();
    if names.is_empty() {
        return Err("--allow needs `all` or a list of tool names".to_owned());
    }
    warden_core::engine::allowed_scope(&names).map_err(|why| format!("--allow: {why}"))
}

pub async fn run(args: ToolArgs) -> Result<(), Exit> {
    let mut spec = session_spec(&args.common, None).map_err(Exit::usage)?;
    spec.searxng_url = args.searxng_url.clone();
    let input: serde_json::Value = match serde_json::from_str(&args.input) {
        Ok(value @ serde_json::Value::Object(_)) => value,
        Ok(_) => return Err(Exit::usage("the tool input must be a JSON object")),
        Err(error) => return Err(Exit::usage(format!("the tool input is not valid JSON: {error}"))),
    };
    let engine = Engine::from_env().map_err(Exit::failed)?;
    let approve = args.common.approve;
    let json = args.common.json;
    let mut signals = Signals::listen();
    let run = engine.run_tool(
        spec,
        &args.name,
        input,
        // Streamed output goes to stderr, keeping stdout for the result.
        |_, chunk| say::err_part(&chunk),
        |confirm| async move {
            match approve {
                ApproveArg::All => answer(true),
                ApproveArg::None => answer(false),
                ApproveArg::Ask if json => ask_on_stdin(&confirm).await,
                ApproveArg::Ask => answer(ask_on_terminal(confirm).await),
            }
        },
    );
    let outcome = tokio::select! {
        outcome = run => outcome,
        signal = signals.recv() => {
            // Dropping the call kills its process group; then everything else it started.
            let _ = tokio::task::spawn_blocking(warden_core::process_guard::kill_all_descendants).await;
            return Err(Exit::Interrupted(signal));
        }
    };
    let _ = tokio::task::spawn_blocking(warden_core::process_guard::kill_all_descendants).await;
    let result = match outcome {
        Ok(OneShot { result, .. }) => result,
        Err(error) if error.is_usage() => return Err(Exit::usage(error)),
        Err(error) => return Err(Exit::failed(error)),
    };
    let ok = result.status == warden_protocol::ToolStatus::Success;
    if args.common.json {
        let result = crate::legacy_keys::with_legacy_keys(&result);
        let line = serde_json::json!({
            "status": result.status,
            "code": result.code,
            "result": result.result,
            "report": result.report,
            "metadata": result.metadata.unwrap_or(serde_json::Value::Null),
        });
        say::json_line(&line);
    } else {
        say::out(&result.result);
    }
    if ok {
        Ok(())
    } else {
        // The result printed says why.
        Err(Exit::FailedAsShown)
    }
}

/// A yes or no without a reason (the confirmId is filled in by the engine).
fn answer(approved: bool) -> ToolApproval {
    ToolApproval { confirm_id: String::new(), approved, reason: None, remember: None, always: None }
}

/// `--json`: the answer is the next stdin line, a JSON approval (whose reason reaches the result)
/// or `y`/`n`.
async fn ask_on_stdin(confirm: &ToolConfirm) -> ToolApproval {
    if say::stderr_is_terminal() {
        say::err_part(&format!("{}approve? [y/N] ", question(confirm)));
    }
    let line = tokio::task::spawn_blocking(|| {
        let mut line = String::new();
        std::io::stdin().read_line(&mut line).map(|_| line)
    })
    .await;
    match line.ok().and_then(Result::ok).as_deref().and_then(approvals_input::parse_line) {
        Some(Answer::YesNo(yes)) => answer(yes),
        Some(Answer::Always) => {
            ToolApproval { remember: Some(warden_protocol::Remember::Always), ..answer(true) }
        }
        // One call, one question at a time: whichever confirmation the line names, it answers
        // this one (the engine fills in its confirmId).
        Some(Answer::Approval(line)) => line.answering(String::new()),
        None => answer(false),
    }
}

/// A person answers on the controlling terminal, never on stdin (see [`approvals_input`]); without
/// a terminal the confirmation is refused.
async fn ask_on_terminal(confirm: ToolConfirm) -> bool {
    let asked = tokio::task::spawn_blocking(move || {
        use std::io::BufRead;
        let mut tty = approvals_input::open_tty()?;
        write!(tty, "{}approve? [y/N] ", question(&confirm))?;
        tty.flush()?;
        let mut line = String::new();
        std::io::BufReader::new(tty).read_line(&mut line)?;
        Ok::<_, std::io::Error>(approvals_input::parse_tty_line(&line))
    })
    .await;
    match asked {
        Ok(Ok(answer)) => answer == Some(Answer::YesNo(true)),
        Ok(Err(error)) => {
            say::err(&format!("warden: {}", approvals_input::no_terminal_message(&error)));
            false
        }
        Err(_) => false,
    }
}

fn question(confirm: &ToolConfirm) -> String {
    let why = match &confirm.reason {
        Some(reason) => format!("  why it asks: {}\n", sanitize::line(reason)),
        None => String::new(),
    };
    format!("{}\n{}{why}", crate::render::confirm_head(confirm), crate::render::confirm_text(confirm))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allow_lists() {
        assert_eq!(parse_allow("all").unwrap(), Scope::all());
        let scope = parse_allow("file_read, bash").unwrap();
        assert!(scope.allows("bash") && scope.allows("file_read") && !scope.allows("file_write"));
        assert!(parse_allow("rm_everything").unwrap_err().contains("unknown tool"));
        assert!(parse_allow(" , ").is_err());
    }
}

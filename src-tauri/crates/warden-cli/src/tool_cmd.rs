//! `warden tool <name> '<json>'`: one tool through the same registry, schema validation, sandbox
//! and policy as the loop. Exit 0 on success, 1 on a tool error, 2 on usage.

use std::io::{IsTerminal, Write};

use warden_core::scope::Scope;
use warden_core::setup::{Engine, OneShot, SessionSpec};
use warden_protocol::ProviderId;

use crate::args::{ApproveArg, CommonArgs, ExecArgs, ProviderArg, ToolArgs};

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
    if let Some(exec) = exec {
        spec.provider = match exec.provider {
            ProviderArg::Anthropic => ProviderId::Anthropic,
            ProviderArg::Openai => ProviderId::Openai,
            ProviderArg::Ollama => ProviderId::Ollama,
        };
        spec.model = exec.model.clone();
        spec.base_url = exec.base_url.clone();
        spec.max_turns = exec.max_turns;
        spec.searxng_url = exec.searxng_url.clone();
        spec.approval_timeout_secs = exec.approval_timeout;
        if exec.text_tools {
            spec.native_tools = Some(false);
        }
    }
    Ok(spec)
}

/// `all` or a comma-separated list of tool names, checked against the registry.
fn parse_allow(list: &str) -> Result<Scope, String> {
    let list = list.trim();
    if list == "all" {
        return Ok(Scope::all());
    }
    let names: Vec<&str> = list.split(',').map(str::trim).filter(|n| !n.is_empty()).collect();
    if names.is_empty() {
        return Err("--allow needs `all` or a list of tool names".to_owned());
    }
    let known = warden_core::setup::tool_names();
    if let Some(unknown) = names.iter().find(|n| !known.iter().any(|k| k == *n)) {
        return Err(format!("--allow: unknown tool `{unknown}` (known: {})", known.join(", ")));
    }
    Ok(Scope::only(names))
}

pub async fn run(args: ToolArgs) -> u8 {
    let mut spec = match session_spec(&args.common, None) {
        Ok(spec) => spec,
        Err(message) => {
            eprintln!("warden: {message}");
            return 2;
        }
    };
    spec.searxng_url = args.searxng_url.clone();
    let input: serde_json::Value = match serde_json::from_str(&args.input) {
        Ok(value @ serde_json::Value::Object(_)) => value,
        Ok(_) => {
            eprintln!("warden: the tool input must be a JSON object");
            return 2;
        }
        Err(error) => {
            eprintln!("warden: the tool input is not valid JSON: {error}");
            return 2;
        }
    };
    let engine = match Engine::from_env() {
        Ok(engine) => engine,
        Err(error) => {
            eprintln!("warden: {error}");
            return 1;
        }
    };
    let approve = args.common.approve;
    let outcome = engine
        .run_tool(
            spec,
            &args.name,
            input,
            // Streamed output goes to stderr, keeping stdout for the result.
            |_, chunk| eprint!("{chunk}"),
            |confirm| async move {
                match approve {
                    ApproveArg::All => true,
                    ApproveArg::None => false,
                    ApproveArg::Ask => {
                        ask_on_stdin(&confirm.tool_name, &crate::render::summary(&confirm.input)).await
                    }
                }
            },
        )
        .await;
    let result = match outcome {
        Ok(OneShot { result, .. }) => result,
        Err(error) => {
            eprintln!("warden: {error}");
            return if error.is_usage() { 2 } else { 1 };
        }
    };
    let ok = result.status == warden_protocol::ToolStatus::Success;
    if args.common.json {
        let line = serde_json::json!({
            "status": result.status,
            "result": result.result,
            "metadata": result.metadata.unwrap_or(serde_json::Value::Null),
        });
        let _ = writeln!(std::io::stdout(), "{line}");
    } else {
        let _ = writeln!(std::io::stdout(), "{}", result.result);
    }
    if ok {
        0
    } else {
        1
    }
}

/// One y/N question on the terminal (stdin lines when not a terminal).
async fn ask_on_stdin(tool: &str, summary: &str) -> bool {
    if std::io::stderr().is_terminal() {
        eprint!("approve {tool} {summary}? [y/N] ");
    }
    let line = tokio::task::spawn_blocking(|| {
        let mut line = String::new();
        std::io::stdin().read_line(&mut line).map(|_| line)
    })
    .await;
    match line {
        Ok(Ok(line)) => {
            matches!(
                crate::approvals_input::parse_line(&line),
                Some(crate::approvals_input::Answer::YesNo(true))
            ) || matches!(crate::approvals_input::parse_line(&line), Some(crate::approvals_input::Answer::Approval(a)) if a.approved)
        }
        _ => false,
    }
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

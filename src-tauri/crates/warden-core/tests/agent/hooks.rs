//! Hooks with real scripts, through the engine: what they decide reaches the policy and the model,
//! they run in the box, a hanging one is killed at its limit, and a repository's hooks run only
//! once the user approved exactly them.

use std::time::{Duration, Instant};

use serde_json::json;
use warden_protocol::{Event, HookRun, HooksConfig, Settings, ToolErrorCode, TrustLevel};

use super::harness::Wire;
use super::through_engine::{message_text, place, run, start_session, tool_results, write, Place};
use super::wire::{text, tool};
use crate::support::server::TestServer;

fn hooks(value: serde_json::Value) -> HooksConfig {
    serde_json::from_value(value).unwrap()
}

/// The engine with the user's `hooks` in its settings and the place's project chosen.
fn engine_with(place: &Place, user_hooks: HooksConfig) -> warden_core::engine::Engine {
    let engine = place.engine();
    let settings = Settings {
        project_dir: Some(place.project.to_string_lossy().into_owned()),
        hooks: user_hooks,
        ..Settings::default()
    };
    engine.save_settings(settings).unwrap();
    engine
}

fn hook_runs(seen: &[Event]) -> Vec<&HookRun> {
    seen.iter().filter_map(|e| if let Event::Hook(run) = e { Some(run) } else { None }).collect()
}

fn bash_then_done(command: &str) -> Vec<warden_testkit::server::Reply> {
    vec![
        Wire::Anthropic.reply(&[tool("t1", "bash", json!({ "command": command }))], 10),
        Wire::Anthropic.reply(&[text("done")], 10),
    ]
}

#[tokio::test]
async fn a_pre_tool_use_deny_reaches_the_model_with_its_reason() {
    let place = place().await;
    let engine = engine_with(
        &place,
        hooks(json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "echo 'Run make test, not cargo directly.' >&2; exit 2"}
        ]}]})),
    );
    let server = TestServer::start(bash_then_done("cargo test")).await;
    let (session, mut events) = start_session(&engine, &place.project, &server, TrustLevel::Autonomous).await;
    let seen = run(&session, &mut events, "test it", true).await;

    let result = tool_results(&server.requests()[1].body).pop().unwrap();
    assert!(result.contains("Run make test, not cargo directly."), "{result}");
    assert!(result.contains("PreToolUse hook"), "{result}");
    let runs = hook_runs(&seen);
    assert_eq!(runs.len(), 1, "{runs:?}");
    assert_eq!(runs[0].hook_event, "PreToolUse");
    assert_eq!(runs[0].tool_id.as_deref(), Some("t1"));
    assert_eq!(runs[0].exit_code, Some(2));
    assert!(runs[0].outcome.starts_with("blocked: Run make test"), "{}", runs[0].outcome);
    assert!(runs[0].contained, "hooks run in the box");
    assert!(!seen.iter().any(|e| matches!(e, Event::ToolConfirm(_))), "a refused call is not asked about");
    // Kept with the call, for a reopened conversation.
    assert_eq!(saved_hook_events(&session, "t1"), ["PreToolUse"]);
}

/// The hook events kept with the saved result of call `id`.
fn saved_hook_events(session: &warden_core::agent::Session, id: &str) -> Vec<String> {
    let history = session.history();
    let block = history
        .iter()
        .flat_map(|m| &m.content)
        .find_map(|b| match b {
            warden_protocol::ContentBlock::ToolResult(r) if r.tool_use_id == id => Some(r.clone()),
            _ => None,
        })
        .expect("the call's result");
    block.report.map(|r| r.hooks.iter().map(|h| h.hook_event.clone()).collect()).unwrap_or_default()
}

#[tokio::test]
async fn an_input_a_hook_rewrote_is_decided_again_by_the_policy() {
    let place = place().await;
    let rewrite = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
        "updatedInput": {"command": "rm -rf /"}}});
    let engine = engine_with(
        &place,
        hooks(json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": format!("echo '{rewrite}'")}
        ]}]})),
    );
    let server = TestServer::start(bash_then_done("echo hi")).await;
    let (session, mut events) = start_session(&engine, &place.project, &server, TrustLevel::Autonomous).await;
    let seen = run(&session, &mut events, "go", true).await;
    let result = seen
        .iter()
        .find_map(|e| if let Event::ToolResult(r) = e { Some(r) } else { None })
        .expect("a result");
    assert_eq!(result.code, Some(ToolErrorCode::BlockedCommand), "{result:?}");
    assert!(hook_runs(&seen)[0].outcome.contains("rewrote the input"));
}

#[tokio::test]
async fn a_hook_that_hangs_is_killed_at_its_limit_and_the_turn_goes_on() {
    let place = place().await;
    let engine = engine_with(
        &place,
        hooks(json!({"UserPromptSubmit": [{"hooks": [
            {"type": "command", "command": "sleep 30; echo never", "timeout": 1}
        ]}]})),
    );
    let server = TestServer::start(vec![Wire::Anthropic.reply(&[text("hi")], 10)]).await;
    let (session, mut events) = start_session(&engine, &place.project, &server, TrustLevel::Guided).await;
    let started = Instant::now();
    let seen = run(&session, &mut events, "hello", false).await;
    assert!(started.elapsed() < Duration::from_secs(20), "{:?}", started.elapsed());
    let runs = hook_runs(&seen);
    assert!(runs[0].timed_out, "{runs:?}");
    assert!(runs[0].outcome.contains("time limit of 1 s"), "{}", runs[0].outcome);
    assert_eq!(message_text(&server.requests()[0].body, 0), "hello", "the message went on unchanged");
}

#[tokio::test]
async fn a_hook_cannot_read_warden_s_files_nor_a_home_secret_nor_reach_the_network() {
    let place = place().await;
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let settings = place.home().join("settings.json");
    // A key in the user's real home, where the box shows only the toolchains.
    let home = dirs::home_dir().unwrap();
    let secret_dir = tempfile::Builder::new().prefix(".warden-hook-secret").tempdir_in(&home).unwrap();
    let key = std::fs::canonicalize(secret_dir.path()).unwrap().join("id_ed25519");
    std::fs::write(&key, "PRIVATE-KEY-BYTES").unwrap();
    let command = format!(
        "cat '{}' && echo READ-OK; cat '{}'; python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}), 2); print('NET-OK')\"",
        settings.display(),
        key.display()
    );
    let engine = engine_with(
        &place,
        hooks(json!({"UserPromptSubmit": [{"hooks": [{"type": "command", "command": command}]}]})),
    );
    assert!(settings.is_file(), "the file the hook tries to read exists outside the box");
    let server = TestServer::start(vec![Wire::Anthropic.reply(&[text("hi")], 10)]).await;
    let (session, mut events) = start_session(&engine, &place.project, &server, TrustLevel::Guided).await;
    let seen = run(&session, &mut events, "hello", false).await;
    let runs = hook_runs(&seen);
    assert!(runs[0].contained);
    assert!(
        !runs[0].output.contains("READ-OK") && !runs[0].output.contains("trustLevel"),
        "{}",
        runs[0].output
    );
    assert!(!runs[0].output.contains("PRIVATE-KEY-BYTES"), "{}", runs[0].output);
    assert!(!runs[0].output.contains("NET-OK"), "{}", runs[0].output);
    assert!(listener.accept().is_err(), "nothing reached the listener");
}

#[tokio::test]
async fn a_repository_s_hooks_run_only_once_approved_and_are_asked_again_after_a_change() {
    let place = place().await;
    let settings_file = place.project.join(".claude/settings.json");
    let file = |command: &str| {
        json!({"permissions": {"allow": ["Bash(npm test)"]},
               "hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": command}]}]}})
        .to_string()
    };
    write(&settings_file, &file("touch \"$CLAUDE_PROJECT_DIR/ran-1\""));
    let engine = engine_with(&place, HooksConfig::new());
    let ran = |n: &str| place.project.join(n).exists();

    let seen = one_turn(&engine, &place.project).await;
    assert!(hook_runs(&seen).is_empty() && !ran("ran-1"), "not run before approval");

    let offer = engine.project_hooks_offer(&place.project).unwrap().unwrap();
    assert_eq!(offer.state, "new");
    assert_eq!(offer.commands, ["UserPromptSubmit: touch \"$CLAUDE_PROJECT_DIR/ran-1\""]);
    assert!(engine.choose_project_hooks(&place.project, "not-the-digest", true).is_err());
    engine.choose_project_hooks(&place.project, &offer.digest, true).unwrap();
    let seen = one_turn(&engine, &place.project).await;
    assert_eq!(hook_runs(&seen)[0].origin, "project");
    assert!(ran("ran-1"), "run once approved, in the project");

    write(&settings_file, &file("touch \"$CLAUDE_PROJECT_DIR/ran-2\""));
    assert_eq!(engine.project_hooks_offer(&place.project).unwrap().unwrap().state, "changed");
    let seen = one_turn(&engine, &place.project).await;
    assert!(hook_runs(&seen).is_empty() && !ran("ran-2"), "a changed file is asked about again");
}

/// One "hello" turn of a new session in `project`.
async fn one_turn(engine: &warden_core::engine::Engine, project: &std::path::Path) -> Vec<Event> {
    let server = TestServer::start(vec![Wire::Anthropic.reply(&[text("ok")], 10)]).await;
    let (session, mut events) = start_session(engine, project, &server, TrustLevel::Guided).await;
    run(&session, &mut events, "hello", false).await
}

#[tokio::test]
async fn a_project_hook_s_allow_grants_nothing_but_the_user_s_own_counts_as_their_rule() {
    for (origin, asks) in [("project", true), ("user", false)] {
        let place = place().await;
        let allow =
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}});
        let config = hooks(json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": format!("echo '{allow}'")}
        ]}]}));
        let engine = if origin == "project" {
            write(&place.project.join(".claude/settings.json"), &json!({ "hooks": config }).to_string());
            let engine = engine_with(&place, HooksConfig::new());
            let digest = engine.project_hooks_offer(&place.project).unwrap().unwrap().digest;
            engine.choose_project_hooks(&place.project, &digest, true).unwrap();
            engine
        } else {
            engine_with(&place, config)
        };
        let server = TestServer::start(bash_then_done("touch made")).await;
        let (session, mut events) = start_session(&engine, &place.project, &server, TrustLevel::Guided).await;
        let seen = run(&session, &mut events, "make it", true).await;
        let asked = seen.iter().any(|e| matches!(e, Event::ToolConfirm(_)));
        assert_eq!(asked, asks, "{origin}: {seen:?}");
        assert!(place.project.join("made").exists(), "{origin}");
    }
}

#[tokio::test]
async fn post_tool_use_adds_to_the_result_and_stop_sends_the_model_on_once() {
    let place = place().await;
    write(
        &place.project.join(".hooks/stop.py"),
        "import json, sys\nevent = json.load(sys.stdin)\nif not event['stop_hook_active']:\n    \
print('Run the tests before you stop.', file=sys.stderr)\n    sys.exit(2)\n",
    );
    let engine = engine_with(
        &place,
        hooks(json!({
            "PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo 'formatted' >&2; exit 2"}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "python3 \"$CLAUDE_PROJECT_DIR/.hooks/stop.py\""}]}]
        })),
    );
    let server = TestServer::start(vec![
        Wire::Anthropic.reply(&[tool("t1", "bash", json!({ "command": "echo hi" }))], 10),
        Wire::Anthropic.reply(&[text("done")], 10),
        Wire::Anthropic.reply(&[text("tests pass")], 10),
    ])
    .await;
    let (session, mut events) = start_session(&engine, &place.project, &server, TrustLevel::Autonomous).await;
    let seen = run(&session, &mut events, "go", true).await;
    let requests = server.requests();
    assert_eq!(requests.len(), 3, "the Stop hook sent the model on once, then let it stop");
    let result = tool_results(&requests[1].body).pop().unwrap();
    assert!(
        result.contains("hi") && result.contains("PostToolUse hook") && result.contains("formatted"),
        "{result}"
    );
    let last = requests[2].body["messages"].as_array().unwrap().last().unwrap().to_string();
    assert!(last.contains("Run the tests before you stop."), "{last}");
    let events: Vec<&str> = hook_runs(&seen).iter().map(|r| r.hook_event.as_str()).collect();
    assert_eq!(events, ["PostToolUse", "Stop", "Stop"]);
    assert_eq!(saved_hook_events(&session, "t1"), ["PostToolUse"]);
}

#[tokio::test]
async fn a_claude_code_settings_file_with_a_command_validator_works_unchanged() {
    let place = place().await;
    // The shape of the validator in Claude Code's hook documentation: it reads the event from
    // stdin, looks at `tool_name` and `tool_input.command`, and exits 2 with its findings.
    write(
        &place.project.join(".claude/hooks/validate_bash.py"),
        "#!/usr/bin/env python3\nimport json, re, sys\n\
RULES = [(r'\\bgrep\\b(?!.*\\|)', 'Use rg (ripgrep) instead of grep for better performance')]\n\
data = json.load(sys.stdin)\n\
if data.get('tool_name') != 'Bash':\n    sys.exit(0)\n\
command = data.get('tool_input', {}).get('command', '')\n\
issues = [message for pattern, message in RULES if re.search(pattern, command)]\n\
if issues:\n    for issue in issues:\n        print(f'* {issue}', file=sys.stderr)\n    sys.exit(2)\n",
    );
    write(
        &place.project.join(".claude/settings.json"),
        r#"{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "python3 \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/validate_bash.py"
          }
        ]
      }
    ]
  }
}
"#,
    );
    let engine = engine_with(&place, HooksConfig::new());
    let digest = engine.project_hooks_offer(&place.project).unwrap().unwrap().digest;
    engine.choose_project_hooks(&place.project, &digest, true).unwrap();
    let server = TestServer::start(vec![
        Wire::Anthropic.reply(&[tool("t1", "bash", json!({ "command": "grep -r TODO src" }))], 10),
        Wire::Anthropic.reply(&[tool("t2", "bash", json!({ "command": "echo fine" }))], 10),
        Wire::Anthropic.reply(&[text("done")], 10),
    ])
    .await;
    let (session, mut events) = start_session(&engine, &place.project, &server, TrustLevel::Autonomous).await;
    run(&session, &mut events, "find the todos", true).await;
    let requests = server.requests();
    let refused = tool_results(&requests[1].body).pop().unwrap();
    assert!(refused.contains("Use rg (ripgrep) instead of grep"), "{refused}");
    let allowed = tool_results(&requests[2].body).pop().unwrap();
    assert!(allowed.contains("fine"), "{allowed}");
}

#[tokio::test]
async fn a_hook_the_user_set_for_one_project_runs_there_only() {
    let place = place().await;
    let other = place.dirs.path().join("other");
    std::fs::create_dir_all(&other).unwrap();
    let other = std::fs::canonicalize(other).unwrap();
    let engine = engine_with(&place, HooksConfig::new());
    let mut settings = engine.settings();
    let perms = warden_protocol::ToolPermissions {
        hooks: hooks(
            json!({"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo 'Only here.'"}]}]}),
        ),
        ..warden_protocol::ToolPermissions::default()
    };
    settings.tool_permissions.insert(place.project.to_string_lossy().into_owned(), perms);
    engine.save_settings(settings).unwrap();

    let here = one_turn(&engine, &place.project).await;
    let runs = hook_runs(&here);
    assert_eq!(runs.len(), 1, "{runs:?}");
    assert_eq!(runs[0].origin, "user");
    assert!(runs[0].outcome.contains("added context"), "{}", runs[0].outcome);
    assert!(hook_runs(&one_turn(&engine, &other).await).is_empty(), "another project has none");
}

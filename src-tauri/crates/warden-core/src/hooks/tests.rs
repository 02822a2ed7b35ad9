use std::time::Duration;

use serde_json::json;
use warden_protocol::{HookCommand, HookMatcher, HooksConfig};

use super::answer::{read, Permission};
use super::run::Ran;
use super::*;

fn config(event: &str, matcher: &str, commands: &[&str]) -> HooksConfig {
    let hooks = commands
        .iter()
        .map(|c| HookCommand {
            kind: "command".into(),
            command: (*c).into(),
            timeout: None,
            outside_box: true,
        })
        .collect();
    HooksConfig::from([(event.to_owned(), vec![HookMatcher { matcher: matcher.into(), hooks }])])
}

#[test]
fn claude_code_s_settings_shape_parses_and_matchers_take_either_tool_name() {
    let json = json!({
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh", "timeout": 5}]},
            {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "./fmt.sh"}]},
            {"matcher": "mcp__gh__.*", "hooks": [{"type": "command", "command": "./gh.sh"}]}
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "./stop.sh"}]}]
    });
    let config: HooksConfig = serde_json::from_value(json).unwrap();
    let (set, problems) = HookSet::from_config(&config, HookOrigin::Project);
    assert!(problems.is_empty(), "{problems:?}");
    let commands = |tool| {
        set.for_event(HookEvent::PreToolUse, Some(tool)).iter().map(|h| h.command.clone()).collect::<Vec<_>>()
    };
    assert_eq!(commands("bash"), ["./check.sh"], "Warden's bash is Claude Code's Bash");
    assert_eq!(commands("file_edit"), ["./fmt.sh"]);
    assert_eq!(commands("file_write"), ["./fmt.sh"]);
    assert_eq!(commands("mcp__gh__create_pr"), ["./gh.sh"]);
    assert!(commands("file_read").is_empty());
    assert!(commands("bash_extra").is_empty(), "a matcher matches the whole name");
    assert_eq!(set.for_event(HookEvent::Stop, None).len(), 1);
    assert_eq!(set.for_event(HookEvent::PreToolUse, Some("bash"))[0].timeout, Duration::from_secs(5));
    assert!(!set.all()[0].outside_box, "a project's hook never leaves the box");
}

#[test]
fn what_cannot_be_used_is_said_and_left_out() {
    let mut config = config("PreToolUse", "(", &["x"]);
    config.extend(config_with("Sometime", "", "x"));
    config.extend(config_with("Stop", "", ""));
    let (set, problems) = HookSet::from_config(&config, HookOrigin::User);
    assert!(set.is_empty());
    assert_eq!(problems.len(), 3, "{problems:?}");
}

fn config_with(event: &str, matcher: &str, command: &str) -> HooksConfig {
    config(event, matcher, &[command])
}

fn ran(code: i32, stdout: &str, stderr: &str) -> Ran {
    Ran { exit_code: Some(code), stdout: stdout.into(), stderr: stderr.into(), ..Ran::default() }
}

#[test]
fn exit_code_2_blocks_with_stderr_and_other_codes_only_fail() {
    let blocked = read(HookEvent::PreToolUse, &ran(2, "ignored", "no rm here\n"));
    assert_eq!(blocked.blocked.as_deref(), Some("no rm here"));
    let failed = read(HookEvent::PreToolUse, &ran(1, "", "oops\nmore"));
    assert_eq!(failed.failed.as_deref(), Some("exit code 1: oops"));
    assert_eq!(failed.blocked, None);
    let timed_out = read(
        HookEvent::PreToolUse,
        &Ran { timed_out: true, limit: Duration::from_secs(3), ..Ran::default() },
    );
    assert!(timed_out.outcome().contains("time limit of 3 s"), "{}", timed_out.outcome());
}

#[test]
fn json_on_stdout_decides_rewrites_and_adds_context() {
    let out = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "not on main", "updatedInput": {"command": "ls"}}});
    let answer = read(HookEvent::PreToolUse, &ran(0, &out.to_string(), ""));
    assert_eq!(answer.permission, Some((Permission::Deny, Some("not on main".into()))));
    assert_eq!(answer.updated_input, Some(json!({"command": "ls"})));
    let approve = read(HookEvent::PreToolUse, &ran(0, r#"{"decision": "approve"}"#, ""));
    assert_eq!(approve.permission.map(|p| p.0), Some(Permission::Allow));
    let stop = read(HookEvent::PostToolUse, &ran(0, r#"{"continue": false, "stopReason": "enough"}"#, ""));
    assert_eq!(stop.stop.as_deref(), Some("enough"));
    let context = read(HookEvent::UserPromptSubmit, &ran(0, "Today is Friday.\n", ""));
    assert_eq!(context.context.as_deref(), Some("Today is Friday."));
    let plain = read(HookEvent::PreToolUse, &ran(0, "just words", ""));
    assert_eq!(plain.outcome(), "no effect", "plain stdout is context only where the event takes it");
}

#[test]
fn inputs_carry_claude_code_s_field_names_and_rewrites_come_back_in_warden_s() {
    let input = json!({"path": "src/a.rs", "old_text": "a", "new_text": "b"});
    let seen = names::hook_input(&input);
    assert_eq!(seen["file_path"], "src/a.rs");
    assert_eq!(seen["old_string"], "a");
    assert_eq!(seen["path"], "src/a.rs");
    let back = names::tool_input(&json!({"file_path": "src/b.rs", "new_string": "c", "old_text": "a"}));
    assert_eq!(back, json!({"path": "src/b.rs", "new_text": "c", "old_text": "a"}));
}

#[test]
fn a_project_file_s_digest_follows_its_hooks_not_its_layout() {
    let a: HooksConfig =
        serde_json::from_str(r#"{"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}"#).unwrap();
    let b: HooksConfig = serde_json::from_str(
        "{ \"Stop\" : [ { \"hooks\" : [ {\"command\":\"x\", \"type\":\"command\"} ] } ] }",
    )
    .unwrap();
    let c: HooksConfig =
        serde_json::from_str(r#"{"Stop": [{"hooks": [{"type": "command", "command": "y"}]}]}"#).unwrap();
    assert_eq!(project::digest(&a), project::digest(&b));
    assert_ne!(project::digest(&a), project::digest(&c));
    assert_eq!(project::commands(&a), ["Stop: x"]);
}

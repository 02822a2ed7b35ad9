//! What one hook run decided, read as Claude Code reads it: exit code 2 blocks (stderr is the
//! reason); exit code 0 with JSON on stdout may say `continue: false` (stop, with `stopReason`),
//! `decision: "block"` (with `reason`), and in `hookSpecificOutput` a `permissionDecision`
//! (`allow`, `ask`, `deny`) with its reason, an `updatedInput`, or `additionalContext`; for the
//! events that take context, plain stdout is context. Any other exit code is a failure the user is
//! told about, and changes nothing.

use serde_json::Value;

use super::run::Ran;
use super::HookEvent;

/// At most this much of a hook's words reach the model or the user.
const WORDS_CAP: usize = 8 * 1024;

/// A PreToolUse hook's say on the call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Permission {
    Allow,
    Ask,
    Deny,
}

/// What a run decided.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Answer {
    /// Block what the event is about (the call, the prompt, the stop), with this reason.
    pub blocked: Option<String>,
    pub permission: Option<(Permission, Option<String>)>,
    /// The tool input to use instead (PreToolUse).
    pub updated_input: Option<Value>,
    /// Words for the model.
    pub context: Option<String>,
    /// End the turn (`continue: false`), with this reason.
    pub stop: Option<String>,
    /// It failed (spawn, time limit, exit code): what the user is told. Changes nothing.
    pub failed: Option<String>,
}

impl Answer {
    /// In a few words, for `chat:hook`.
    pub fn outcome(&self) -> String {
        if let Some(failed) = &self.failed {
            return format!("failed: {failed}");
        }
        if let Some(reason) = &self.stop {
            return format!("stopped the turn: {reason}");
        }
        if let Some(reason) = &self.blocked {
            return format!("blocked: {reason}");
        }
        let mut said = Vec::new();
        match &self.permission {
            Some((Permission::Allow, _)) => said.push("allowed the call".to_owned()),
            Some((Permission::Ask, _)) => said.push("asked for the user's approval".to_owned()),
            Some((Permission::Deny, reason)) => {
                said.push(format!("denied the call: {}", reason.as_deref().unwrap_or("no reason given")))
            }
            None => {}
        }
        if self.updated_input.is_some() {
            said.push("rewrote the input".to_owned());
        }
        if self.context.is_some() {
            said.push("added context".to_owned());
        }
        if said.is_empty() {
            "no effect".to_owned()
        } else {
            said.join(", ")
        }
    }
}

/// What `ran` decided for `event`.
pub fn read(event: HookEvent, ran: &Ran) -> Answer {
    if let Some(error) = &ran.spawn_error {
        return Answer { failed: Some(format!("could not start: {error}")), ..Answer::default() };
    }
    if ran.timed_out {
        return Answer {
            failed: Some(format!("stopped at its time limit of {} s", ran.limit.as_secs())),
            ..Answer::default()
        };
    }
    match ran.exit_code {
        Some(0) => from_stdout(event, &ran.stdout),
        Some(2) => {
            let reason = capped(ran.stderr.trim());
            let reason = if reason.is_empty() { "the hook gave no reason".to_owned() } else { reason };
            Answer { blocked: Some(reason), ..Answer::default() }
        }
        code => {
            let first = ran.stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
            let code = code.map_or_else(|| "a signal".to_owned(), |c| format!("exit code {c}"));
            let said = if first.is_empty() { String::new() } else { format!(": {}", capped(first)) };
            Answer { failed: Some(format!("{code}{said}")), ..Answer::default() }
        }
    }
}

fn from_stdout(event: HookEvent, stdout: &str) -> Answer {
    let text = stdout.trim();
    let takes_plain_context = matches!(event, HookEvent::UserPromptSubmit | HookEvent::SessionStart);
    let json = text.starts_with('{').then(|| serde_json::from_str::<Value>(text).ok()).flatten();
    let Some(json) = json else {
        let context = (takes_plain_context && !text.is_empty()).then(|| capped(text));
        return Answer { context, ..Answer::default() };
    };
    let mut answer = Answer::default();
    let words = |value: &Value| value.as_str().map(|s| capped(s.trim())).filter(|s| !s.is_empty());
    if json.get("continue") == Some(&Value::Bool(false)) {
        answer.stop = Some(
            json.get("stopReason").and_then(words).unwrap_or_else(|| "a hook ended the turn".to_owned()),
        );
    }
    match json.get("decision").and_then(Value::as_str) {
        Some("block") => {
            answer.blocked = Some(
                json.get("reason").and_then(words).unwrap_or_else(|| "the hook gave no reason".to_owned()),
            );
        }
        // The older spelling of a PreToolUse allow.
        Some("approve") if event == HookEvent::PreToolUse => {
            answer.permission = Some((Permission::Allow, json.get("reason").and_then(words)));
        }
        _ => {}
    }
    let specific = json.get("hookSpecificOutput").cloned().unwrap_or(Value::Null);
    if event == HookEvent::PreToolUse {
        let reason = specific.get("permissionDecisionReason").and_then(words);
        let permission = match specific.get("permissionDecision").and_then(Value::as_str) {
            Some("allow") => Some(Permission::Allow),
            Some("ask") => Some(Permission::Ask),
            Some("deny") => Some(Permission::Deny),
            _ => None,
        };
        if let Some(permission) = permission {
            answer.permission = Some((permission, reason));
        }
        if let Some(input) = specific.get("updatedInput").filter(|v| v.is_object()) {
            answer.updated_input = Some(input.clone());
        }
    }
    answer.context = specific.get("additionalContext").and_then(words);
    answer
}

fn capped(text: &str) -> String {
    if text.len() <= WORDS_CAP {
        return text.to_owned();
    }
    let mut end = WORDS_CAP;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… [cut]", &text[..end])
}

//! A session's hooks at the points of its turns ([`crate::hooks`]): each run is told to the face
//! (`chat:hook`), and what it decided is folded in where the turn is.
//!
//! - PreToolUse, before a call is decided: a deny refuses it with the hook's reason; an ask makes
//!   it ask; an allow from the user's own hook counts as a user-scope allow rule for that one call
//!   (the rules' never-loosened list still applies), from the project's file it has no effect; a
//!   rewritten input is the call's input from then on, and is decided by the policy as any input.
//! - PostToolUse: its reason (exit code 2) or context is added to the result the model reads.
//! - UserPromptSubmit (and SessionStart, at the first message): context is added to the message;
//!   a block keeps the message from the model and tells the user why.
//! - Stop: a block asks the model to go on, with the reason (a few times per turn at most).
//! - Notification: when Warden waits for the user's approval; it decides nothing.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde_json::{json, Map, Value};
use tokio_util::sync::CancellationToken;
use warden_protocol::{Event, HookRun, ToolResultBlock};

use super::events::EventEmitter;
use crate::hooks::answer::{self, Answer, Permission};
use crate::hooks::run::{self, Place};
use crate::hooks::{names, Hook, HookEvent, HookOrigin, HookSet};

/// At most this much of a hook's output goes into `chat:hook`.
const SHOWN_OUTPUT: usize = 4 * 1024;

/// The hooks of one session and where they run.
#[derive(Debug)]
pub struct SessionHooks {
    set: HookSet,
    place: Place,
    session_id: String,
    /// SessionStart has run (at the first message).
    started: AtomicBool,
}

/// What the PreToolUse hooks said of one call, strongest first as the rules are read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HookVerdict {
    pub deny: Option<String>,
    pub ask: Option<String>,
    /// Only from the user's own hooks.
    pub allow: Option<String>,
    /// The runs, to keep with the call's result ([`keep_runs`]).
    pub runs: Vec<HookRun>,
}

/// What the hooks said of the user's message.
#[derive(Debug, Clone, Default)]
pub struct PromptVerdict {
    pub blocked: Option<String>,
    pub context: Vec<String>,
}

/// The call a tool event's hooks run for: its tool's name and its id.
#[derive(Debug, Clone, Copy)]
pub struct Call<'a> {
    pub tool: &'a str,
    pub id: &'a str,
}

/// Where a run happened, for its `chat:hook`.
struct At<'a> {
    events: &'a EventEmitter,
    message_id: Option<&'a str>,
    tool_id: Option<&'a str>,
}

impl SessionHooks {
    pub fn new(set: HookSet, place: Place, session_id: String) -> Self {
        Self { set, place, session_id, started: AtomicBool::new(false) }
    }

    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }

    /// Run the PreToolUse hooks of the call `call` (its tool, id and input); a rewritten input
    /// replaces the call's.
    pub async fn pre_tool_use(
        &self,
        events: &EventEmitter,
        message_id: &str,
        call: Call<'_>,
        input: &mut Result<Value, String>,
        cancel: &CancellationToken,
    ) -> HookVerdict {
        let mut verdict = HookVerdict::default();
        let Ok(given) = input.clone() else { return verdict };
        let fields = tool_fields(call.tool, &given, None);
        let at = At { events, message_id: Some(message_id), tool_id: Some(call.id) };
        for (hook, answer, told) in
            self.fire(HookEvent::PreToolUse, Some(call.tool), fields, &at, cancel).await
        {
            verdict.runs.push(told);
            let who = format!("the PreToolUse hook `{}`", short(&hook.command));
            if let Some(reason) = answer.blocked.clone().or(answer.stop.clone()) {
                verdict.deny.get_or_insert(format!("{who}: {reason}"));
            }
            match answer.permission {
                Some((Permission::Deny, reason)) => {
                    let reason = reason.unwrap_or_else(|| "no reason given".to_owned());
                    verdict.deny.get_or_insert(format!("{who}: {reason}"));
                }
                Some((Permission::Ask, _)) => {
                    verdict.ask.get_or_insert(who.clone());
                }
                Some((Permission::Allow, _)) if hook.origin == HookOrigin::User => {
                    verdict.allow.get_or_insert(who.clone());
                }
                _ => {}
            }
            if let Some(updated) = answer.updated_input {
                *input = Ok(names::tool_input(&updated));
            }
        }
        verdict
    }

    /// Run the PostToolUse hooks of a finished call; what they say is added to its result.
    pub async fn post_tool_use(
        &self,
        events: &EventEmitter,
        message_id: &str,
        call: Call<'_>,
        input: &Value,
        block: &mut ToolResultBlock,
        cancel: &CancellationToken,
    ) {
        let response = json!({ "content": block.content, "is_error": block.is_error });
        let fields = tool_fields(call.tool, input, Some(response));
        let at = At { events, message_id: Some(message_id), tool_id: Some(call.id) };
        let mut runs = Vec::new();
        for (hook, answer, told) in
            self.fire(HookEvent::PostToolUse, Some(call.tool), fields, &at, cancel).await
        {
            runs.push(told);
            let who = short(&hook.command);
            if let Some(reason) = answer.blocked {
                block.content.push_str(&format!("\n\n[PostToolUse hook `{who}`: {reason}]"));
            }
            if let Some(context) = answer.context {
                block.content.push_str(&format!("\n\n[PostToolUse hook `{who}` adds: {context}]"));
            }
        }
        keep_runs(block, runs);
    }

    /// Run SessionStart (the first time) and UserPromptSubmit for the user's message.
    pub async fn prompt(
        &self,
        events: &EventEmitter,
        text: &str,
        cancel: &CancellationToken,
    ) -> PromptVerdict {
        let mut verdict = PromptVerdict::default();
        let at = At { events, message_id: None, tool_id: None };
        if !self.started.swap(true, Ordering::SeqCst) {
            let fields = Map::from_iter([("source".to_owned(), json!("startup"))]);
            for (_, answer, _) in self.fire(HookEvent::SessionStart, None, fields, &at, cancel).await {
                verdict.context.extend(answer.context);
            }
        }
        let fields = Map::from_iter([("prompt".to_owned(), json!(text))]);
        for (hook, answer, _) in self.fire(HookEvent::UserPromptSubmit, None, fields, &at, cancel).await {
            if let Some(reason) = answer.blocked.or(answer.stop) {
                verdict.blocked.get_or_insert(format!("the hook `{}`: {reason}", short(&hook.command)));
            }
            verdict.context.extend(answer.context);
        }
        verdict
    }

    /// Run the Stop hooks; `Some(reason)` when one asks the model to go on.
    pub async fn stop(
        &self,
        events: &EventEmitter,
        message_id: &str,
        active: bool,
        cancel: &CancellationToken,
    ) -> Option<String> {
        let fields = Map::from_iter([("stop_hook_active".to_owned(), json!(active))]);
        let at = At { events, message_id: Some(message_id), tool_id: None };
        let answers = self.fire(HookEvent::Stop, None, fields, &at, cancel).await;
        answers.into_iter().find_map(|(_, answer, _)| answer.blocked)
    }

    /// Run the Notification hooks, without waiting for them: they decide nothing.
    pub fn notify(self: &Arc<Self>, events: &EventEmitter, message: String) {
        if self.set.for_event(HookEvent::Notification, None).is_empty() {
            return;
        }
        let (hooks, events) = (Arc::clone(self), events.clone());
        tokio::spawn(async move {
            let fields = Map::from_iter([("message".to_owned(), json!(message))]);
            let at = At { events: &events, message_id: None, tool_id: None };
            hooks.fire(HookEvent::Notification, None, fields, &at, &CancellationToken::new()).await;
        });
    }

    /// Run the SessionEnd hooks.
    pub async fn end(&self, events: &EventEmitter, reason: &str) {
        let fields = Map::from_iter([("reason".to_owned(), json!(reason))]);
        let at = At { events, message_id: None, tool_id: None };
        self.fire(HookEvent::SessionEnd, None, fields, &at, &CancellationToken::new()).await;
    }

    /// Run `event`'s hooks (for `tool`), one after another, each told to the face.
    async fn fire(
        &self,
        event: HookEvent,
        tool: Option<&str>,
        fields: Map<String, Value>,
        at: &At<'_>,
        cancel: &CancellationToken,
    ) -> Vec<(Hook, Answer, HookRun)> {
        let hooks = self.set.for_event(event, tool);
        if hooks.is_empty() {
            return Vec::new();
        }
        let mut input = Map::new();
        input.insert("session_id".to_owned(), json!(self.session_id));
        input.insert("cwd".to_owned(), json!(self.place.project));
        input.insert("hook_event_name".to_owned(), json!(event.name()));
        input.extend(fields);
        let input = Value::Object(input);
        let mut out = Vec::with_capacity(hooks.len());
        for hook in hooks {
            let ran = run::run(hook, &input, &self.place, cancel).await;
            let answer = answer::read(event, &ran);
            let told = HookRun {
                conversation_id: at.events.conv(),
                message_id: at.message_id.map(str::to_owned),
                tool_id: at.tool_id.map(str::to_owned),
                hook_event: event.name().to_owned(),
                command: hook.command.clone(),
                origin: hook.origin.as_str().to_owned(),
                contained: ran.contained,
                exit_code: ran.exit_code,
                timed_out: ran.timed_out,
                duration_ms: u64::try_from(ran.duration.as_millis()).unwrap_or(u64::MAX),
                outcome: answer.outcome(),
                output: shown_output(&ran),
            };
            at.events.emit(Event::Hook(told.clone()));
            out.push((hook.clone(), answer, told));
        }
        out
    }
}

/// Keep `runs` with the call's saved result, after those kept already: a reopened conversation
/// shows them under its block.
pub fn keep_runs(block: &mut ToolResultBlock, runs: Vec<HookRun>) {
    if runs.is_empty() {
        return;
    }
    block.report.get_or_insert_with(Default::default).hooks.extend(runs);
}

/// A tool event's fields: the tool's name as Claude Code calls it (and Warden's), its input with
/// both spellings of the file fields, and for PostToolUse its result.
fn tool_fields(tool: &str, input: &Value, response: Option<Value>) -> Map<String, Value> {
    let mut fields = Map::new();
    fields.insert("tool_name".to_owned(), json!(names::claude_name(tool)));
    fields.insert("warden_tool_name".to_owned(), json!(tool));
    fields.insert("tool_input".to_owned(), names::hook_input(input));
    if let Some(response) = response {
        fields.insert("tool_response".to_owned(), response);
    }
    fields
}

fn shown_output(ran: &run::Ran) -> String {
    let mut text = ran.stdout.trim_end().to_owned();
    if !ran.stderr.trim().is_empty() {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(ran.stderr.trim_end());
    }
    if text.len() > SHOWN_OUTPUT {
        let mut end = SHOWN_OUTPUT;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push_str("… [cut]");
    }
    text
}

/// A command as a hook is named in messages: its first line, at most 80 characters.
fn short(command: &str) -> String {
    let line = command.lines().next().unwrap_or_default().trim();
    match line.char_indices().nth(80) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_owned(),
    }
}

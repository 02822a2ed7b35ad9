//! Hooks: the user's (and an approved project's) shell commands that run at points of a turn, in
//! the JSON shape Claude Code reads, so a `.claude/settings.json` works unchanged. See
//! docs/HOOKS.md.
//!
//! - [`HookSet`]: the configured hooks, each with its event, matcher, command, time limit and
//!   origin (the user's settings, or the project's approved file).
//! - `names`: Claude Code's tool names and input fields for Warden's tools, both ways.
//! - `run`: one hook run, in the box like a command (the user's own may run outside it), with the
//!   event as JSON on stdin and a time limit.
//! - `answer`: what a run decided (exit code 2 blocks; JSON on stdout may allow, ask, deny,
//!   rewrite the input, add context or stop).
//! - `project`: a project's own hooks, offered for approval with their exact commands.

pub mod answer;
pub mod names;
pub mod project;
pub mod run;

use std::time::Duration;

use regex::Regex;
use warden_protocol::HooksConfig;

/// The time a hook may run when its entry names none.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);
/// The most a hook may ask for.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(600);
/// At most this many hooks are configured from one source.
pub const MAX_HOOKS: usize = 64;
/// A longer command is refused.
pub const MAX_COMMAND_BYTES: usize = 8 * 1024;

/// The points of a turn a hook can run at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HookEvent {
    /// Before a tool call is decided: may allow, ask, deny (with a reason) or rewrite its input.
    PreToolUse,
    /// After a tool call: sees its result, may add a note for the model.
    PostToolUse,
    /// Before the user's message goes to the model: may add context or block it.
    UserPromptSubmit,
    /// When the model has answered: may ask it to go on, with a reason.
    Stop,
    /// At a session's first message: may add context.
    SessionStart,
    /// When a session ends.
    SessionEnd,
    /// When Warden waits for the user (an approval).
    Notification,
}

impl HookEvent {
    pub const ALL: [Self; 7] = [
        Self::PreToolUse,
        Self::PostToolUse,
        Self::UserPromptSubmit,
        Self::Stop,
        Self::SessionStart,
        Self::SessionEnd,
        Self::Notification,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Self::PreToolUse => "PreToolUse",
            Self::PostToolUse => "PostToolUse",
            Self::UserPromptSubmit => "UserPromptSubmit",
            Self::Stop => "Stop",
            Self::SessionStart => "SessionStart",
            Self::SessionEnd => "SessionEnd",
            Self::Notification => "Notification",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|event| event.name() == name)
    }

    /// Whether its hooks are chosen by the tool's name.
    pub fn is_tool_event(self) -> bool {
        matches!(self, Self::PreToolUse | Self::PostToolUse)
    }
}

/// Where a hook comes from, which says what its `allow` may do and whether it may leave the box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookOrigin {
    /// Warden's settings: its `allow` counts as a user-scope allow rule for that one call.
    User,
    /// The project's `.claude/settings.json`, approved by the user: its `allow` has no effect and
    /// it always runs in the box.
    Project,
}

impl HookOrigin {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::User => "user",
            Self::Project => "project",
        }
    }
}

/// Which tools a hook runs for: every one, or those whose name (Warden's, or Claude Code's for
/// the same tool) the expression matches whole.
#[derive(Debug, Clone)]
pub struct Matcher {
    written: String,
    pattern: Option<Regex>,
}

impl Matcher {
    pub fn parse(written: &str) -> Result<Self, String> {
        let trimmed = written.trim();
        if trimmed.is_empty() || trimmed == "*" {
            return Ok(Self { written: trimmed.to_owned(), pattern: None });
        }
        let pattern = regex::RegexBuilder::new(&format!("^(?:{trimmed})$"))
            .size_limit(1 << 20)
            .build()
            .map_err(|error| format!("the matcher {trimmed:?} is not a valid expression: {error}"))?;
        Ok(Self { written: trimmed.to_owned(), pattern: Some(pattern) })
    }

    pub fn matches(&self, tool: &str) -> bool {
        match &self.pattern {
            None => true,
            Some(pattern) => pattern.is_match(tool) || pattern.is_match(names::claude_name(tool)),
        }
    }

    pub fn written(&self) -> &str {
        &self.written
    }
}

/// One configured hook.
#[derive(Debug, Clone)]
pub struct Hook {
    pub event: HookEvent,
    pub matcher: Matcher,
    pub command: String,
    pub timeout: Duration,
    /// Runs outside the box (only ever true for the user's own hooks).
    pub outside_box: bool,
    pub origin: HookOrigin,
}

/// The hooks of a session.
#[derive(Debug, Clone, Default)]
pub struct HookSet {
    hooks: Vec<Hook>,
}

impl HookSet {
    /// The hooks `config` names, from `origin`; what could not be read is said, and left out.
    pub fn from_config(config: &HooksConfig, origin: HookOrigin) -> (Self, Vec<String>) {
        let mut hooks = Vec::new();
        let mut problems = Vec::new();
        for (event_name, groups) in config {
            let Some(event) = HookEvent::parse(event_name) else {
                problems
                    .push(format!("`{event_name}` is not a hook event Warden knows; its hooks do not run"));
                continue;
            };
            for group in groups {
                let matcher = match Matcher::parse(&group.matcher) {
                    Ok(matcher) => matcher,
                    Err(problem) => {
                        problems.push(format!("{event_name}: {problem}"));
                        continue;
                    }
                };
                for entry in &group.hooks {
                    if let Err(problem) = check_entry(entry) {
                        problems.push(format!("{event_name}: {problem}"));
                        continue;
                    }
                    if hooks.len() >= MAX_HOOKS {
                        problems.push(format!("more than {MAX_HOOKS} hooks: the rest do not run"));
                        return (Self { hooks }, problems);
                    }
                    let asked =
                        entry.timeout.map_or(DEFAULT_TIMEOUT, |s| Duration::from_secs(u64::from(s.max(1))));
                    hooks.push(Hook {
                        event,
                        matcher: matcher.clone(),
                        command: entry.command.clone(),
                        timeout: asked.min(MAX_TIMEOUT),
                        outside_box: entry.outside_box && origin == HookOrigin::User,
                        origin,
                    });
                }
            }
        }
        (Self { hooks }, problems)
    }

    /// These hooks, then `other`'s.
    pub fn with(mut self, other: Self) -> Self {
        self.hooks.extend(other.hooks);
        self
    }

    pub fn is_empty(&self) -> bool {
        self.hooks.is_empty()
    }

    /// The hooks of `event` (for a tool event, those whose matcher takes `tool`), in order.
    pub fn for_event(&self, event: HookEvent, tool: Option<&str>) -> Vec<&Hook> {
        self.hooks
            .iter()
            .filter(|hook| hook.event == event)
            .filter(|hook| !event.is_tool_event() || tool.is_some_and(|t| hook.matcher.matches(t)))
            .collect()
    }

    pub fn all(&self) -> &[Hook] {
        &self.hooks
    }
}

fn check_entry(entry: &warden_protocol::HookCommand) -> Result<(), String> {
    if entry.kind != "command" {
        return Err(format!("a hook of type {:?} is not run (only `command` hooks are)", entry.kind));
    }
    if entry.command.trim().is_empty() {
        return Err("a hook with an empty command".to_owned());
    }
    if entry.command.len() > MAX_COMMAND_BYTES || entry.command.contains('\0') {
        return Err("a hook command longer than 8 KiB, or with a NUL byte".to_owned());
    }
    Ok(())
}

#[cfg(test)]
mod tests;

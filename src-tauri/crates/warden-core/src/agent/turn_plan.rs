//! A message typed as `/name args` that names a custom command or a skill
//! ([`crate::conventions`]): the message the model is sent instead, and what Warden does in that
//! turn around it.
//!
//! Nothing here decides anything: the calls a command makes (its `` !`cmd` `` lines as `bash`, its
//! `@path` references as `file_read`, a skill's instructions as `skill`) are made before the model
//! answers, through the same runner as the model's calls (the policy, the rules, the box, the
//! user's approval); a command's `allowed-tools` only takes tools away from the offer for the turn.

use std::collections::BTreeSet;

use serde_json::json;

use crate::conventions::{Conventions, Invocation};
use crate::tools::SKILL;

/// What a command or skill adds to its turn.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct TurnPlan {
    /// Calls made for the user before the model answers: tool name and input.
    pub calls: Vec<(String, serde_json::Value)>,
    /// The only tools the model is offered in the turn; `None`: the session's.
    pub only_tools: Option<BTreeSet<String>>,
    /// The model of the turn, when the command names one of the session's provider.
    pub model: Option<String>,
    /// `/name`, for the messages that name what narrowed the tools.
    pub invoked: Option<String>,
    /// Plan mode: the model may only read, and ends with `propose_plan`.
    pub planning: bool,
}

/// What the model is told in a plan-mode turn, after the system prompt.
pub(crate) const PLAN_PROMPT: &str = "\n\n# Plan mode\n\nThis turn is for planning only. Read and \
search the project (and run read-only commands: the project is read-only and there is no network), think, \
and then call `propose_plan` with your plan and its steps. Do not try to change anything: nothing you \
could change would stay. The user edits and approves the plan; the work starts after that.";

impl TurnPlan {
    /// The plan the user approved: its steps become the task list (a `todo_write` call of the
    /// user's, before the model answers).
    pub(crate) fn approved(steps: &[String]) -> Self {
        let items: Vec<serde_json::Value> = steps
            .iter()
            .take(crate::tools::PLAN_MAX_STEPS)
            .enumerate()
            .map(|(n, text)| json!({ "id": (n + 1).to_string(), "text": text.trim(), "state": "pending" }))
            .collect();
        Self {
            calls: vec![(crate::tools::TODO_WRITE.to_owned(), json!({ "items": items }))],
            ..Self::default()
        }
    }
}

/// The message to send for `content`, and its turn's plan: `content` itself and an empty plan
/// unless it invokes a command or a skill. `provider` is the session's provider's name.
pub(crate) fn prepare(conventions: &Conventions, content: String, provider: &str) -> (String, TurnPlan) {
    let Some(invocation) = conventions.invoked(&content) else { return (content, TurnPlan::default()) };
    match invocation {
        Invocation::Skill(skill, args) => {
            let text = if args.is_empty() {
                format!("Use the skill `{}`.", skill.name)
            } else {
                format!("Use the skill `{}` for this: {args}", skill.name)
            };
            let plan = TurnPlan {
                calls: vec![(SKILL.to_owned(), json!({ "name": skill.name }))],
                invoked: Some(format!("/{}", skill.name)),
                ..TurnPlan::default()
            };
            (text, plan)
        }
        Invocation::Command(command, args) => {
            let expansion = crate::conventions::commands::expand(&command.body, args);
            let mut calls: Vec<(String, serde_json::Value)> =
                expansion.shell.iter().map(|line| ("bash".to_owned(), json!({ "command": line }))).collect();
            calls
                .extend(expansion.files.iter().map(|path| ("file_read".to_owned(), json!({ "path": path }))));
            // A command whose body says nothing is sent as typed.
            let mut text = if expansion.text.is_empty() { content.trim().to_owned() } else { expansion.text };
            if !calls.is_empty() {
                text.push_str(
                    "\n\n(Warden ran this command's `!` lines with `bash` and read its `@` files with \
`file_read`; their results follow.)",
                );
            }
            let model = command.model.clone().filter(|model| same_family(model, provider));
            if let (Some(wanted), None) = (&command.model, &model) {
                tracing::info!(command = %command.name, model = %wanted, provider, "the command's model is not the session provider's: not used");
            }
            let plan = TurnPlan {
                calls,
                only_tools: command.allowed_tools.as_deref().map(warden_tools),
                model,
                invoked: Some(format!("/{}", command.name)),
                planning: false,
            };
            (text, plan)
        }
    }
}

/// Whether a model named by a command file belongs to the session's provider: Claude models go to
/// Anthropic only, other names to any other provider (a command written for one vendor's model
/// does not send a request another vendor would refuse).
fn same_family(model: &str, provider: &str) -> bool {
    model.starts_with("claude") == (provider == "anthropic")
}

/// Warden's tools for the names a command's `allowed-tools` lists: the peers' names (`Bash`,
/// `Read`, `Edit`…; a pattern in parentheses is not a grant and narrows nothing further), MCP
/// tools (`mcp__server__tool`) and Warden's own names as they are. Names it does not know are
/// dropped: they offer nothing.
pub(crate) fn warden_tools(names: &[String]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for name in names {
        let bare = name.split('(').next().unwrap_or_default().trim();
        let mapped: &[&str] = match bare {
            "Bash" => &["bash", "command_output", "cancel_command"],
            "Read" => &["file_read"],
            "Write" => &["file_write"],
            "Edit" => &["file_edit"],
            "MultiEdit" => &["file_edit", "apply_patch"],
            "Grep" => &["search_in_files"],
            "Glob" => &["search_files"],
            "LS" => &["list_dir"],
            "WebSearch" => &["web_search"],
            "TodoWrite" => &["todo_write"],
            "Skill" => &[SKILL],
            _ => {
                if !bare.is_empty() && bare.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
                {
                    out.insert(bare.to_owned());
                }
                continue;
            }
        };
        out.extend(mapped.iter().map(|s| (*s).to_owned()));
    }
    out
}

#[cfg(test)]
#[path = "turn_plan_tests.rs"]
mod tests;

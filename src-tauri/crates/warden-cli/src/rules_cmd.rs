//! `warden rules list|add|remove|check|import [--project DIR] [--json]`: the permission rules, as
//! Settings → Permissions shows them; `import` converts Claude Code's and codex's rules and adds
//! them only with `--add`. `check` says what the policy would do with one call and
//! which rule or step decides it. Exit status (every status: [`crate::exit`]): 0 done (for
//! `check`: the call runs unasked), 3 the call asks, 4 it is refused, 1 on failure, 2 on a usage
//! error (a rule that does not parse, a rule to remove that is not there).

use std::path::Path;

use serde_json::{json, Value};
use warden_core::engine::Engine;
use warden_protocol::{PermissionRule, RuleEffect, RuleOrigin, RuleScope};

use crate::args::{EffectArg, RulesAction, RulesArgs, ScopeArg};
use crate::exit::Exit;
use crate::{sanitize, say};

pub fn run(args: RulesArgs) -> Result<(), Exit> {
    let engine = Engine::from_env().map_err(|error| Exit::Failed(said(error)))?;
    let project = args
        .project
        .map_or_else(std::env::current_dir, Ok)
        .map_err(|error| Exit::Usage(said(format!("cannot read the current directory: {error}"))))?;
    let project = std::fs::canonicalize(&project).unwrap_or(project);
    match args.action {
        RulesAction::List => list(&engine, &project, args.json),
        RulesAction::Add { effect, tool, pattern, scope } => {
            let rule = PermissionRule::new(effect.into(), tool, pattern).with_origin(RuleOrigin::Typed);
            let shown = rule.to_string();
            engine.add_rule(&project, scope.into(), rule).map_err(|why| Exit::Usage(said(why)))?;
            say::err(&format!("warden: added `{}` ({})", sanitize::line(&shown), scope_name(scope)));
            Ok(())
        }
        RulesAction::Remove { effect, tool, pattern, scope } => {
            let rule = PermissionRule::new(effect.into(), tool, pattern);
            match engine.remove_rule(&project, scope.into(), &rule) {
                Ok(true) => {
                    say::err(&format!(
                        "warden: removed `{}` ({})",
                        sanitize::line(&rule.to_string()),
                        scope_name(scope)
                    ));
                    Ok(())
                }
                Ok(false) => Err(Exit::Usage(said(format!(
                    "there is no rule `{rule}` in the {} rules",
                    scope_name(scope)
                )))),
                Err(why) => Err(Exit::Failed(said(why))),
            }
        }
        RulesAction::Check { tool, input } => check(&engine, &project, &tool, input.as_deref(), args.json),
        RulesAction::Import { add, include_wide } => import(&engine, &project, add, include_wide, args.json),
    }
}

fn list(engine: &Engine, project: &Path, json: bool) -> Result<(), Exit> {
    let rules = engine.list_rules(project);
    if json {
        say::out(&json!(rules).to_string());
        return Ok(());
    }
    if rules.is_empty() {
        say::out("No permission rules.");
    }
    for scoped in &rules {
        let origin = match &scoped.rule.origin {
            Some(RuleOrigin::Card) => " · saved from an approval".to_owned(),
            Some(RuleOrigin::Typed) | None => String::new(),
            Some(RuleOrigin::Imported { from }) => format!(" · imported from {from}"),
        };
        let problem = scoped.problem.as_deref().map(|p| format!("  (not applied: {p})")).unwrap_or_default();
        say::out(&sanitize::line(&format!("{:<8} {}{origin}{problem}", scoped.scope.as_str(), scoped.rule)));
    }
    Ok(())
}

fn import(engine: &Engine, project: &Path, add: bool, include_wide: bool, json: bool) -> Result<(), Exit> {
    let found = engine.import_rules(project).map_err(|error| Exit::Failed(said(error)))?;
    let chosen: Vec<_> = found.candidates.iter().filter(|c| add && (c.ticked || include_wide)).collect();
    let mut failed = 0;
    for candidate in &chosen {
        if let Err(why) = engine.add_rule(project, candidate.scope, candidate.rule.clone()) {
            say::err(&format!(
                "warden rules: `{}` not added: {}",
                sanitize::line(&candidate.entry),
                sanitize::line(&why)
            ));
            failed += 1;
        }
    }
    if json {
        say::out(&json!({ "import": found, "added": chosen.len() - failed }).to_string());
    } else {
        if found.files.is_empty() {
            say::out("No Claude Code or codex rules found.");
        }
        for candidate in &found.candidates {
            let tick = if candidate.ticked { "[x]" } else { "[ ]" };
            let warning = candidate.warning.as_deref().map(|w| format!("  — {w}")).unwrap_or_default();
            let from = match &candidate.rule.origin {
                Some(RuleOrigin::Imported { from }) => from.as_str(),
                _ => "",
            };
            say::out(&sanitize::line(&format!(
                "{tick} {:<8} {}   ({} in {from}){warning}",
                candidate.scope.as_str(),
                candidate.rule,
                candidate.entry
            )));
        }
        for skipped in &found.skipped {
            say::out(&sanitize::line(&format!(
                "not converted: {} in {}: {}",
                skipped.entry, skipped.from, skipped.why
            )));
        }
        if add {
            say::err(&format!("warden: added {} rules", chosen.len() - failed));
        } else if !found.candidates.is_empty() {
            say::err("warden: nothing added; --add adds the ticked rules (--include-wide the others too)");
        }
    }
    // Each rule not added was said above.
    if failed > 0 {
        Err(Exit::FailedAsShown)
    } else {
        Ok(())
    }
}

fn check(engine: &Engine, project: &Path, tool: &str, input: Option<&str>, json: bool) -> Result<(), Exit> {
    let (tool, input) = call_input(tool, input).map_err(|why| Exit::Usage(said(why)))?;
    let checked = engine.check_call(project, &tool, &input).map_err(|error| Exit::Failed(said(error)))?;
    if json {
        say::out(&json!(checked).to_string());
    } else {
        say::out(&sanitize::line(&format!("{}: {}", checked.decision.as_str(), checked.reason)));
        if let Some(rule) = &checked.suggested_rule {
            let (shown, means) = crate::render::offered_rule(rule);
            say::out(&format!("always allow would save: {shown}"));
            if let Some(means) = means {
                say::out(&format!("  {means}"));
            }
        }
    }
    match checked.decision {
        RuleEffect::Allow => Ok(()),
        RuleEffect::Ask => Err(Exit::Asks),
        RuleEffect::Deny => Err(Exit::Refused),
    }
}

/// A call from the command line: the tool (`read` and `write`, as rules name them, are
/// `file_read` and `file_write`) and its input — JSON as given, else the command of `bash` or the
/// path of a file tool, with the rest of its input empty.
fn call_input(tool: &str, input: Option<&str>) -> Result<(String, Value), String> {
    let tool = match tool {
        "read" => "file_read",
        "write" => "file_write",
        other => other,
    };
    let input = match input {
        Some(text) if text.trim_start().starts_with('{') => {
            serde_json::from_str(text).map_err(|e| format!("the input is not a JSON object: {e}"))?
        }
        Some(text) if tool == "bash" => json!({ "command": text }),
        Some(text) => match tool {
            "file_write" => json!({ "path": text, "content": "" }),
            "file_edit" => json!({ "path": text, "old_text": "", "new_text": "" }),
            _ => json!({ "path": text }),
        },
        None if tool == "bash" => return Err("`check bash` takes the command to check".to_owned()),
        None => json!({}),
    };
    Ok((tool.to_owned(), input))
}

impl From<EffectArg> for RuleEffect {
    fn from(effect: EffectArg) -> Self {
        match effect {
            EffectArg::Allow => Self::Allow,
            EffectArg::Ask => Self::Ask,
            EffectArg::Deny => Self::Deny,
        }
    }
}

impl From<ScopeArg> for RuleScope {
    fn from(scope: ScopeArg) -> Self {
        match scope {
            ScopeArg::Project => Self::Project,
            ScopeArg::User => Self::User,
        }
    }
}

fn scope_name(scope: ScopeArg) -> &'static str {
    match scope {
        ScopeArg::Project => "this project",
        ScopeArg::User => "every project",
    }
}

/// A failure as `warden rules` says it, on one line.
fn said(message: impl std::fmt::Display) -> String {
    format!("warden rules: {}", sanitize::line(&message.to_string()))
}

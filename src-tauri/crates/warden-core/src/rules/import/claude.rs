//! Claude Code's `permissions` (`{"permissions": {"allow": [...], "ask": [...], "deny": [...]}}`):
//! `Bash(npm run test:*)`, `Bash(git status)`, `Read(src/**)`, `Edit(docs/*.md)`,
//! `WebFetch(domain:example.com)`, `WebSearch`, `mcp__server`, `mcp__server__tool`.

use std::path::Path;

use serde_json::Value;
use warden_protocol::{
    PermissionRule, RuleEffect, RuleScope, COMMAND_RULE_TOOL, NETWORK_RULE_TOOL, READ_RULE_TOOL,
    WRITE_RULE_TOOL,
};

use super::Entry;

pub(super) fn convert(text: &str, scope: RuleScope, project: &Path) -> Result<Vec<Entry>, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let Some(permissions) = value.get("permissions") else { return Ok(Vec::new()) };
    let mut out = Vec::new();
    for (key, effect) in [("allow", RuleEffect::Allow), ("ask", RuleEffect::Ask), ("deny", RuleEffect::Deny)]
    {
        let Some(list) = permissions.get(key) else { continue };
        let Some(list) = list.as_array() else {
            out.push(Entry::new(format!("permissions.{key}"), Err("not a list".to_owned())));
            continue;
        };
        for item in list {
            match item.as_str() {
                Some(text) => out.push(Entry::new(text, rule(text, effect, scope, project))),
                None => out.push(Entry::new(item.to_string(), Err("not a string".to_owned()))),
            }
        }
    }
    Ok(out)
}

/// One entry as a Warden rule.
fn rule(text: &str, effect: RuleEffect, scope: RuleScope, project: &Path) -> Result<PermissionRule, String> {
    let text = text.trim();
    let (tool, inner) = match text.split_once('(') {
        Some((tool, rest)) => {
            let inner = rest.strip_suffix(')').ok_or("an unclosed `(`")?;
            (tool, Some(inner.trim()))
        }
        None => (text, None),
    };
    let inner = inner.filter(|i| !i.is_empty() && *i != "*");
    let make = |tool: &str, pattern: Option<String>| Ok(PermissionRule::new(effect, tool, pattern));
    match tool {
        "Bash" => make(COMMAND_RULE_TOOL, inner.map(command).transpose()?),
        "Read" | "Grep" | "Glob" | "LS" => {
            make(READ_RULE_TOOL, inner.map(|p| path(p, scope, project)).transpose()?)
        }
        "Edit" | "Write" | "MultiEdit" => {
            make(WRITE_RULE_TOOL, inner.map(|p| path(p, scope, project)).transpose()?)
        }
        "WebFetch" => match inner {
            None => make(NETWORK_RULE_TOOL, None),
            Some(spec) => match spec.strip_prefix("domain:") {
                Some(host) => make(NETWORK_RULE_TOOL, Some(host.trim().to_owned())),
                None => {
                    Err("only `domain:` WebFetch rules have a Warden equivalent (a host rule)".to_owned())
                }
            },
        },
        "WebSearch" if inner.is_none() => make("web_search", None),
        name if name.starts_with("mcp__") && inner.is_none() => {
            let parts: Vec<&str> = name.split("__").collect();
            match parts.as_slice() {
                ["mcp", server] | ["mcp", server, "*"] if !server.is_empty() => {
                    make(&format!("mcp__{server}__*"), None)
                }
                ["mcp", server, tool] if !server.is_empty() && !tool.is_empty() => make(name, None),
                _ => Err("not an MCP tool name Warden reads (mcp__server or mcp__server__tool)".to_owned()),
            }
        }
        _ => Err(format!("Warden has no tool that `{tool}` stands for, or no rule of this form for it")),
    }
}

/// `npm run test:*` (Claude's prefix form), `npm run test *` or `git status` as a command pattern.
fn command(inner: &str) -> Result<String, String> {
    let pattern = match inner.strip_suffix(":*") {
        Some(prefix) => format!("{} *", prefix.trim_end()),
        None => inner.to_owned(),
    };
    let body = pattern.strip_suffix(" *").unwrap_or(&pattern);
    if body.starts_with('@') {
        return Err(
            "Warden's classes of commands (@read-only) are not Claude Code's: add one in Settings".to_owned()
        );
    }
    if body.contains('*') {
        return Err("a `*` inside a command has no Warden equivalent (only a last `*`)".to_owned());
    }
    crate::shell::command_rule::CommandPattern::parse(&pattern)?;
    Ok(pattern)
}

/// A path pattern relative to the project: Claude's `path`, `./path` and (in a project's file)
/// `/path`, with a pattern without `/` matching at any depth as gitignore does; an absolute path
/// only when it lies inside the project.
fn path(inner: &str, scope: RuleScope, project: &Path) -> Result<String, String> {
    let relative = if let Some(absolute) = inner.strip_prefix("//") {
        let absolute = Path::new("/").join(absolute);
        let inside = absolute.strip_prefix(project).map_err(|_| {
            format!(
                "{} is outside the project: Warden's path rules speak of the project only",
                absolute.display()
            )
        })?;
        inside.to_string_lossy().into_owned()
    } else if inner.starts_with('~') {
        return Err(
            "a path in the home is outside the project: Warden's path rules speak of the project only"
                .to_owned(),
        );
    } else if let Some(rest) = inner.strip_prefix('/') {
        if scope != RuleScope::Project {
            return Err("`/path` is relative to the user's settings folder, not a project".to_owned());
        }
        rest.to_owned()
    } else {
        let rest = inner.strip_prefix("./").unwrap_or(inner);
        if rest.contains('/') {
            rest.to_owned()
        } else {
            format!("**/{rest}")
        }
    };
    let relative = if relative.is_empty() { "**".to_owned() } else { relative };
    super::super::PathPattern::parse(&relative)?;
    Ok(relative)
}

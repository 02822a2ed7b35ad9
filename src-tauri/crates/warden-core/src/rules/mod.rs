//! Permission rules as the policy applies them to tool calls: every scope's rules merged into one
//! [`RuleBook`], which judges a call ([`Subject`]) into what its deny, ask and allow rules say
//! ([`RuleVerdict`]). What the verdict is worth against the trust level, the box and the
//! blocklist is the policy's to say ([`crate::policy`]); network rules are the proxy's
//! ([`crate::containment::net`]).
//!
//! A rule that does not parse widens nothing: kept out of every allow, and — since whoever wrote
//! it meant to hold something back — a deny or ask rule that does not parse makes every call of
//! its kind ask.

pub mod import;
mod narrow;
mod path_pattern;
pub mod used;
mod wide;

use warden_protocol::{
    PermissionRule, RuleEffect, RuleScope, ScopedRule, COMMAND_RULE_TOOL, NETWORK_RULE_TOOL, READ_RULE_TOOL,
    WRITE_RULE_TOOL,
};

use crate::sandbox::{Access, Workspace};
use crate::shell::command_rule::{self, CommandPattern};
use crate::tool::Needs;
pub use narrow::{suggest, NEVER_REMEMBERED};
pub use path_pattern::PathPattern;
pub use wide::wide_allow;

/// Where a session's rules come from, and where "Always allow…" keeps one.
pub trait RuleSource: Send + Sync + std::fmt::Debug {
    /// The rules in force now (read again for each call: a rule deleted in Settings holds at once).
    fn book(&self) -> RuleBook;
    /// Keep `rule` in `scope`; an error says why it is not kept beyond this run, or at all.
    fn keep(&self, rule: PermissionRule, scope: RuleScope) -> Result<(), String>;
    /// Whether the organisation forbids "always" (then no rule is offered or kept from a card).
    fn always_forbidden(&self) -> bool {
        false
    }

    /// The rule shown as `shown` decided a call (Settings shows when each last did).
    fn used(&self, _shown: &str) {}
}

/// What a call shows the rules: its tool, the command it runs, the paths it reads or writes.
#[derive(Debug, Clone, Copy)]
pub struct Subject<'a> {
    pub tool: &'a str,
    pub command: Option<&'a str>,
    pub files: &'a Files,
}

/// The paths a call reads or writes, as Warden resolved them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Files {
    /// Whether the paths are written (else read).
    pub write: bool,
    /// Each path relative to the project (`/` between folders, `.` for the project itself), or
    /// `None` when it could not be resolved into the project (outside it, in Warden's storage,
    /// refused): no allow rule covers such a call.
    pub paths: Vec<Option<String>>,
}

/// What the rules say of one call: the first rule of each effect that applies, as people read it
/// (`deny bash: git push * (project)`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RuleVerdict {
    pub deny: Option<String>,
    pub ask: Option<String>,
    /// Every part of the call is covered by an allow rule.
    pub allow: Option<String>,
}

/// The paths `needs` declares, resolved as the tool will resolve them: relative to the project,
/// or `None` where they lead outside it (or anywhere the tool will refuse).
pub fn resolve_files(workspace: &Workspace, needs: &Needs) -> Files {
    let Some(access) = &needs.files else { return Files::default() };
    let mode = if access.write { Access::Write } else { Access::Read };
    let paths = match &access.paths {
        None => vec![None],
        Some(paths) => paths
            .iter()
            .map(|raw| {
                let resolved = workspace.resolve(raw, mode).ok().filter(|r| r.root == 0)?;
                let parts: Vec<String> = resolved
                    .relative
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                Some(if parts.is_empty() { ".".to_owned() } else { parts.join("/") })
            })
            .collect(),
    };
    Files { write: access.write, paths }
}

/// How a rule is applied.
#[derive(Debug, Clone)]
enum Matcher {
    /// A network rule: the proxy's, not a call's.
    Network,
    /// Commands (`None`: every command).
    Command(Option<CommandPattern>),
    /// Paths read or written (`None`: every path).
    Paths { write: bool, glob: Option<PathPattern> },
    /// A tool by name, or every tool whose name starts with `prefix` (`mcp__github__*`).
    Tool { name: String, prefix: bool },
    /// A deny or ask rule that does not parse: every call of its kind asks.
    Broken(Box<Matcher>),
}

#[derive(Debug, Clone)]
struct Entry {
    rule: PermissionRule,
    scope: RuleScope,
    matcher: Matcher,
    problem: Option<String>,
}

/// Every scope's rules, merged.
#[derive(Debug, Clone, Default)]
pub struct RuleBook {
    entries: Vec<Entry>,
    /// The organisation's policy lets only its own allow rules count.
    managed_allows_only: bool,
}

impl RuleBook {
    /// The rules of every scope (in any order: precedence is by effect, not by place).
    pub fn new(rules: impl IntoIterator<Item = (PermissionRule, RuleScope)>) -> Self {
        let entries = rules
            .into_iter()
            .map(|(rule, scope)| {
                let (matcher, problem) = match matcher(&rule) {
                    Ok(matcher) => (matcher, None),
                    Err(why) => (Matcher::Broken(Box::new(kind_of(&rule.tool))), Some(why)),
                };
                Entry { rule, scope, matcher, problem }
            })
            .collect();
        Self { entries, managed_allows_only: false }
    }

    /// Only the organisation's allow rules count (its policy says so).
    pub fn with_managed_allows_only(mut self, only: bool) -> Self {
        self.managed_allows_only = only;
        self
    }

    /// Every rule with its scope and, when it cannot be applied, why.
    pub fn list(&self) -> Vec<ScopedRule> {
        self.list_with(&std::collections::BTreeMap::new())
    }

    /// [`RuleBook::list`], with when each rule last decided a call (`used`: see [`used::RuleUse`]).
    pub fn list_with(&self, used: &std::collections::BTreeMap<String, String>) -> Vec<ScopedRule> {
        self.entries
            .iter()
            .map(|e| ScopedRule {
                rule: e.rule.clone(),
                scope: e.scope,
                last_used: used.get(&shown(e)).cloned(),
                problem: e.problem.clone(),
            })
            .collect()
    }

    /// What the rules say of `subject`.
    pub fn judge(&self, subject: Subject<'_>) -> RuleVerdict {
        let seen = subject.command.map(command_rule::seen_parts);
        let applies = |entry: &&Entry| match &entry.matcher {
            Matcher::Broken(kind) => kind_applies(kind, subject),
            matcher => names(matcher, subject, seen.as_ref()),
        };
        let deny = self
            .entries
            .iter()
            .filter(|e| e.rule.effect == RuleEffect::Deny && e.problem.is_none())
            .find(applies)
            .map(shown);
        // A deny rule that does not parse asks, as an ask rule does.
        let ask = self
            .entries
            .iter()
            .filter(|e| {
                e.rule.effect == RuleEffect::Ask || (e.rule.effect == RuleEffect::Deny && e.problem.is_some())
            })
            .find(applies)
            .map(shown)
            .or_else(|| self.hidden_from(seen.as_ref()));
        RuleVerdict { deny, ask, allow: self.allow(subject) }
    }

    /// A deny or ask rule on commands that cannot see what a command runs (a computed program):
    /// the call asks in its name.
    fn hidden_from(&self, seen: Option<&command_rule::Seen>) -> Option<String> {
        if !seen?.hidden {
            return None;
        }
        self.entries
            .iter()
            .filter(|e| e.rule.effect != RuleEffect::Allow)
            .find(|e| matches!(e.matcher, Matcher::Command(_)))
            .map(shown)
    }

    /// The allow rule covering `subject`, when every part of it is covered.
    fn allow(&self, subject: Subject<'_>) -> Option<String> {
        let allows: Vec<&Entry> = self
            .entries
            .iter()
            .filter(|e| e.rule.effect == RuleEffect::Allow && e.problem.is_none())
            .filter(|e| !self.managed_allows_only || e.scope == RuleScope::Managed)
            .collect();
        if let Some(command) = subject.command {
            let commands: Vec<(&Entry, CommandPattern)> = allows
                .iter()
                .filter_map(|e| match &e.matcher {
                    Matcher::Command(Some(pattern)) => Some((*e, pattern.clone())),
                    // "Every command": every part is matched by the pattern `program *`.
                    _ => None,
                })
                .collect();
            let parts = command_rule::allow_parts(command)?;
            if let Some(every) = allows.iter().find(|e| matches!(e.matcher, Matcher::Command(None))) {
                return Some(shown(every));
            }
            let covered = command_rule::covered_by(&parts, &commands, |(_, p)| p)?;
            return covered.first().map(|(e, _)| shown(e));
        }
        if !subject.files.paths.is_empty() {
            let write = subject.files.write;
            let mut first = None;
            for path in &subject.files.paths {
                let path = path.as_deref()?;
                let rule = allows.iter().find(|e| match &e.matcher {
                    Matcher::Paths { write: w, glob } => {
                        *w == write && glob.as_ref().is_none_or(|g| g.matches(path))
                    }
                    _ => false,
                });
                first = first.or(rule.copied());
                rule?;
            }
            return first.map(shown);
        }
        allows.iter().find(|e| tool_named(&e.matcher, subject.tool)).map(|e| shown(e))
    }
}

/// Whether a deny or ask rule names `subject` (any part of it).
fn names(matcher: &Matcher, subject: Subject<'_>, seen: Option<&command_rule::Seen>) -> bool {
    match matcher {
        Matcher::Network | Matcher::Broken(_) => false,
        Matcher::Command(pattern) => match (pattern, seen) {
            (_, None) => false,
            (None, Some(_)) => true,
            (Some(pattern), Some(seen)) => seen.named_by(pattern),
        },
        Matcher::Paths { write, glob } => {
            subject.command.is_none()
                && !subject.files.paths.is_empty()
                && subject.files.write == *write
                && match glob {
                    None => true,
                    // A path that could not be resolved is refused when the call runs.
                    Some(glob) => subject.files.paths.iter().flatten().any(|p| glob.matches(p)),
                }
        }
        Matcher::Tool { .. } => tool_named(matcher, subject.tool),
    }
}

fn tool_named(matcher: &Matcher, tool: &str) -> bool {
    match matcher {
        Matcher::Tool { name, prefix: false } => name == tool,
        Matcher::Tool { name, prefix: true } => tool.starts_with(name.as_str()),
        _ => false,
    }
}

/// Whether a broken rule of this kind applies to `subject` (every call of its kind).
fn kind_applies(kind: &Matcher, subject: Subject<'_>) -> bool {
    match kind {
        Matcher::Command(_) => subject.command.is_some(),
        Matcher::Paths { write, .. } => !subject.files.paths.is_empty() && subject.files.write == *write,
        Matcher::Tool { .. } => tool_named(kind, subject.tool),
        Matcher::Network | Matcher::Broken(_) => false,
    }
}

/// What a rule for `tool` applies to, whatever its pattern.
fn kind_of(tool: &str) -> Matcher {
    match tool {
        NETWORK_RULE_TOOL => Matcher::Network,
        COMMAND_RULE_TOOL => Matcher::Command(None),
        READ_RULE_TOOL => Matcher::Paths { write: false, glob: None },
        WRITE_RULE_TOOL => Matcher::Paths { write: true, glob: None },
        name => match name.strip_suffix('*') {
            Some(prefix) => Matcher::Tool { name: prefix.to_owned(), prefix: true },
            None => Matcher::Tool { name: name.to_owned(), prefix: false },
        },
    }
}

/// The rule as applied, or why it cannot be.
fn matcher(rule: &PermissionRule) -> Result<Matcher, String> {
    let tool = rule.tool.trim();
    if tool.is_empty() {
        return Err("a rule names a tool".to_owned());
    }
    let pattern = rule.pattern.as_deref().filter(|p| !p.trim().is_empty());
    match (kind_of(tool), pattern) {
        (Matcher::Network, Some(pattern)) => {
            crate::containment::net::HostRule::parse(pattern)?;
            Ok(Matcher::Network)
        }
        (Matcher::Command(_), Some(pattern)) => Ok(Matcher::Command(Some(CommandPattern::parse(pattern)?))),
        (Matcher::Paths { write, .. }, Some(pattern)) => {
            Ok(Matcher::Paths { write, glob: Some(PathPattern::parse(pattern)?) })
        }
        (Matcher::Tool { name, prefix }, pattern) => {
            if pattern.is_some() {
                return Err(format!(
                    "a pattern applies to {COMMAND_RULE_TOOL}, {READ_RULE_TOOL}, {WRITE_RULE_TOOL} and \
                     {NETWORK_RULE_TOOL} rules; a rule for {tool:?} names the tool alone"
                ));
            }
            let server = name.strip_prefix("mcp__").and_then(|rest| rest.strip_suffix("__"));
            if prefix && server.is_none_or(|server| server.is_empty() || server.contains("__")) {
                return Err(format!("{tool:?}: `*` ends a server's tools only (mcp__server__*)"));
            }
            if name.contains('*') {
                return Err(format!("{tool:?}: `*` ends a server's tools only (mcp__server__*)"));
            }
            Ok(Matcher::Tool { name, prefix })
        }
        (kind, None) => Ok(kind),
        (Matcher::Broken(_), _) => Err("unreachable".to_owned()),
    }
}

/// Why `rule` cannot be applied, if it cannot (what `warden rules add` and Settings refuse).
pub fn check(rule: &PermissionRule) -> Result<(), String> {
    matcher(rule).map(|_| ())
}

fn shown(entry: &Entry) -> String {
    format!("{} ({})", entry.rule, entry.scope.as_str())
}

#[cfg(test)]
mod never_loosened_tests;
#[cfg(test)]
mod tests;

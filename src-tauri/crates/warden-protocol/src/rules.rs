//! Permission rules: what the user decided once, kept. A rule's scope is where it is kept — the
//! user's rules in [`crate::Settings::permission_rules`], a project's in its
//! [`crate::ToolPermissions::permission_rules`] (in Warden's own settings, keyed by the project,
//! never in the repository), the organisation's in `/etc/warden/managed-settings.json`
//! ([`ManagedPolicy`]). What a rule's `pattern` means depends on its `tool`:
//!
//! - `network`: a host glob with an optional port (`crates.io`, `*.npmjs.org`, `127.0.0.1:5432`);
//! - `bash`: a command by words, a last word `*` standing for any further words (`cargo test *`,
//!   `git status`);
//! - `read` and `write`: a path glob relative to the project (`src/**`, `docs/*.md`), matched on
//!   the path Warden resolved, never on the text the model sent;
//! - any other tool by its name (`web_search`, `mcp__github__create_issue`, `mcp__github__*`),
//!   without a pattern.
//!
//! Rules of every scope are merged: a matching deny wins, then a matching ask, then an allow.

use std::fmt;

use serde::{Deserialize, Serialize};
use specta::Type;

/// The tool name of network rules.
pub const NETWORK_RULE_TOOL: &str = "network";
/// The tool name of command rules (any tool that runs a command line).
pub const COMMAND_RULE_TOOL: &str = "bash";
/// The tool name of rules on the paths file tools read.
pub const READ_RULE_TOOL: &str = "read";
/// The tool name of rules on the paths file tools write.
pub const WRITE_RULE_TOOL: &str = "write";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct PermissionRule {
    pub effect: RuleEffect,
    /// The tool it applies to (`network` for the box's proxy).
    pub tool: String,
    /// What of the tool's requests it covers; none = all of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    /// How it came to be; left out for a rule the user typed (or one saved before origins were kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<RuleOrigin>,
}

impl PermissionRule {
    /// A rule the user typed.
    pub fn new(effect: RuleEffect, tool: impl Into<String>, pattern: Option<String>) -> Self {
        Self { effect, tool: tool.into(), pattern, origin: None }
    }

    /// The same rule with `origin`.
    pub fn with_origin(mut self, origin: RuleOrigin) -> Self {
        self.origin = Some(origin);
        self
    }

    /// Whether `other` says the same (its origin aside).
    pub fn same_as(&self, other: &Self) -> bool {
        self.effect == other.effect && self.tool == other.tool && self.pattern == other.pattern
    }
}

/// A rule as people read it: `allow bash: cargo test *`.
impl fmt::Display for PermissionRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.effect.as_str(), self.tool)?;
        match &self.pattern {
            Some(pattern) => write!(f, ": {pattern}"),
            None => Ok(()),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Type)]
#[serde(rename_all = "snake_case")]
pub enum RuleEffect {
    Allow,
    /// Always ask, whatever allows it (a deny still wins).
    Ask,
    Deny,
}

impl RuleEffect {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Allow => "allow",
            Self::Ask => "ask",
            Self::Deny => "deny",
        }
    }
}

/// How a rule came to be (Settings → Permissions shows it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum RuleOrigin {
    /// Saved from an approval ("Always allow…").
    Card,
    /// Typed in Settings or with `warden rules add`.
    Typed,
    /// Imported from another agent's settings: the file it came from.
    Imported { from: String },
}

/// Where a rule is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize, Type)]
#[serde(rename_all = "snake_case")]
pub enum RuleScope {
    /// This project (Warden's settings, keyed by the project; never the repository).
    #[default]
    Project,
    /// Every project of this user.
    User,
    /// The organisation's (`/etc/warden/managed-settings.json`): read-only here.
    Managed,
}

impl RuleScope {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Project => "project",
            Self::User => "user",
            Self::Managed => "managed",
        }
    }
}

/// A rule with where it is kept, and the last time it decided a call (RFC 3339; none since it was
/// made on this machine).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ScopedRule {
    pub rule: PermissionRule,
    pub scope: RuleScope,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_used: Option<String>,
    /// Why this version cannot apply it (a pattern that does not parse); such a rule widens nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
}

/// The rule "Always allow…" offers for a call that asked: narrowed from the call, for the user to
/// edit before it is saved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct SuggestedRule {
    pub tool: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    /// Only the exact command is offered: its program is one whose danger lies in its arguments
    /// (`rm`, `mv`, `curl`, …), so a broader rule would cover whatever it is next asked to do.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exact_only: bool,
    /// A narrower pattern the user may keep instead: the command's own program and subcommand
    /// (`git status *`) when the rule offered is the class it belongs to (`@read-only`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub narrower: Option<String>,
}

/// The rule an "always" answer saves: the suggestion as offered, or as the user edited it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct AlwaysRule {
    pub tool: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    /// Where it is kept: this project (the default) or every project.
    #[serde(default)]
    pub scope: RuleScope,
}

/// Which step of the policy made a call ask (every confirmation says it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "snake_case")]
pub enum AskStep {
    /// No rule covers the call, and the trust level asks about this tool.
    NoRule,
    /// A rule says to ask.
    AskRule,
    /// The call asks for more than the box gives (the network, the outside, a hardened git).
    OutsideBox,
    /// Warden cannot tell what the command does, and no box contains it.
    Unjudgeable,
    /// Commands are not contained here (or the box leaves sockets reachable), so each one asks.
    NotContained,
    /// An allow rule covers the command, but commands do not run in the bubblewrap box here.
    RuleNeedsBox,
    /// Supervised: every call that changes something asks.
    Supervised,
    /// The user chose to be asked before every call of this tool.
    ToolAlwaysAsks,
    /// No checkpoint could be taken before a change.
    NoCheckpoint,
}

impl AskStep {
    /// The step in a few words, as every face says it.
    pub fn words(self) -> &'static str {
        match self {
            Self::NoRule => "no rule allows it, and this trust level asks",
            Self::AskRule => "a permission rule says to ask",
            Self::OutsideBox => "it asks for more than the sandbox gives",
            Self::Unjudgeable => "Warden cannot tell what this command does, and no sandbox contains it",
            Self::NotContained => "commands are not contained here, so each one asks",
            Self::RuleNeedsBox => "a rule allows it, but only where commands run in the bubblewrap sandbox",
            Self::Supervised => "Supervised asks before every call that changes something",
            Self::ToolAlwaysAsks => "you chose to be asked before every call of this tool",
            Self::NoCheckpoint => "no checkpoint could be taken before this change",
        }
    }
}

/// Whether a box's programs reach the network: `off` (no network at all; a `bash` call may still
/// ask for it, and the user is asked) or `rules` (the default: out through Warden's proxy only,
/// to the hosts the rules allow, every other host asked about). Read also from the boolean that
/// stood here before: `true` is `rules`, `false` is `off`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Type)]
#[serde(rename_all = "snake_case")]
pub enum NetworkMode {
    Off,
    #[default]
    Rules,
}

impl NetworkMode {
    /// Whether the box has the network (through the proxy).
    pub fn is_on(self) -> bool {
        self == Self::Rules
    }

    /// The name it is written with.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Off => "off",
            Self::Rules => "rules",
        }
    }

    /// `rules` when `on`, else `off`.
    pub fn from_on(on: bool) -> Self {
        if on {
            Self::Rules
        } else {
            Self::Off
        }
    }
}

impl<'de> Deserialize<'de> for NetworkMode {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Stored {
            Named(Named),
            Legacy(bool),
        }
        #[derive(Deserialize)]
        #[serde(rename_all = "snake_case")]
        enum Named {
            Off,
            Rules,
        }
        match Stored::deserialize(deserializer) {
            Ok(Stored::Named(Named::Off)) => Ok(Self::Off),
            Ok(Stored::Named(Named::Rules)) => Ok(Self::Rules),
            Ok(Stored::Legacy(on)) => Ok(Self::from_on(on)),
            Err(_) => Err(serde::de::Error::custom(r#"expected "off" or "rules" (or true / false)"#)),
        }
    }
}

/// What the policy would do with one call (`warden rules check`, Settings → Permissions' try-out
/// box), and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct RuleCheck {
    pub decision: RuleEffect,
    /// When it asks: the step that made it ask.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asked_because: Option<AskStep>,
    /// The rule that decided it (or that a step names), as people read it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// In words.
    pub reason: String,
    /// What "Always allow…" would offer, when it asks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suggested_rule: Option<SuggestedRule>,
}

/// Another agent's rules, converted for Warden and shown before any is added
/// (`warden rules import`, Settings → Permissions → Import).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct RuleImport {
    /// The files read (those that exist).
    pub files: Vec<String>,
    pub candidates: Vec<ImportCandidate>,
    /// What could not be converted, and why: listed, never guessed.
    pub skipped: Vec<ImportSkipped>,
}

/// One converted rule, offered for adding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ImportCandidate {
    /// The rule, its origin naming the file it came from.
    pub rule: PermissionRule,
    /// Where it would be kept: the user's rules for a file of the home, the project's for one of
    /// the project.
    pub scope: RuleScope,
    /// The entry as the file wrote it.
    pub entry: String,
    /// Why adding it deserves a second look (an allow wider than one program prefix).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
    /// Offered ticked: false for an allow with a warning.
    pub ticked: bool,
}

/// An entry that could not be converted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ImportSkipped {
    pub from: String,
    pub entry: String,
    pub why: String,
}

/// The organisation's policy as Warden read it, for Settings → Sandbox.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ManagedPolicy {
    /// Where it is read from.
    pub file: String,
    /// Its rules that this version applies (none when there is no file).
    pub rules: Vec<PermissionRule>,
    /// Why the file cannot be used, when it cannot: then no host is reachable until it is fixed.
    pub problem: Option<String>,
    /// What in it this version does not apply (a key it does not know).
    pub warnings: Vec<String>,
    /// Only its own allow rules count (`allowManagedRulesOnly`).
    #[serde(default)]
    pub managed_rules_only: bool,
    /// "Always allow…" is off (`disableAlways`).
    #[serde(default)]
    pub no_always: bool,
    /// Autonomous is off (`disableAutonomous`).
    #[serde(default)]
    pub no_autonomous: bool,
    /// The only MCP servers sessions may start (`allowedMcpServers`), when pinned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowed_mcp_servers: Option<Vec<String>>,
    /// The only hosts boxes may reach (`allowedDomains`), when pinned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowed_domains: Option<Vec<String>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_network_mode_reads_its_names_and_the_boolean_it_replaced() {
        let read = |json: &str| serde_json::from_str::<NetworkMode>(json).map_err(|e| e.to_string());
        assert_eq!(read(r#""rules""#), Ok(NetworkMode::Rules));
        assert_eq!(read(r#""off""#), Ok(NetworkMode::Off));
        assert_eq!(read("true"), Ok(NetworkMode::Rules));
        assert_eq!(read("false"), Ok(NetworkMode::Off));
        for bad in [r#""on""#, "1", "null", r#""Rules""#] {
            let err = read(bad).unwrap_err();
            assert!(err.contains(r#"expected "off" or "rules""#), "{bad}: {err}");
        }
        assert_eq!(serde_json::to_string(&NetworkMode::Rules).unwrap(), r#""rules""#);
        assert_eq!(serde_json::to_string(&NetworkMode::Off).unwrap(), r#""off""#);
    }
}

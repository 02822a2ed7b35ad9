//! Permission rules: what the user decided once, kept. A rule's scope is where it is kept — the
//! user's rules in [`crate::Settings::permission_rules`], a project's in its
//! [`crate::ToolPermissions::permission_rules`] (in Warden's own settings, keyed by the project,
//! never in the repository), the organisation's in `/etc/warden/managed-settings.json`
//! ([`ManagedPolicy`]). The first kind is the network's: `tool: "network"`, `pattern` a host
//! glob with an optional port (`crates.io`, `*.npmjs.org`, `127.0.0.1:5432`). A deny rule wins
//! over any allow rule.

use serde::{Deserialize, Serialize};
use specta::Type;

/// The tool name of network rules.
pub const NETWORK_RULE_TOOL: &str = "network";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct PermissionRule {
    pub effect: RuleEffect,
    /// The tool it applies to (`network` for the box's proxy).
    pub tool: String,
    /// What of the tool's requests it covers; none = all of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "snake_case")]
pub enum RuleEffect {
    Allow,
    Deny,
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
    /// What in it this version does not apply (a key it does not know, a rule for another tool).
    pub warnings: Vec<String>,
}

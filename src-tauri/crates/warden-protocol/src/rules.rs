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

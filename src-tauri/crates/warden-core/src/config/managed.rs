//! The organisation's policy: `/etc/warden/managed-settings.json`, written by an administrator,
//! read by every Warden on the machine and changed by none. Its rules are the third scope of
//! permission rules (after the user's and the project's) and are applied with them — a deny rule
//! wins over any allow rule, so a managed deny cannot be undone by a user's or a project's allow:
//!
//! ```json
//! { "permissionRules": [
//!     { "effect": "deny",  "tool": "network", "pattern": "*.pastebin.com" },
//!     { "effect": "allow", "tool": "network", "pattern": "registry.corp.example:443" },
//!     { "effect": "deny",  "tool": "bash", "pattern": "git push *" } ],
//!   "allowManagedRulesOnly": true,
//!   "disableAlways": true,
//!   "disableAutonomous": true }
//! ```
//!
//! `allowManagedRulesOnly` makes the user's and the projects' allow rules count for nothing (their
//! ask and deny rules still hold); `disableAlways` takes "Always allow…" off every approval;
//! `disableAutonomous` makes a session asked for in Autonomous run in Guided; `allowedMcpServers`
//! (names) are the only MCP servers any session starts; `allowedDomains` (host patterns) the only
//! hosts any box reaches, whatever a rule or an answer allows.
//!
//! A policy is only worth something if a broken one does not quietly become no policy: a file
//! that exists but cannot be used — unreadable, not JSON, a rule that does not parse, larger than
//! [`MAX_BYTES`], or writable by someone other than root (anyone who can write it could change
//! everyone's policy) — makes the network closed to every host ([`Managed::rules`]) and Settings
//! says why. A key or a rule's tool this version does not apply is kept out and named in
//! [`Managed::warnings`], never taken as allowed. No file at all is no policy.

use std::path::{Path, PathBuf};

use warden_protocol::{ManagedPolicy, PermissionRule, RuleEffect, NETWORK_RULE_TOOL};

/// Where the organisation's policy lives.
pub const MANAGED_SETTINGS: &str = "/etc/warden/managed-settings.json";

/// A larger file is not a policy anyone wrote by hand.
pub const MAX_BYTES: u64 = 1024 * 1024;

/// The policy as read, with what could not be used.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Managed {
    file: PathBuf,
    rules: Vec<PermissionRule>,
    switches: Switches,
    problem: Option<String>,
    warnings: Vec<String>,
}

/// The policy's switches beyond its rules.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Switches {
    managed_rules_only: bool,
    no_always: bool,
    no_autonomous: bool,
    /// The only MCP servers (by name) any session may start.
    mcp_servers: Option<Vec<String>>,
    /// The only hosts any box may reach (host patterns), whatever allows others.
    domains: Option<Vec<String>>,
}

impl Managed {
    /// The policy in `file` (none when there is no such file), which root alone may change.
    pub fn load(file: &Path) -> Self {
        Self::load_owned_by(file, ROOT)
    }

    /// The policy in `file`, which the user `owner` alone may change (tests run as any user).
    pub(crate) fn load_owned_by(file: &Path, owner: u32) -> Self {
        let mut managed = Self { file: file.to_path_buf(), ..Self::default() };
        match read(file, owner) {
            Ok(None) => {}
            Ok(Some(text)) => match parse(&text) {
                Ok((rules, switches, warnings)) => {
                    (managed.rules, managed.switches, managed.warnings) = (rules, switches, warnings);
                }
                Err(why) => managed.problem = Some(why),
            },
            Err(why) => managed.problem = Some(why),
        }
        if let Some(problem) = &managed.problem {
            tracing::warn!(file = %file.display(), problem, "the organisation's policy cannot be used: no host is reachable");
        }
        managed
    }

    /// The rules to apply with the user's and the project's: the file's, or, when it cannot be
    /// used, one rule denying every host.
    pub fn rules(&self) -> Vec<PermissionRule> {
        match self.problem {
            None => self.rules.clone(),
            Some(_) => vec![PermissionRule::new(RuleEffect::Deny, NETWORK_RULE_TOOL, None)],
        }
    }

    /// Whether only the organisation's allow rules count — also when its file cannot be used:
    /// then no allow rule of any scope does.
    pub fn allows_only_its_own(&self) -> bool {
        self.switches.managed_rules_only || self.problem.is_some()
    }

    /// Whether "Always allow…" is off (also when the file cannot be used).
    pub fn forbids_always(&self) -> bool {
        self.switches.no_always || self.problem.is_some()
    }

    /// Whether sessions may not run in Autonomous (also when the file cannot be used).
    pub fn forbids_autonomous(&self) -> bool {
        self.switches.no_autonomous || self.problem.is_some()
    }

    /// The only MCP servers (by name) sessions may start, when the policy pins them (none at all
    /// when the file cannot be used).
    pub fn allowed_mcp_servers(&self) -> Option<Vec<String>> {
        if self.problem.is_some() {
            return Some(Vec::new());
        }
        self.switches.mcp_servers.clone()
    }

    /// The only hosts boxes may reach, when the policy pins them.
    pub fn allowed_domains(&self) -> Option<Vec<String>> {
        self.switches.domains.clone()
    }

    /// What Settings shows of it.
    pub fn status(&self) -> ManagedPolicy {
        ManagedPolicy {
            file: self.file.display().to_string(),
            rules: self.rules.clone(),
            problem: self.problem.clone(),
            warnings: self.warnings.clone(),
            managed_rules_only: self.switches.managed_rules_only,
            no_always: self.switches.no_always,
            no_autonomous: self.switches.no_autonomous,
            allowed_mcp_servers: self.switches.mcp_servers.clone(),
            allowed_domains: self.switches.domains.clone(),
        }
    }
}

/// The user id of root.
const ROOT: u32 = 0;

/// The file's text; `None` when there is no file. Refused when it is not a file `owner` alone can
/// change (on Unix), or too large.
fn read(file: &Path, owner: u32) -> Result<Option<String>, String> {
    let meta = match std::fs::metadata(file) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", file.display())),
    };
    if !meta.is_file() {
        return Err(format!("{} is not a file", file.display()));
    }
    if meta.len() > MAX_BYTES {
        return Err(format!("{} is larger than {} KiB", file.display(), MAX_BYTES / 1024));
    }
    only_owner_can_change(file, &meta, owner)?;
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    Ok(Some(text))
}

/// The file and its folder belong to `owner` (root) and nobody else may write them.
#[cfg(unix)]
fn only_owner_can_change(file: &Path, meta: &std::fs::Metadata, owner: u32) -> Result<(), String> {
    use std::os::unix::fs::MetadataExt;
    let folder = file.parent().map(std::fs::metadata).transpose().map_err(|e| e.to_string())?;
    for (what, path, meta) in
        [("", file, Some(meta)), (" folder", file.parent().unwrap_or(file), folder.as_ref())]
    {
        let Some(meta) = meta else { continue };
        if meta.uid() != owner {
            let expected = if owner == ROOT { "root".to_owned() } else { format!("user {owner}") };
            return Err(format!(
                "{}{what} belongs to user {}, not {expected}: whoever can change it could change the policy",
                path.display(),
                meta.uid()
            ));
        }
        if meta.mode() & 0o022 != 0 {
            return Err(format!(
                "{}{what} may be written by others than its owner (mode {:o})",
                path.display(),
                meta.mode() & 0o7777
            ));
        }
    }
    Ok(())
}

#[cfg(not(unix))]
fn only_owner_can_change(_: &Path, _: &std::fs::Metadata, _: u32) -> Result<(), String> {
    Ok(())
}

/// The rules and switches this version applies, and warnings about what it leaves out; an error
/// for anything that makes the file unusable.
fn parse(text: &str) -> Result<(Vec<PermissionRule>, Switches, Vec<String>), String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let serde_json::Value::Object(object) = value else {
        return Err("not a JSON object".to_owned());
    };
    let mut warnings = Vec::new();
    let mut rules = Vec::new();
    let mut switches = Switches::default();
    let switch = |key: &str, value: serde_json::Value| match value {
        serde_json::Value::Bool(on) => Ok(on),
        other => Err(format!("{key}: expected true or false, found {other}")),
    };
    for (key, value) in object {
        match key.as_str() {
            "permissionRules" => {
                let listed: Vec<PermissionRule> =
                    serde_json::from_value(value).map_err(|e| format!("permissionRules: {e}"))?;
                for (n, rule) in listed.into_iter().enumerate() {
                    crate::rules::check(&rule).map_err(|why| format!("permissionRules[{n}]: {why}"))?;
                    rules.push(rule);
                }
            }
            "allowManagedRulesOnly" => switches.managed_rules_only = switch(&key, value)?,
            "disableAlways" => switches.no_always = switch(&key, value)?,
            "disableAutonomous" => switches.no_autonomous = switch(&key, value)?,
            "allowedMcpServers" => {
                let names: Vec<String> =
                    serde_json::from_value(value).map_err(|e| format!("allowedMcpServers: {e}"))?;
                switches.mcp_servers = Some(names);
            }
            "allowedDomains" => {
                let hosts: Vec<String> =
                    serde_json::from_value(value).map_err(|e| format!("allowedDomains: {e}"))?;
                for (n, host) in hosts.iter().enumerate() {
                    crate::containment::net::HostRule::parse(host)
                        .map_err(|why| format!("allowedDomains[{n}]: {why}"))?;
                }
                switches.domains = Some(hosts);
            }
            other => warnings.push(format!("{other:?} is not a setting this version of Warden knows")),
        }
    }
    Ok((rules, switches, warnings))
}

#[cfg(test)]
#[path = "managed_tests.rs"]
mod tests;

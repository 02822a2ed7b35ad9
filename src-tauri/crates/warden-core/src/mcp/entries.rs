//! A configured entry, by whose it is, as the server to start: the user's as written, a project's
//! as trimmed to what a project may say ([`super::project::trim`]).

use std::collections::BTreeMap;

use warden_protocol::McpServerConfig;

use super::server::{ConfigError, Entry, Origin, ServerSpec};

impl ServerSpec {
    /// The server a project's `.mcp.json` configures as `name`: what a project may say of
    /// `config` (trimmed here, whatever the caller passed), as a project's server.
    pub fn from_project(name: &str, config: &McpServerConfig) -> Result<Self, ConfigError> {
        let used = super::project::trim(config).used;
        Ok(Self { origin: Origin::Project, ..Self::from_config(name, &used)? })
    }

    /// The server `entry` configures as `name`, by whose entry it is.
    pub fn from_entry(name: &str, entry: &Entry) -> Result<Self, ConfigError> {
        match entry.origin {
            Origin::User => Self::from_config(name, &entry.config),
            Origin::Project => Self::from_project(name, &entry.config),
        }
    }
}

/// The servers to start of the user's own entries: every enabled, valid one. Invalid ones come
/// back as errors by name, so the caller can show them as failed.
pub fn specs(servers: &BTreeMap<String, McpServerConfig>) -> (Vec<ServerSpec>, Vec<(String, ConfigError)>) {
    let entries: BTreeMap<String, Entry> = servers
        .iter()
        .map(|(name, config)| (name.clone(), Entry { config: config.clone(), origin: Origin::User }))
        .collect();
    entry_specs(&entries)
}

/// [`specs`] for entries of either origin.
pub fn entry_specs(entries: &BTreeMap<String, Entry>) -> (Vec<ServerSpec>, Vec<(String, ConfigError)>) {
    let mut ok = Vec::new();
    let mut bad = Vec::new();
    for (name, entry) in entries.iter().filter(|(_, e)| !e.config.disabled) {
        match ServerSpec::from_entry(name, entry) {
            Ok(spec) => ok.push(spec),
            Err(error) => bad.push((name.clone(), error)),
        }
    }
    (ok, bad)
}

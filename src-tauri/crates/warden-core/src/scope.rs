//! What a project lets the agent touch: the tools in scope, where it may write, per-tool timeouts.
//! Lives in Warden's own config, outside the sandbox, so the agent can never widen it.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use warden_protocol::ToolDefinition;

/// The tools that are in scope when a project has no scope of its own: nothing that writes or runs.
pub const READ_ONLY_TOOLS: &[&str] =
    &["file_read", "list_dir", "file_info", "search_files", "search_in_files", "system_info", "web_search"];

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AllowedTools {
    /// Every registered tool.
    All,
    /// Exactly these tools.
    Only(BTreeSet<String>),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scope {
    pub tools: AllowedTools,
    /// Globs (relative to the project root) that write tools may touch; empty = anywhere in the roots.
    #[serde(default)]
    pub write_globs: Vec<String>,
    /// Per-tool timeout overrides, in seconds.
    #[serde(default)]
    pub timeouts_secs: BTreeMap<String, u64>,
    /// Tools that ask before every call whatever the trust level (MCP tools the user set to
    /// "ask"); a session grant the user gives in the dialog still covers them.
    #[serde(default)]
    pub always_ask: BTreeSet<String>,
}

impl Default for Scope {
    fn default() -> Self {
        Self::read_only()
    }
}

impl Scope {
    pub fn read_only() -> Self {
        Self::only(READ_ONLY_TOOLS.iter().copied())
    }

    pub fn all() -> Self {
        Self {
            tools: AllowedTools::All,
            write_globs: Vec::new(),
            timeouts_secs: BTreeMap::new(),
            always_ask: BTreeSet::new(),
        }
    }

    pub fn only<S: Into<String>>(names: impl IntoIterator<Item = S>) -> Self {
        Self {
            tools: AllowedTools::Only(names.into_iter().map(Into::into).collect()),
            write_globs: Vec::new(),
            timeouts_secs: BTreeMap::new(),
            always_ask: BTreeSet::new(),
        }
    }

    /// Whether every call of `tool` asks first.
    pub fn always_asks(&self, tool: &str) -> bool {
        self.always_ask.contains(tool)
    }

    /// Let `tool` in too (an MCP tool the user configured and did not deny).
    pub fn allow(&mut self, tool: &str) {
        if let AllowedTools::Only(set) = &mut self.tools {
            set.insert(tool.to_owned());
        }
    }

    /// Whether `tool` is in scope: a tool that changes nothing but the conversation is in every
    /// scope, whatever the project's list names.
    pub fn allows_tool(&self, tool: &ToolDefinition) -> bool {
        tool.conversation_only || self.allows(&tool.name)
    }

    pub fn allows(&self, tool: &str) -> bool {
        match &self.tools {
            AllowedTools::All => true,
            AllowedTools::Only(set) => set.contains(tool),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_scope_is_read_only() {
        let scope = Scope::default();
        assert!(scope.allows("file_read"));
        assert!(scope.allows("web_search"));
        assert!(!scope.allows("bash"));
        assert!(!scope.allows("file_write"));
    }

    #[test]
    fn only_means_exactly_the_listed_tools() {
        let scope = Scope::only(["bash"]);
        assert!(scope.allows("bash"));
        assert!(!scope.allows("file_read"));
        assert!(Scope::all().allows("anything"));
    }
}

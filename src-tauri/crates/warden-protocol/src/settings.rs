//! The user's settings as the settings panel edits them. Never holds a secret: keys live in the
//! OS keychain and the UI only learns whether one is set ([`KeyStatus`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use specta::Type;

use crate::{McpServerConfig, ProjectMcpChoice, TrustLevel};

/// Which wire protocol and endpoint a conversation talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize, Type)]
#[serde(rename_all = "snake_case")]
pub enum ProviderId {
    #[default]
    Anthropic,
    Openai,
    /// Any OpenAI-compatible server (vLLM, LM Studio, llama.cpp, OpenRouter, Groq…) by base URL.
    OpenaiCompatible,
    Ollama,
}

impl ProviderId {
    pub const ALL: [ProviderId; 4] = [Self::Anthropic, Self::Openai, Self::OpenaiCompatible, Self::Ollama];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Anthropic => "anthropic",
            Self::Openai => "openai",
            Self::OpenaiCompatible => "openai_compatible",
            Self::Ollama => "ollama",
        }
    }
}

/// Per-provider endpoint and model choice.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase", default)]
pub struct ProviderSettings {
    /// Empty = the provider's default endpoint.
    pub base_url: Option<String>,
    pub model: Option<String>,
    /// `false` for models without native tool calling: tools are offered through the text protocol.
    pub native_tools: Option<bool>,
    /// The model's context window in tokens, when the user overrides what Warden knows.
    pub context_window: Option<u32>,
}

/// What the agent may do inside one project. Kept in Warden's config, outside the project, so the
/// agent can never edit its own permissions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase", default)]
pub struct ToolPermissions {
    /// Tools in scope; `None` = the read-only set.
    pub allowed_tools: Option<Vec<String>>,
    /// Globs relative to the project root that write tools may touch; empty = anywhere inside.
    pub write_globs: Vec<String>,
    /// Default timeout of a `bash` call, seconds.
    pub bash_timeout_secs: u32,
    /// Whether commands reach the network: `rules` (the default) through Warden's proxy, every
    /// host no rule names asked about while the command waits, and the `bash` input's `network`
    /// field ignored; `off`, none at all, and a command may ask for it (`"network": true`), which
    /// the user is asked about. A project's entry written before this setting had a name keeps
    /// what it had: `false` is `off`.
    pub network: crate::NetworkMode,
    /// Folders outside the project that commands may also write (absolute paths), e.g. a build
    /// output folder elsewhere. Secret locations stay hidden even inside them.
    pub extra_writable: Vec<String>,
    /// Files or folders the box may also read (absolute paths): the box shows only toolchains of
    /// the user's home, and a build may need more (a private registry's credential file, shared
    /// data). Never Warden's own folders nor a folder holding the home; a known credential
    /// location is shown only because the user listed it here (Settings warns).
    pub extra_readable: Vec<String>,
    /// Whether the project is checkpointed before every change (on by default).
    pub checkpoints: bool,
    /// The project's own permission rules (network hosts so far).
    pub permission_rules: Vec<crate::PermissionRule>,
    /// Whether commands reach the common toolchains' package registries and source hosts
    /// (crates.io, npm, PyPI, Go modules, RubyGems, Maven Central, GitHub, GitLab) without being
    /// asked, at their public addresses only (`SandboxStatus.registryHosts` lists them).
    pub allow_registries: bool,
    /// The user's hooks for this project only, in Warden's settings (docs/HOOKS.md): they run as
    /// the user's own, after the hooks of every project.
    pub hooks: crate::HooksConfig,
}

impl Default for ToolPermissions {
    fn default() -> Self {
        Self {
            allowed_tools: None,
            write_globs: Vec::new(),
            bash_timeout_secs: 60,
            network: crate::NetworkMode::Rules,
            extra_writable: Vec::new(),
            extra_readable: Vec::new(),
            checkpoints: true,
            permission_rules: Vec::new(),
            allow_registries: false,
            hooks: BTreeMap::new(),
        }
    }
}

/// What of the user's home a project's commands no longer see since the box shows only the
/// toolchains: said once for each project Warden worked in before.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct BoxHomeNotice {
    /// The entries of the home left out (absolute paths), at most 30.
    pub paths: Vec<String>,
    /// How many more there are.
    pub more: u32,
}

/// How this machine contains the commands Warden runs for the model, for Settings → Sandbox.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct SandboxStatus {
    /// Whether commands run inside an OS sandbox at all.
    pub contained: bool,
    /// The mechanism in use ("bubblewrap + seccomp"), or why there is none.
    pub mechanism: String,
    /// The folders commands may write besides the project and a private `/tmp`: the project's
    /// extra writable folders.
    pub writable: Vec<String>,
    /// The user's package caches that exist (`~/.cargo/registry`, `~/.npm`, …): read-only in the
    /// box; what commands write there lands in the project's private layer (bubblewrap's box) or
    /// is refused (the Landlock fallback, `layered: false`).
    pub caches: Vec<String>,
    /// Whether writes to the caches go to the project's private layer on this machine.
    pub layered: bool,
    /// Why they do not, when the box is contained but cannot mount the layer here (an old kernel,
    /// a setuid bubblewrap, the Landlock fallback).
    pub layer_unavailable: Option<String>,
    /// The bytes the project's cache layer holds (0 when it has none).
    pub cache_layer_bytes: u64,
    /// The secret locations commands cannot see.
    pub hidden: Vec<String>,
    /// What commands may read of the user's home (the toolchains that exist here) and the paths
    /// the project added; the rest of the home is absent.
    pub readable: Vec<String>,
    /// The hosts a project that allows the package registries reaches without asking
    /// (`ToolPermissions.allowRegistries`), each `host:port`.
    pub registry_hosts: Vec<String>,
    /// The known credential locations of the user's home (whether they exist or not): a path the
    /// project lets commands read at or under one of these gets a warning.
    pub credential_locations: Vec<String>,
    /// The organisation's policy (`/etc/warden/managed-settings.json`), applied with the user's
    /// and the project's rules and changed by neither.
    pub managed: crate::ManagedPolicy,
}

/// When a conversation is compacted unless the user says otherwise: at 85 % of the context window.
pub const DEFAULT_COMPACT_AT_PERCENT: u8 = 85;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase", default)]
pub struct Settings {
    pub trust_level: TrustLevel,
    /// The provider new conversations use.
    pub active_provider: ProviderId,
    pub providers: BTreeMap<ProviderId, ProviderSettings>,
    /// The project folder the agent works in.
    pub project_dir: Option<String>,
    /// Per project folder (absolute path) → its permissions.
    pub tool_permissions: BTreeMap<String, ToolPermissions>,
    /// How long an approval dialog waits before the call counts as rejected; 0 = no time limit.
    pub approval_timeout_secs: u32,
    pub searxng_url: String,
    /// Light, dark, or as the system is.
    pub theme: Theme,
    /// MCP servers by name (`mcpServers`, the format Claude Desktop, Cursor and codex use).
    pub mcp_servers: BTreeMap<String, McpServerConfig>,
    /// Per project folder (absolute path): what the user decided about its own `.mcp.json`.
    pub project_mcp: BTreeMap<String, ProjectMcpChoice>,
    /// The user's own instructions for every conversation, added to the model's system prompt
    /// before the project's `AGENTS.md` (the first 16 KiB). Empty = none.
    pub global_instructions: String,
    /// How full the context window may get (percent) before the older part of the conversation
    /// is summarized for the model (compaction). 50 to 95.
    pub compact_at_percent: u8,
    /// Whether and where the installed app looks for a newer version of itself.
    pub updates: UpdateSettings,
    /// What Warden found out about models of servers that do not say (local servers above all):
    /// how tools reach them and how large their context is. One entry per (base URL, model);
    /// Settings → Providers shows them and the user can change or remove each.
    pub learned_models: Vec<LearnedModel>,
    /// The user's permission rules, for every project (network hosts so far).
    pub permission_rules: Vec<crate::PermissionRule>,
    /// Skills the user switched off, by name (Settings → Skills): not offered to the model nor
    /// invoked as `/name`. A file from before this setting has none.
    #[serde(default)]
    pub skills_off: Vec<String>,
    /// The user's hooks, for every project, in Claude Code's shape (docs/HOOKS.md).
    #[serde(default)]
    pub hooks: crate::HooksConfig,
    /// Per project folder (absolute path): the project's own hooks (`.claude/settings.json`) the
    /// user approved, by digest.
    #[serde(default)]
    pub project_hooks: BTreeMap<String, crate::ProjectHooksChoice>,
    /// The user's model prices, by model id prefix (`gpt-5`, `claude-sonnet-4-5`): over the
    /// window's default table, entry by entry, for the cost beside each answer (docs/COST.md).
    /// Empty = the defaults alone. A file from before this setting has none.
    #[serde(default)]
    pub model_prices: BTreeMap<String, ModelPrice>,
}

/// What a model costs, as the user says: US dollars per million tokens. The engine only keeps it
/// (refusing a negative or non-finite number when the window saves it); the window prices usage.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ModelPrice {
    /// Per million input (prompt) tokens.
    pub input: f64,
    /// Per million output (completion) tokens.
    pub output: f64,
}

/// What Warden found out about one model of one server, kept between conversations.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct LearnedModel {
    /// The server's base URL as the provider uses it (`http://127.0.0.1:8080/v1`).
    pub base_url: String,
    pub model: String,
    /// How tools are offered to this model; `None` until something decided it.
    #[serde(default)]
    pub tools: Option<ToolsDecision>,
    /// The context window the server revealed when a request overflowed it (it reported none).
    #[serde(default)]
    pub context_window: Option<u32>,
}

/// Whether a model gets native tool definitions or the tools described in its prompt, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ToolsDecision {
    /// `false`: the text tool protocol (the tools described in the prompt).
    pub native: bool,
    pub decided_by: ToolsDecidedBy,
    /// What was seen, in words for the user.
    pub reason: String,
}

/// Who chose how tools reach a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub enum ToolsDecidedBy {
    /// A one-time request that asked the model to call a tool (local and private servers only).
    Probe,
    /// The model answered twice in a row with a text tool block instead of a native call.
    TextBlocks,
    /// The server refused a request's tools.
    Refusal,
    /// The user, in Settings.
    User,
}

/// Updates of the installed app (the desktop window; `warden` comes in the same package).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase", default)]
pub struct UpdateSettings {
    /// Look for an update when the window opens (quietly: a notice only when there is one).
    pub check_at_start: bool,
    /// The update manifest (`latest.json`) to ask instead of the one this build names; `https`
    /// only. Empty = the build's own. Whatever it names, a package is installed only when it is
    /// signed with Warden's key.
    pub endpoint: String,
}

impl Default for UpdateSettings {
    fn default() -> Self {
        Self { check_at_start: true, endpoint: String::new() }
    }
}

/// The window's colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, Type)]
#[serde(rename_all = "snake_case")]
pub enum Theme {
    /// Follow the system's light or dark preference, also when it changes.
    #[default]
    System,
    Light,
    Dark,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            trust_level: TrustLevel::Guided,
            active_provider: ProviderId::Anthropic,
            providers: BTreeMap::new(),
            project_dir: None,
            tool_permissions: BTreeMap::new(),
            approval_timeout_secs: 30,
            searxng_url: "http://localhost:8080".to_owned(),
            theme: Theme::System,
            mcp_servers: BTreeMap::new(),
            project_mcp: BTreeMap::new(),
            global_instructions: String::new(),
            compact_at_percent: DEFAULT_COMPACT_AT_PERCENT,
            updates: UpdateSettings::default(),
            learned_models: Vec::new(),
            permission_rules: Vec::new(),
            skills_off: Vec::new(),
            hooks: BTreeMap::new(),
            project_hooks: BTreeMap::new(),
            model_prices: BTreeMap::new(),
        }
    }
}

/// The secrets Warden can hold, each in its own keychain entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Type)]
#[serde(rename_all = "snake_case")]
pub enum KeyName {
    Anthropic,
    Openai,
    OpenaiCompatible,
    Brave,
}

impl KeyName {
    pub const ALL: [KeyName; 4] = [Self::Anthropic, Self::Openai, Self::OpenaiCompatible, Self::Brave];

    /// The keychain account name of the entry.
    pub fn account(self) -> &'static str {
        match self {
            Self::Anthropic => "anthropic",
            Self::Openai => "openai",
            Self::OpenaiCompatible => "openai_compatible",
            Self::Brave => "brave",
        }
    }

    /// The environment variable that overrides the keychain in `warden exec`.
    pub fn env_var(self) -> &'static str {
        match self {
            Self::Anthropic => "ANTHROPIC_API_KEY",
            Self::Openai => "OPENAI_API_KEY",
            Self::OpenaiCompatible => "OPENAI_COMPATIBLE_API_KEY",
            Self::Brave => "BRAVE_API_KEY",
        }
    }
}

/// A project instruction file the model reads (`AGENTS.md`, or `CLAUDE.md` where a folder has none).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct InstructionFile {
    /// Absolute.
    pub path: String,
    /// Relative to the project root, `/` between folders.
    pub relative_path: String,
    /// How many of its bytes reach the model.
    pub bytes: u32,
    /// Whether some of it was cut (the size cap).
    pub truncated: bool,
}

/// What instructions the model gets besides Warden's own, for the window to show.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct InstructionsInUse {
    /// The project's instruction files, the root's first.
    pub files: Vec<InstructionFile>,
    /// Whether the settings' global instructions are used.
    pub global: bool,
}

/// Whether a key is set, and what its provider said when it was last sent — all the UI ever learns
/// about a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct KeyStatus {
    pub name: KeyName,
    pub is_set: bool,
    /// The provider's answer the last time this run sent the key; `None` before it is sent.
    #[serde(default)]
    pub last_check: Option<KeyCheck>,
}

/// What a provider said about a key: accepted (a request with it succeeded) or rejected (401/403).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct KeyCheck {
    pub accepted: bool,
    /// When: milliseconds since the Unix epoch.
    pub at_ms: u64,
}

/// Whether a provider can answer now, as the engine sees it, and why not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ProviderReadiness {
    pub ready: bool,
    /// What is missing (a key, a server address, a server that does not answer); `None` when ready.
    pub reason: Option<String>,
}

/// A model a provider offers, for the model picker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ModelEntry {
    pub id: String,
    pub display_name: Option<String>,
    /// `Some(true)` shows the "tools" badge.
    pub supports_tools: Option<bool>,
    pub context_window: Option<u32>,
    /// Whether the model reads images (attached ones and those tools return); those that do not
    /// are sent a note in place of each image.
    #[serde(default)]
    pub takes_images: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_round_trip_and_fill_defaults() {
        let parsed: Settings = serde_json::from_str(r#"{"trustLevel":"autonomous"}"#).unwrap();
        assert_eq!(parsed.trust_level, TrustLevel::Autonomous);
        assert_eq!(parsed.approval_timeout_secs, 30);
        assert_eq!(parsed.global_instructions, "", "a file from before global instructions loads");
        let json = serde_json::to_string(&parsed).unwrap();
        assert_eq!(serde_json::from_str::<Settings>(&json).unwrap(), parsed);
        let with: Settings = serde_json::from_str(r#"{"globalInstructions":"Answer in French."}"#).unwrap();
        assert_eq!(with.global_instructions, "Answer in French.");
    }

    #[test]
    fn model_prices_default_to_none_and_round_trip() {
        let old: Settings = serde_json::from_str(r#"{"trustLevel":"guided","permissionRules":[]}"#).unwrap();
        assert!(old.model_prices.is_empty(), "a file from before model prices loads with none");
        let with: Settings =
            serde_json::from_str(r#"{"modelPrices":{"gpt-5":{"input":1.25,"output":10}}}"#).unwrap();
        assert_eq!(with.model_prices["gpt-5"], ModelPrice { input: 1.25, output: 10.0 });
        let json = serde_json::to_value(&with).unwrap();
        assert_eq!(json["modelPrices"]["gpt-5"]["output"], 10.0);
        assert_eq!(serde_json::from_value::<Settings>(json).unwrap(), with);
    }

    /// The window takes the settings as the engine sends them, with nothing to fill in: every
    /// field is written, even one at its default (the bindings call them optional only because a
    /// file may leave them out).
    #[test]
    fn every_field_is_written_for_the_window() {
        let parsed: Settings = serde_json::from_str("{}").unwrap();
        let sent = serde_json::to_value(&parsed).unwrap();
        let keys: Vec<&str> =
            sent.as_object().map(|o| o.keys().map(String::as_str).collect()).unwrap_or_default();
        for key in [
            "trustLevel",
            "activeProvider",
            "providers",
            "projectDir",
            "toolPermissions",
            "approvalTimeoutSecs",
            "searxngUrl",
            "theme",
            "mcpServers",
            "projectMcp",
            "globalInstructions",
            "compactAtPercent",
            "updates",
            "learnedModels",
            "permissionRules",
            "skillsOff",
            "hooks",
            "projectHooks",
            "modelPrices",
        ] {
            assert!(keys.contains(&key), "{key} is not sent: {sent}");
        }
        assert_eq!(keys.len(), 19, "a new field: add it above ({sent})");
        assert_eq!(sent["searxngUrl"], "http://localhost:8080");
    }
}

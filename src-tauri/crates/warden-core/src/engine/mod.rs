//! Building a working session from settings, the keychain and a few explicit choices. Shared by
//! the desktop app and `warden exec` / `warden tool`, so both faces run the same engine the same
//! way. [`Engine`] owns the settings and the secret store; each of its jobs has a file here:
//! the settings store (`settings_store`), the keychain front (`keys`), the provider factory
//! (`providers`), the session builder (`sessions`), the instructions its prompt adds
//! (`instructions`), the tool path without a model (`tools`) and the saved conversations
//! (`conversations`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use warden_protocol::ErrorCode;

use crate::checkpoint::CheckpointError;
use crate::config::{ConfigError, Integrity, WardenHome};
use crate::provider::ProviderError;
use crate::sandbox::SandboxError;
use crate::secrets::{KeychainStore, SecretError, SecretStore};

mod box_notice;
#[cfg(test)]
mod box_tests;
mod checkpoints;
mod conventions;
mod conversations;
#[cfg(test)]
mod conversations_tests;
#[cfg(test)]
mod git_sweep_tests;
mod hooks;
mod instructions;
mod keys;
mod learned;
mod mcp;
mod mcp_sign_ins;
mod project_mcp;
mod project_policy;
mod providers;
mod rules;
mod sandbox;
mod sessions;
mod settings_store;
#[cfg(test)]
mod tests;
mod tools;
mod window_copy;

pub use crate::tools::{allowed_scope, tool_names};
pub use box_notice::mark_projects_from_before;
pub use conversations::{ConversationError, SavedConversation, Unreadable, MAX_PAGE};
pub(crate) use hooks::check_hooks_approval;
pub use keys::KeySource;
use keys::KeysFrom;
pub use mcp::McpSetupError;
pub(crate) use project_mcp::check_mcp_approval;
pub use project_mcp::PROJECT_MCP_FILE;
pub use providers::default_model;
pub use sessions::SessionSpec;
pub use tools::{tool_catalog, OneShot};

#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("no API key for {provider}: set {env_var} or save a key in Warden's settings{}", keychain_note(.keychain))]
    MissingKey { provider: &'static str, env_var: &'static str, keychain: Option<String> },
    #[error("the project folder {0} does not exist or is not a folder")]
    BadProject(PathBuf),
    #[error("unknown tool `{0}`")]
    UnknownTool(String),
    #[error(
        "Warden's home {home} and the project folder {project} overlap: the agent could rewrite \
Warden's own settings. Choose a project folder that does not contain Warden's home (or set \
WARDEN_HOME to a folder outside the project)"
    )]
    HomeInProject { home: PathBuf, project: PathBuf },
    #[error("cannot set up the project's sandbox: {0}")]
    Sandbox(#[from] SandboxError),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Secret(#[from] SecretError),
    #[error("the project's checkpoints: {0}")]
    Checkpoints(#[from] CheckpointError),
    #[error("no model is named and the server at {server} serves several: {}. Choose one (--model, or the model in Settings)", .models.join(", "))]
    ChooseModel { server: String, models: Vec<String> },
    #[error(
        "no model is named and the server at {server} {why}. Name one (--model, or the model in Settings)"
    )]
    NoModel { server: String, why: String },
    #[error("the project has no .mcp.json to approve")]
    NoProjectMcp,
    #[error(
        "the project's .mcp.json changed: its digest is now {now}, not {given} (the one given); \
         nothing was approved. Look at it again (`warden mcp show`, or Settings → MCP servers) and \
         approve what it says now"
    )]
    ProjectMcpChanged { given: String, now: String },
    #[error("the project's .mcp.json cannot be used: {0}")]
    ProjectMcpUnusable(String),
    #[error(transparent)]
    Unreadable(#[from] Unreadable),
}

impl SetupError {
    pub fn code(&self) -> ErrorCode {
        match self {
            Self::MissingKey { .. } => ErrorCode::MissingCredentials,
            Self::ChooseModel { .. } | Self::NoModel { .. } => ErrorCode::BadRequest,
            Self::BadProject(_)
            | Self::UnknownTool(_)
            | Self::HomeInProject { .. }
            | Self::Sandbox(_)
            | Self::Config(_)
            | Self::Secret(_)
            | Self::Checkpoints(_)
            | Self::NoProjectMcp
            | Self::ProjectMcpChanged { .. }
            | Self::ProjectMcpUnusable(_)
            | Self::Unreadable(_) => ErrorCode::Internal,
        }
    }

    /// Whether the caller asked for something impossible (a usage error for the CLI).
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            Self::BadProject(_)
                | Self::UnknownTool(_)
                | Self::HomeInProject { .. }
                | Self::NoProjectMcp
                | Self::ChooseModel { .. }
                | Self::NoModel { .. }
        )
    }
}

/// Either half of listing models or testing a connection can fail.
#[derive(Debug, thiserror::Error)]
pub enum SetupOrProviderError {
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error(transparent)]
    Provider(#[from] ProviderError),
}

/// Owns the settings and the secret store; builds sessions.
pub struct Engine {
    home: WardenHome,
    secrets: Arc<dyn SecretStore>,
    /// Where the provider keys are read: the environment, else the keychain (here); or, for an
    /// engine driven from another machine, only what it sent, or only this machine's environment.
    keys_from: KeysFrom,
    /// The settings in use, saved and sealed; shared with what Warden learns about local models.
    settings: Arc<settings_store::SettingsCell>,
    /// What loading the settings file had to say (kept aside unreadable, newer version, values
    /// not understood), for the window; `None` when nothing.
    load_notice: Option<String>,
    /// The checkpoint store of each project the sessions work in, shared by them all: one
    /// watcher and one first look at every file per project, however many conversations are open.
    checkpoint_stores: checkpoints::OpenStores,
    /// The empty folder a window session works in while no project folder is chosen (its tools
    /// touch no files, see [`crate::tools::no_project_scope`]); made when first needed, removed on drop.
    no_project_root: std::sync::Mutex<Option<tempfile::TempDir>>,
    /// The MCP servers the sessions use, started when first needed and shared by them all.
    mcp: crate::mcp::McpHub,
    /// The saved conversations, opened when first needed.
    store: conversations::OpenStore,
}

impl Engine {
    /// Loads the settings, checked against Warden's seal (see `config`): a file someone else wrote
    /// is used only with its security-relevant fields reset, and a warning is logged (stderr for
    /// `warden exec` / `warden tool`); the window shows [`Engine::settings_integrity`].
    pub fn new(home: WardenHome, secrets: Arc<dyn SecretStore>) -> Result<Self, ConfigError> {
        let seal_key = match secrets.settings_seal_key() {
            Ok(key) => Ok(key),
            Err(keychain) => {
                tracing::info!(%keychain, "no keychain for the settings seal key; keeping it in Warden's config folder");
                home.file_seal_key().map_err(|file| format!("{keychain}; {file}"))
            }
        };
        let loaded = home.load_sealed(seal_key.as_ref().map_err(String::as_str))?;
        match &loaded.integrity {
            Integrity::Trusted => {}
            Integrity::Untrusted => tracing::warn!(
                path = %home.settings_path().display(),
                "the settings file was not written by Warden (or was changed since): its trust level, \
            permissions, endpoints and global instructions are ignored and the safe defaults used; review and accept it in Warden's \
            Settings, or save the settings there"
            ),
            Integrity::NoSealKey(why) => tracing::warn!(
                %why,
                "the settings file cannot be checked (no seal key): its trust level, permissions, \
            endpoints and global instructions are ignored and the safe defaults used"
            ),
        }
        box_notice::mark_projects_from_before(&home);
        let settings =
            settings_store::SettingsCell::new(home.clone(), seal_key, loaded.settings, loaded.integrity);
        Ok(Self::assemble(home, secrets, settings, loaded.notice))
    }

    /// An engine driven from another machine (`warden serve`): it works with the settings and
    /// keys the face sent (the local user's), never reads this machine's Warden settings, and
    /// keeps the keys and any change to the settings in memory only. Conversations and checkpoints
    /// are saved under `home` as usual.
    pub fn remote(home: WardenHome, settings: warden_protocol::Settings, keys: KeySource) -> Self {
        let secrets = crate::secrets::MemoryStore::new();
        if let KeySource::Sent(keys) = &keys {
            for (name, value) in keys {
                if let Some(key) = crate::secrets::ApiKey::new(value) {
                    secrets.put(*name, key);
                }
            }
        }
        let settings = settings_store::SettingsCell::in_memory(home.clone(), settings);
        let mut engine = Self::assemble(home, Arc::new(secrets), settings, None);
        engine.keys_from = keys.into_from();
        engine
    }

    fn assemble(
        home: WardenHome,
        secrets: Arc<dyn SecretStore>,
        settings: settings_store::SettingsCell,
        load_notice: Option<String>,
    ) -> Self {
        let mcp_secrets = secrets.clone();
        let settings = Arc::new(settings);
        // "Always" about a host a local MCP server's box wants: a rule of the project's, as for
        // its commands.
        let rules = Arc::clone(&settings);
        let save_host_rule: Arc<crate::mcp::SaveHostRule> = Arc::new(move |project: &Path, pattern: &str| {
            rules.allow_host(&project.to_string_lossy(), pattern)
        });
        Self {
            home,
            secrets,
            keys_from: KeysFrom::EnvironmentThenKeychain,
            settings,
            load_notice,
            checkpoint_stores: checkpoints::OpenStores::default(),
            no_project_root: std::sync::Mutex::new(None),
            store: conversations::OpenStore::default(),
            mcp: crate::mcp::McpHub::new(crate::mcp::ClientSetup {
                secrets: Some(mcp_secrets),
                save_host_rule: Some(save_host_rule),
                ..crate::mcp::ClientSetup::default()
            }),
        }
    }

    /// `WARDEN_HOME` (or the platform dirs) and the OS keychain.
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::new(WardenHome::from_env()?, Arc::new(KeychainStore::default()))
    }

    pub fn home(&self) -> &WardenHome {
        &self.home
    }
}

fn keychain_note(keychain: &Option<String>) -> String {
    match keychain {
        Some(error) => format!(" ({error})"),
        None => String::new(),
    }
}

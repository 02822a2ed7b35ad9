//! The desktop's view of the engine: the calls the commands make, with engine errors turned into
//! [`CommandError`]s. Settings and keys already go to `warden_core` (settings file, keychain);
//! sessions, models and connection tests wait for `warden_core::setup::Engine`.

use std::sync::Arc;

use tokio::sync::mpsc::UnboundedReceiver;
use warden_protocol::{Event, KeyName, KeyStatus, Message, ModelEntry, Op, ProviderId, Settings};

use warden_core::config::{ConfigError, WardenHome};
use warden_core::secrets::{KeychainStore, SecretError, SecretStore};

use crate::error::{CommandError, CommandErrorCode, CommandResult};

/// One running conversation, as the commands use it.
pub trait SessionHandle: Send + Sync + 'static {
    fn submit(&self, op: Op) -> CommandResult<()>;
    fn history(&self) -> Vec<Message>;
}

pub struct Engine {
    home: WardenHome,
    secrets: Arc<dyn SecretStore>,
}

impl Engine {
    /// The user's Warden home (`WARDEN_HOME` or the platform dirs) and the OS keychain.
    pub fn from_env() -> CommandResult<Self> {
        let home = WardenHome::from_env().map_err(settings_error)?;
        Ok(Self::new(home, Arc::new(KeychainStore::default())))
    }

    pub fn new(home: WardenHome, secrets: Arc<dyn SecretStore>) -> Self {
        Self { home, secrets }
    }

    pub fn settings(&self) -> CommandResult<Settings> {
        self.home.load_settings().map_err(settings_error)
    }

    pub fn save_settings(&self, settings: Settings) -> CommandResult<()> {
        self.home.save_settings(&settings).map_err(settings_error)
    }

    pub async fn start_session(
        &self,
        _conversation_id: &str,
    ) -> CommandResult<(Arc<dyn SessionHandle>, UnboundedReceiver<Event>)> {
        Err(not_ready())
    }

    pub async fn list_models(&self, _provider: ProviderId) -> CommandResult<Vec<ModelEntry>> {
        Err(not_ready())
    }

    pub async fn test_connection(&self, _provider: ProviderId) -> CommandResult<()> {
        Err(not_ready())
    }

    pub async fn key_status(&self) -> CommandResult<Vec<KeyStatus>> {
        let mut out = Vec::with_capacity(KeyName::ALL.len());
        for name in KeyName::ALL {
            let is_set = self.secrets.is_set(name).await.map_err(keychain_error)?;
            out.push(KeyStatus { name, is_set });
        }
        Ok(out)
    }

    pub async fn set_key(&self, name: KeyName, value: String) -> CommandResult<()> {
        self.secrets.set(name, &value).await.map_err(keychain_error)
    }

    pub async fn delete_key(&self, name: KeyName) -> CommandResult<()> {
        self.secrets.delete(name).await.map_err(keychain_error)
    }

    pub async fn ollama_reachable(&self) -> bool {
        false
    }
}

fn settings_error(err: ConfigError) -> CommandError {
    CommandError::new(CommandErrorCode::Settings, format!("Settings: {err}"))
}

fn keychain_error(err: SecretError) -> CommandError {
    match err {
        SecretError::Empty => CommandError::new(CommandErrorCode::InvalidInput, "The key is empty."),
        // The keychain's own message names the platform failure, never the secret.
        SecretError::Unavailable(why) => CommandError::new(
            CommandErrorCode::Keychain,
            format!("The system keychain is unavailable ({why}). Unlock it or start a Secret Service."),
        ),
    }
}

fn not_ready() -> CommandError {
    CommandError::new(CommandErrorCode::Engine, "The engine is not available in this build yet.")
}

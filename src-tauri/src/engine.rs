//! The desktop's view of the engine (`warden_core::setup::Engine`): the calls the commands make,
//! with engine errors turned into [`CommandError`]s that carry a code and words a user can act on.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc::UnboundedReceiver;
use warden_core::agent::{Session, SessionError};
use warden_core::config::{ConfigError, Integrity};
use warden_core::secrets::SecretError;
use warden_core::setup::{self, SetupError, SetupOrProviderError};
use warden_protocol::{ErrorCode, Event, KeyName, KeyStatus, Message, ModelEntry, Op, ProviderId, Settings};

use crate::error::{CommandError, CommandErrorCode, CommandResult};

/// How long `ollama_probe` waits for a local Ollama to answer.
const OLLAMA_PROBE_TIMEOUT: Duration = Duration::from_secs(2);

/// One running conversation, as the commands use it (a trait so routing can be tested alone).
pub trait SessionHandle: Send + Sync + 'static {
    fn submit(&self, op: Op) -> CommandResult<()>;
    fn history(&self) -> Vec<Message>;
    /// Whether a turn is running.
    fn is_busy(&self) -> bool;
}

impl SessionHandle for Session {
    fn submit(&self, op: Op) -> CommandResult<()> {
        Session::submit(self, op).map_err(session_error)
    }

    fn history(&self) -> Vec<Message> {
        Session::history(self)
    }

    fn is_busy(&self) -> bool {
        Session::is_busy(self)
    }
}

pub struct Engine {
    core: setup::Engine,
}

/// Whether the settings in use are the file as Warden wrote it (see `warden_core::config`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct SettingsIntegrity {
    pub trusted: bool,
    /// What is wrong and what Warden does about it, for the notice in Settings.
    pub problem: Option<String>,
}

impl Engine {
    /// The user's Warden home (`WARDEN_HOME` or the platform dirs) and the OS keychain.
    pub fn from_env() -> CommandResult<Self> {
        Ok(Self { core: setup::Engine::from_env().map_err(settings_error)? })
    }

    #[cfg(test)]
    pub fn new(
        home: warden_core::config::WardenHome,
        secrets: Arc<dyn warden_core::secrets::SecretStore>,
    ) -> CommandResult<Self> {
        Ok(Self { core: setup::Engine::new(home, secrets).map_err(settings_error)? })
    }

    pub fn settings(&self) -> CommandResult<Settings> {
        Ok(self.core.settings())
    }

    pub fn save_settings(&self, settings: Settings) -> CommandResult<()> {
        self.core.save_settings(settings).map_err(settings_error)
    }

    /// Whether the settings in use are the file as Warden wrote it.
    pub fn settings_integrity(&self) -> SettingsIntegrity {
        match self.core.settings_integrity() {
            Integrity::Trusted => SettingsIntegrity { trusted: true, problem: None },
            Integrity::Untrusted => SettingsIntegrity {
                trusted: false,
                problem: Some(format!(
                    "The settings file {} was not written by Warden, or was changed since Warden last \
saved it (by a command the agent ran, an editor, or a version of Warden from before this check). \
Until you accept it, its trust level, project permissions and provider addresses are ignored and \
the safe defaults are used.",
                    self.core.home().settings_path().display()
                )),
            },
            Integrity::NoSealKey(why) => SettingsIntegrity {
                trusted: false,
                problem: Some(format!(
                    "Warden cannot check its settings file ({why}), so its trust level, project \
permissions and provider addresses are ignored and the safe defaults are used."
                )),
            },
        }
    }

    /// The user accepts the settings file as it is: sealed, and used from now on.
    pub fn accept_settings_file(&self) -> CommandResult<()> {
        self.core.accept_settings_file().map_err(settings_error)
    }

    /// A session as the settings say now. It continues `history` when given (a session remade
    /// after a settings change), else the conversation saved under this id, if any.
    pub async fn start_session(
        &self,
        conversation_id: &str,
        history: Option<Vec<Message>>,
    ) -> CommandResult<(Arc<dyn SessionHandle>, UnboundedReceiver<Event>)> {
        let (session, events) =
            self.core.start_session(conversation_id.to_owned()).await.map_err(setup_error)?;
        let session = match history {
            Some(history) => session.with_history(history),
            None => session,
        };
        Ok((Arc::new(session), events))
    }

    /// The saved history of a conversation that has no session in this run.
    pub fn stored_history(&self, conversation_id: &str) -> Vec<Message> {
        self.core.stored_history(conversation_id)
    }

    pub async fn list_models(&self, provider: ProviderId) -> CommandResult<Vec<ModelEntry>> {
        self.core.list_models(provider).await.map_err(setup_or_provider_error)
    }

    pub async fn test_connection(&self, provider: ProviderId) -> CommandResult<()> {
        self.core.test_connection(provider).await.map_err(setup_or_provider_error)
    }

    pub async fn key_status(&self) -> CommandResult<Vec<KeyStatus>> {
        Ok(self.core.key_status().await)
    }

    pub async fn set_key(&self, name: KeyName, value: String) -> CommandResult<()> {
        self.core.set_key(name, &value).await.map_err(keychain_error)
    }

    pub async fn delete_key(&self, name: KeyName) -> CommandResult<()> {
        self.core.delete_key(name).await.map_err(keychain_error)
    }

    /// Whether Ollama answers at its configured (or default) address.
    pub async fn ollama_reachable(&self) -> bool {
        matches!(
            tokio::time::timeout(OLLAMA_PROBE_TIMEOUT, self.core.list_models(ProviderId::Ollama)).await,
            Ok(Ok(_))
        )
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

fn setup_error(err: SetupError) -> CommandError {
    match err {
        SetupError::Secret(e) => keychain_error(e),
        SetupError::Config(e) => settings_error(e),
        other => {
            let code = match other.code() {
                ErrorCode::MissingCredentials => CommandErrorCode::MissingCredentials,
                _ if other.is_usage() => CommandErrorCode::InvalidInput,
                _ => CommandErrorCode::Engine,
            };
            CommandError::new(code, sentence(&other.to_string()))
        }
    }
}

fn setup_or_provider_error(err: SetupOrProviderError) -> CommandError {
    match err {
        SetupOrProviderError::Setup(e) => setup_error(e),
        SetupOrProviderError::Provider(e) => e.into(),
    }
}

fn session_error(err: SessionError) -> CommandError {
    let code = match err {
        SessionError::NoSuchApproval(_) => CommandErrorCode::UnknownTool,
        SessionError::EmptyMessage | SessionError::WrongConversation { .. } => CommandErrorCode::InvalidInput,
        SessionError::Busy => CommandErrorCode::Engine,
    };
    CommandError::new(code, sentence(&err.to_string()))
}

/// Engine messages start lower-case (they compose into longer errors); the UI shows sentences.
fn sentence(message: &str) -> String {
    let mut chars = message.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

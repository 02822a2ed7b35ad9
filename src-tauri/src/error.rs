//! The one error type every command returns: a stable code the UI can branch on and a message a
//! user can act on. Never carries a key or any other secret.

use serde::Serialize;
use specta::Type;
use warden_core::agent::compaction::CompactionError;
use warden_core::agent::CompactNowError;
use warden_core::agent::SessionError;
use warden_core::checkpoint::{CheckpointError, RestoreRefusal};
use warden_core::config::ConfigError;
use warden_core::engine::{ConversationError, SetupError, SetupOrProviderError, Unreadable};
use warden_core::secrets::SecretError;
use warden_protocol::ErrorCode;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Type)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum CommandErrorCode {
    /// No pending approval has that tool id (already answered, timed out or never asked).
    UnknownTool,
    /// The arguments were refused (empty message, bad setting value…).
    InvalidInput,
    /// The OS keychain could not be reached or refused the operation.
    Keychain,
    /// The settings file could not be read or written.
    Settings,
    /// The provider refused the key.
    AuthFailed,
    /// No key is set for the provider.
    MissingCredentials,
    /// The provider could not be reached.
    Network,
    /// The provider answered with an error.
    Provider,
    /// The engine could not start or has stopped.
    Engine,
    /// A restore was refused because a turn is running in the project: try again once it ends.
    TurnRunning,
    /// A restore was refused because it would overwrite files changed outside Warden since its
    /// last checkpoint (named in `paths`); restoring with `force` overwrites them.
    ChangedOutside,
    /// The saved conversation cannot be read whole (a message damaged, or written by a newer
    /// Warden in a form this one does not know, or the store busy): it is not continued and
    /// nothing is written to it; the window shows what can be read, read-only.
    ConversationUnreadable,
    /// A remote project could not be opened because the machine has no Warden where the link
    /// looks, or one of another version: over ssh, the window offers to copy this one there
    /// (`remote_install_plan`, `remote_install`).
    NoRemoteEngine,
    /// Something inside Warden failed.
    Internal,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Type, thiserror::Error)]
#[serde(rename_all = "camelCase")]
#[error("{message}")]
pub struct CommandError {
    pub code: CommandErrorCode,
    /// In words a user can act on.
    pub message: String,
    /// The files the error is about (relative to the project root), when it names some: those
    /// changed outside Warden for `CHANGED_OUTSIDE`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<String>,
}

impl CommandError {
    pub fn new(code: CommandErrorCode, message: impl Into<String>) -> Self {
        Self { code, message: message.into(), paths: Vec::new() }
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(CommandErrorCode::Internal, message)
    }

    /// The arguments were refused, with why.
    pub fn invalid_input(message: impl Into<String>) -> Self {
        Self::new(CommandErrorCode::InvalidInput, message)
    }
}

pub type CommandResult<T> = Result<T, CommandError>;

impl From<warden_core::provider::ProviderError> for CommandError {
    fn from(err: warden_core::provider::ProviderError) -> Self {
        use warden_core::provider::ErrorCategory as C;
        let code = match err.category {
            C::Auth => CommandErrorCode::AuthFailed,
            C::MissingCredentials => CommandErrorCode::MissingCredentials,
            C::Network | C::IdleTimeout => CommandErrorCode::Network,
            C::RateLimited | C::Overloaded | C::Quota | C::BadRequest | C::Server | C::InvalidResponse => {
                CommandErrorCode::Provider
            }
        };
        // Provider messages are written for users and never include the key.
        Self::new(code, err.message)
    }
}

impl From<ConfigError> for CommandError {
    fn from(err: ConfigError) -> Self {
        Self::new(CommandErrorCode::Settings, format!("Settings: {err}"))
    }
}

impl From<SecretError> for CommandError {
    fn from(err: SecretError) -> Self {
        match err {
            SecretError::Empty => Self::new(CommandErrorCode::InvalidInput, "The key is empty."),
            // The keychain's own message names the platform failure, never the secret.
            SecretError::Unavailable(why) => Self::new(
                CommandErrorCode::Keychain,
                format!("The system keychain is unavailable ({why}). Unlock it or start a Secret Service."),
            ),
        }
    }
}

impl From<SetupError> for CommandError {
    fn from(err: SetupError) -> Self {
        match err {
            SetupError::Secret(e) => e.into(),
            SetupError::Config(e) => e.into(),
            SetupError::Checkpoints(e) => e.into(),
            SetupError::Unreadable(e) => e.into(),
            other => {
                let code = match other.code() {
                    ErrorCode::MissingCredentials => CommandErrorCode::MissingCredentials,
                    _ if other.is_usage() => CommandErrorCode::InvalidInput,
                    _ => CommandErrorCode::Engine,
                };
                Self::new(code, sentence(&other.to_string()))
            }
        }
    }
}

impl From<SetupOrProviderError> for CommandError {
    fn from(err: SetupOrProviderError) -> Self {
        match err {
            SetupOrProviderError::Setup(e) => e.into(),
            SetupOrProviderError::Provider(e) => e.into(),
        }
    }
}

impl From<SessionError> for CommandError {
    fn from(err: SessionError) -> Self {
        let code = match err {
            SessionError::NoSuchApproval(_) => CommandErrorCode::UnknownTool,
            SessionError::EmptyMessage
            | SessionError::BadImage(_)
            | SessionError::WrongConversation { .. } => CommandErrorCode::InvalidInput,
            SessionError::Busy => CommandErrorCode::Engine,
        };
        Self::new(code, sentence(&err.to_string()))
    }
}

impl From<CompactNowError> for CommandError {
    fn from(err: CompactNowError) -> Self {
        let code = match &err {
            CompactNowError::Busy => CommandErrorCode::TurnRunning,
            CompactNowError::Compaction(CompactionError::Provider(_) | CompactionError::EmptySummary) => {
                CommandErrorCode::Provider
            }
            CompactNowError::Compaction(CompactionError::NothingToCompact | CompactionError::Cancelled) => {
                CommandErrorCode::InvalidInput
            }
        };
        Self::new(code, sentence(&err.to_string()))
    }
}

impl From<Unreadable> for CommandError {
    fn from(err: Unreadable) -> Self {
        Self::new(CommandErrorCode::ConversationUnreadable, sentence(&err.to_string()))
    }
}

impl From<ConversationError> for CommandError {
    fn from(err: ConversationError) -> Self {
        let code = match err {
            ConversationError::BadId(_) | ConversationError::NotFound(_) => CommandErrorCode::InvalidInput,
            ConversationError::Store(_) => CommandErrorCode::Internal,
        };
        Self::new(code, sentence(&err.to_string()))
    }
}

impl From<CheckpointError> for CommandError {
    fn from(err: CheckpointError) -> Self {
        match err {
            CheckpointError::Refused(RestoreRefusal::TurnRunning) => Self::new(
                CommandErrorCode::TurnRunning,
                "A turn is running in this project: restore once it has ended.",
            ),
            CheckpointError::Refused(RestoreRefusal::ChangedOutside(paths)) => Self {
                code: CommandErrorCode::ChangedOutside,
                message: format!(
                    "Not restored: {} changed since Warden's last checkpoint by something other than \
Warden, and the restore would overwrite {}.",
                    match paths.len() {
                        1 => "a file was".to_owned(),
                        n => format!("{n} files were"),
                    },
                    if paths.len() == 1 { "it" } else { "them" },
                ),
                paths,
            },
            CheckpointError::Refused(refusal @ RestoreRefusal::SessionElsewhere(_)) => {
                Self::new(CommandErrorCode::TurnRunning, format!("Not restored: {refusal}."))
            }
            CheckpointError::Refused(RestoreRefusal::NotLooked(why)) => Self::new(
                CommandErrorCode::ChangedOutside,
                format!(
                    "Not restored: the project as it is now could not be looked at ({why}), so the \
restore could overwrite changes made since the last checkpoint."
                ),
            ),
            CheckpointError::UnknownCheckpoint(_) | CheckpointError::AmbiguousCheckpoint(_) => {
                Self::new(CommandErrorCode::InvalidInput, sentence(&err.to_string()))
            }
            other => Self::internal(format!("Checkpoints: {other}")),
        }
    }
}

/// Engine messages start lower-case (they compose into longer errors); the UI shows sentences.
fn sentence(message: &str) -> String {
    warden_core::words::capital_first(message)
}

#[cfg(test)]
mod tests {
    use warden_core::provider::{ErrorCategory, ProviderError};

    use super::*;

    #[test]
    fn provider_errors_keep_their_meaning_and_their_words() {
        let auth: CommandError = ProviderError::new(ErrorCategory::Auth, "The key was refused.").into();
        assert_eq!(auth, CommandError::new(CommandErrorCode::AuthFailed, "The key was refused."));
        let net: CommandError = ProviderError::network("Could not connect.").into();
        assert_eq!(net.code, CommandErrorCode::Network);
        let json = serde_json::to_value(&auth).unwrap_or_default();
        assert_eq!(json, serde_json::json!({"code": "AUTH_FAILED", "message": "The key was refused."}));
    }
}

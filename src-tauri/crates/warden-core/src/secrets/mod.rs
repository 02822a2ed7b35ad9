//! API keys: the OS keychain in the product, an in-memory store in unit tests.
//!
//! Keys never reach the settings file, logs, events, history, the webview or a child's
//! environment; the only way to read one is [`SecretStore::get`], used when building a provider.

pub mod chunked;
pub mod env_keys;
mod key;
mod keychain;
mod memory;
pub mod redact;
pub mod verdict;

use async_trait::async_trait;
use warden_protocol::KeyName;

pub use key::ApiKey;
pub use keychain::KeychainStore;
pub use memory::MemoryStore;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SecretError {
    /// The keychain could not be reached (no Secret Service, locked, denied…).
    #[error("the system keychain is unavailable: {0}")]
    Unavailable(String),
    #[error("the key is empty")]
    Empty,
}

/// Where keys live.
#[async_trait]
pub trait SecretStore: Send + Sync {
    async fn get(&self, name: KeyName) -> Result<Option<ApiKey>, SecretError>;
    async fn set(&self, name: KeyName, value: &str) -> Result<(), SecretError>;
    /// Removing a key that is not there is not an error.
    async fn delete(&self, name: KeyName) -> Result<(), SecretError>;

    async fn is_set(&self, name: KeyName) -> Result<bool, SecretError> {
        Ok(self.get(name).await?.is_some())
    }

    /// Warden's own key for sealing its settings file (see `config`), created on first use and
    /// never shown to anyone. Blocking (a keychain round trip): called once when the engine starts.
    fn settings_seal_key(&self) -> Result<SealKey, SecretError>;

    /// Another secret of Warden's under `account` (an MCP server's OAuth tokens); never an API
    /// key (those are [`KeyName`]s). The value is at most [`MAX_ENTRY_BYTES`]: see `entries`.
    async fn get_entry(&self, account: &str) -> Result<Option<String>, SecretError>;
    async fn set_entry(&self, account: &str, value: &str) -> Result<(), SecretError>;
    /// Removing an entry that is not there is not an error.
    async fn delete_entry(&self, account: &str) -> Result<(), SecretError>;
}

/// The most one keychain entry holds: Windows Credential Manager's limit is 2,560 bytes.
pub const MAX_ENTRY_BYTES: usize = 2048;

/// The key of the settings file's seal: 32 random bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct SealKey([u8; 32]);

impl SealKey {
    pub fn random() -> Self {
        Self(rand::random())
    }

    pub fn from_hex(text: &str) -> Option<Self> {
        let bytes = hex::decode(text.trim()).ok()?;
        Some(Self(bytes.try_into().ok()?))
    }

    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    pub fn bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

impl std::fmt::Debug for SealKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SealKey([redacted])")
    }
}

/// The key for `name`: the environment variable when set (scripts and CI), else the store.
pub async fn resolve_key(store: &dyn SecretStore, name: KeyName) -> Result<Option<ApiKey>, SecretError> {
    if let Some(key) = env_keys::env_key(name.env_var()) {
        return Ok(Some(key));
    }
    store.get(name).await
}

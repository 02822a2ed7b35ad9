//! The OS keychain through `keyring` 3: Secret Service on Linux, Keychain on macOS, Credential
//! Manager on Windows. Every keyring call blocks (D-Bus round trips), so each runs on the blocking
//! pool.

use async_trait::async_trait;
use keyring::Entry;
use warden_protocol::KeyName;

use super::{ApiKey, SealKey, SecretError, SecretStore};

/// The keychain service name of Warden's entries; one entry per [`KeyName`] account.
pub const DEFAULT_SERVICE: &str = "dev.warden.app";

/// The account of the settings seal key (not a [`KeyName`]: the window never lists or sets it).
const SEAL_ACCOUNT: &str = "settings-seal";

#[derive(Debug, Clone)]
pub struct KeychainStore {
    service: String,
}

impl Default for KeychainStore {
    fn default() -> Self {
        Self::new(DEFAULT_SERVICE)
    }
}

impl KeychainStore {
    /// A store under another service name (tests use a unique one per run).
    pub fn new(service: impl Into<String>) -> Self {
        Self { service: service.into() }
    }

    pub fn service(&self) -> &str {
        &self.service
    }

    async fn blocking<T, F>(&self, name: KeyName, op: F) -> Result<T, SecretError>
    where
        T: Send + 'static,
        F: FnOnce(Entry) -> Result<T, keyring::Error> + Send + 'static,
    {
        let service = self.service.clone();
        tokio::task::spawn_blocking(move || {
            let entry = Entry::new(&service, name.account()).map_err(unavailable)?;
            op(entry).map_err(unavailable)
        })
        .await
        .map_err(|e| SecretError::Unavailable(format!("keychain task failed: {e}")))?
    }
}

fn unavailable(error: keyring::Error) -> SecretError {
    // keyring's messages name the platform failure and never include the secret.
    SecretError::Unavailable(error.to_string())
}

#[async_trait]
impl SecretStore for KeychainStore {
    async fn get(&self, name: KeyName) -> Result<Option<ApiKey>, SecretError> {
        self.blocking(name, |entry| match entry.get_password() {
            Ok(value) => Ok(ApiKey::new(value)),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(e),
        })
        .await
    }

    async fn set(&self, name: KeyName, value: &str) -> Result<(), SecretError> {
        let key = ApiKey::new(value).ok_or(SecretError::Empty)?;
        self.blocking(name, move |entry| entry.set_password(key.expose())).await
    }

    async fn delete(&self, name: KeyName) -> Result<(), SecretError> {
        self.blocking(name, |entry| match entry.delete_credential() {
            Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(e),
        })
        .await
    }

    fn settings_seal_key(&self) -> Result<SealKey, SecretError> {
        let entry = Entry::new(&self.service, SEAL_ACCOUNT).map_err(unavailable)?;
        match entry.get_password() {
            Ok(text) => SealKey::from_hex(&text).ok_or_else(|| {
                SecretError::Unavailable("the settings seal key in the keychain is malformed".into())
            }),
            Err(keyring::Error::NoEntry) => {
                let key = SealKey::random();
                entry.set_password(&key.to_hex()).map_err(unavailable)?;
                Ok(key)
            }
            Err(e) => Err(unavailable(e)),
        }
    }
}

/// These talk to the real Secret Service. `scripts/test.sh` runs them under `dbus-run-session`
/// with an unlocked gnome-keyring (`cargo test -- --ignored keychain --test-threads=1`).
#[cfg(test)]
mod tests {
    use super::*;

    fn unique_store() -> KeychainStore {
        KeychainStore::new(format!("dev.warden.test.{}", uuid::Uuid::new_v4()))
    }

    #[tokio::test]
    #[ignore = "needs a Secret Service session (scripts/test.sh runs it)"]
    async fn keychain_round_trip_through_the_secret_service() {
        let store = unique_store();
        assert!(store.get(KeyName::Anthropic).await.unwrap().is_none());
        store.set(KeyName::Anthropic, "sk-ant-keychain-test").await.unwrap();
        assert_eq!(store.get(KeyName::Anthropic).await.unwrap().unwrap().expose(), "sk-ant-keychain-test");

        // A second store object on the same service sees it: it is in the keychain, not in memory.
        let again = KeychainStore::new(store.service());
        assert!(again.is_set(KeyName::Anthropic).await.unwrap());
        assert!(!again.is_set(KeyName::Openai).await.unwrap());

        // It is visible to the platform's own tool, under Warden's service and account.
        let looked_up = std::process::Command::new("secret-tool")
            .args(["lookup", "service", store.service(), "username", "anthropic"])
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&looked_up.stdout).trim(), "sk-ant-keychain-test");

        store.set(KeyName::Anthropic, "sk-ant-replaced").await.unwrap();
        assert_eq!(again.get(KeyName::Anthropic).await.unwrap().unwrap().expose(), "sk-ant-replaced");
        store.delete(KeyName::Anthropic).await.unwrap();
        store.delete(KeyName::Anthropic).await.unwrap();
        assert!(again.get(KeyName::Anthropic).await.unwrap().is_none());
    }
}

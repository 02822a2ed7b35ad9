//! The OS keychain through `keyring` 3: Secret Service on Linux, Keychain on macOS, Credential
//! Manager on Windows. Every keyring call blocks (D-Bus round trips), so each runs on a thread of
//! its own and is waited for at most [`DEFAULT_TIMEOUT`].
//!
//! The deadline is there because a keychain call can block for good: on Linux a locked collection
//! makes the Secret Service show an unlock prompt, and `keyring` waits for its answer (up to a
//! year). Nobody may ever answer it (a prompt on a display nobody looks at, a prompter that never
//! starts). Past the deadline the call is given up — its thread is left to finish on its own, so
//! a stuck D-Bus call never holds the async runtime or its shutdown — and reported as
//! [`SecretError::Unavailable`], which the layers above already treat as "no keychain".

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use keyring::Entry;
use warden_protocol::KeyName;

use super::{ApiKey, SealKey, SecretError, SecretStore};

/// The keychain service name of Warden's entries; one entry per [`KeyName`] account.
pub const DEFAULT_SERVICE: &str = "dev.warden.app";

/// How long one keychain call may take. Long enough to type a password into an unlock prompt.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// The account of the settings seal key (not a [`KeyName`]: the window never lists or sets it).
const SEAL_ACCOUNT: &str = "settings-seal";

#[derive(Debug, Clone)]
pub struct KeychainStore {
    service: String,
    timeout: Duration,
}

impl Default for KeychainStore {
    fn default() -> Self {
        Self::new(DEFAULT_SERVICE)
    }
}

impl KeychainStore {
    /// A store under another service name (tests use a unique one per run).
    pub fn new(service: impl Into<String>) -> Self {
        Self { service: service.into(), timeout: DEFAULT_TIMEOUT }
    }

    /// The same store with another deadline per keychain call.
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    pub fn service(&self) -> &str {
        &self.service
    }

    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    async fn blocking<T, F>(&self, name: KeyName, op: F) -> Result<T, SecretError>
    where
        T: Send + 'static,
        F: FnOnce(Entry) -> Result<T, keyring::Error> + Send + 'static,
    {
        self.blocking_at(name.account().to_owned(), op).await
    }

    async fn blocking_at<T, F>(&self, account: String, op: F) -> Result<T, SecretError>
    where
        T: Send + 'static,
        F: FnOnce(Entry) -> Result<T, keyring::Error> + Send + 'static,
    {
        let service = self.service.clone();
        let (tx, rx) = tokio::sync::oneshot::channel();
        spawn_call(move || {
            let result = Entry::new(&service, &account).and_then(op).map_err(unavailable);
            // The receiver is gone when the call was given up: nobody to tell.
            let _ = tx.send(result);
        })?;
        match tokio::time::timeout(self.timeout, rx).await {
            Ok(Ok(result)) => result,
            Ok(Err(_)) => Err(call_died()),
            Err(_) => Err(no_answer(self.timeout)),
        }
    }
}

/// Run one keychain call on a thread of its own (not the runtime's blocking pool: a call that never
/// returns must not keep the runtime from shutting down).
fn spawn_call(call: impl FnOnce() + Send + 'static) -> Result<(), SecretError> {
    std::thread::Builder::new()
        .name("warden-keychain".into())
        .spawn(call)
        .map(drop)
        .map_err(|e| SecretError::Unavailable(format!("cannot start a keychain call: {e}")))
}

/// The account of one of Warden's other entries: never one of the API keys' or the seal's.
fn entry_account(account: &str) -> Result<String, SecretError> {
    let taken = account == SEAL_ACCOUNT || KeyName::ALL.iter().any(|k| k.account() == account);
    if taken || account.is_empty() {
        return Err(SecretError::Unavailable(format!("`{account}` is not an account for other secrets")));
    }
    Ok(account.to_owned())
}

fn no_answer(timeout: Duration) -> SecretError {
    SecretError::Unavailable(format!(
        "the keychain did not answer within {} s — is it locked, waiting for an unlock prompt nobody \
         answered?",
        timeout.as_secs_f64().round()
    ))
}

fn call_died() -> SecretError {
    SecretError::Unavailable("the keychain call failed without an answer (it panicked)".into())
}

fn unavailable(error: keyring::Error) -> SecretError {
    // keyring's messages name the platform failure and never include the secret.
    let hint = match &error {
        keyring::Error::NoStorageAccess(_) => " (the keychain is locked, or access was refused)",
        _ => "",
    };
    SecretError::Unavailable(format!("{error}{hint}"))
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

    async fn get_entry(&self, account: &str) -> Result<Option<String>, SecretError> {
        self.blocking_at(entry_account(account)?, |entry| match entry.get_password() {
            Ok(value) => Ok(Some(value)),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(e),
        })
        .await
    }

    async fn set_entry(&self, account: &str, value: &str) -> Result<(), SecretError> {
        if value.len() > super::MAX_ENTRY_BYTES {
            return Err(SecretError::Unavailable("a keychain entry of Warden's is too long".into()));
        }
        let value = value.to_owned();
        self.blocking_at(entry_account(account)?, move |entry| entry.set_password(&value)).await
    }

    async fn delete_entry(&self, account: &str) -> Result<(), SecretError> {
        self.blocking_at(entry_account(account)?, |entry| match entry.delete_credential() {
            Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(e),
        })
        .await
    }

    fn settings_seal_key(&self) -> Result<SealKey, SecretError> {
        let service = self.service.clone();
        // Set when the caller stopped waiting: a late answer must not store a key nobody uses.
        let given_up = Arc::new(AtomicBool::new(false));
        let given_up_in_call = Arc::clone(&given_up);
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        spawn_call(move || {
            let _ = tx.send(seal_key_from(&service, &given_up_in_call));
        })?;
        match rx.recv_timeout(self.timeout) {
            Ok(result) => result,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                given_up.store(true, Ordering::SeqCst);
                Err(no_answer(self.timeout))
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => Err(call_died()),
        }
    }
}

/// The seal key stored under `service`, created when there is none (unless the caller gave up).
fn seal_key_from(service: &str, given_up: &AtomicBool) -> Result<SealKey, SecretError> {
    let entry = Entry::new(service, SEAL_ACCOUNT).map_err(unavailable)?;
    match entry.get_password() {
        Ok(text) => SealKey::from_hex(&text).ok_or_else(|| {
            SecretError::Unavailable("the settings seal key in the keychain is malformed".into())
        }),
        Err(keyring::Error::NoEntry) => {
            if given_up.load(Ordering::SeqCst) {
                return Err(SecretError::Unavailable("given up waiting for the keychain".into()));
            }
            let key = SealKey::random();
            entry.set_password(&key.to_hex()).map_err(unavailable)?;
            Ok(key)
        }
        Err(e) => Err(unavailable(e)),
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

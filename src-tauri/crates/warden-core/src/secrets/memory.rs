//! An in-memory secret store: unit tests, and the keys a remote engine's face sent for a session
//! (`warden serve`), which must never reach a file there.

use std::collections::HashMap;
use std::sync::Mutex;

use async_trait::async_trait;
use warden_protocol::KeyName;

use super::{ApiKey, SealKey, SecretError, SecretStore};

#[derive(Debug)]
pub struct MemoryStore {
    keys: Mutex<HashMap<KeyName, ApiKey>>,
    entries: Mutex<HashMap<String, String>>,
    seal: SealKey,
}

impl Default for MemoryStore {
    fn default() -> Self {
        Self { keys: Mutex::default(), entries: Mutex::default(), seal: SealKey::random() }
    }
}

impl MemoryStore {
    pub fn new() -> Self {
        Self::default()
    }

    /// Holds `key` under `name` (a key already checked not to be empty).
    pub fn put(&self, name: KeyName, key: ApiKey) {
        self.lock().insert(name, key);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<KeyName, ApiKey>> {
        // A poisoned map of strings is still a valid map.
        self.keys.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[async_trait]
impl SecretStore for MemoryStore {
    async fn get(&self, name: KeyName) -> Result<Option<ApiKey>, SecretError> {
        Ok(self.lock().get(&name).cloned())
    }

    async fn set(&self, name: KeyName, value: &str) -> Result<(), SecretError> {
        let key = ApiKey::new(value).ok_or(SecretError::Empty)?;
        self.lock().insert(name, key);
        Ok(())
    }

    async fn delete(&self, name: KeyName) -> Result<(), SecretError> {
        self.lock().remove(&name);
        Ok(())
    }

    fn settings_seal_key(&self) -> Result<SealKey, SecretError> {
        Ok(self.seal.clone())
    }

    async fn get_entry(&self, account: &str) -> Result<Option<String>, SecretError> {
        Ok(self.entries().get(account).cloned())
    }

    async fn set_entry(&self, account: &str, value: &str) -> Result<(), SecretError> {
        if value.len() > super::MAX_ENTRY_BYTES {
            return Err(SecretError::Unavailable("a keychain entry of Warden's is too long".into()));
        }
        self.entries().insert(account.to_owned(), value.to_owned());
        Ok(())
    }

    async fn delete_entry(&self, account: &str) -> Result<(), SecretError> {
        self.entries().remove(account);
        Ok(())
    }
}

impl MemoryStore {
    fn entries(&self) -> std::sync::MutexGuard<'_, HashMap<String, String>> {
        self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// How many entries of other secrets it holds (tests look at how tokens were stored).
    pub fn entry_count(&self) -> usize {
        self.entries().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn round_trip() {
        let store = MemoryStore::new();
        assert!(!store.is_set(KeyName::Anthropic).await.unwrap());
        store.set(KeyName::Anthropic, "sk-1").await.unwrap();
        assert_eq!(store.get(KeyName::Anthropic).await.unwrap().unwrap().expose(), "sk-1");
        assert_eq!(store.set(KeyName::Openai, " ").await, Err(SecretError::Empty));
        store.delete(KeyName::Anthropic).await.unwrap();
        store.delete(KeyName::Anthropic).await.unwrap();
        assert!(store.get(KeyName::Anthropic).await.unwrap().is_none());
    }
}

//! The keychain front: which keys are set, and setting or deleting one. The values never leave
//! the secret store except into a provider's request.

use warden_protocol::{KeyName, KeyStatus};

use super::Engine;
use crate::secrets::SecretError;

impl Engine {
    pub async fn key_status(&self) -> Vec<KeyStatus> {
        let mut out = Vec::with_capacity(KeyName::ALL.len());
        for name in KeyName::ALL {
            let is_set = self.secrets.is_set(name).await.unwrap_or(false);
            out.push(KeyStatus { name, is_set });
        }
        out
    }

    pub async fn set_key(&self, name: KeyName, value: &str) -> Result<(), SecretError> {
        self.secrets.set(name, value).await
    }

    pub async fn delete_key(&self, name: KeyName) -> Result<(), SecretError> {
        self.secrets.delete(name).await
    }
}

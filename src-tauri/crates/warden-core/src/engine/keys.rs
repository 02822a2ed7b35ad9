//! The keychain front: which keys are set, and setting or deleting one. The values never leave
//! the secret store except into a provider's request.

use std::time::UNIX_EPOCH;

use warden_protocol::{KeyCheck, KeyName, KeyStatus, ProviderId};

use super::Engine;
use crate::secrets::{env_keys, verdict, ApiKey, SecretError};

/// The keys an engine driven from another machine works with ([`Engine::remote`]).
pub enum KeySource {
    /// Those the other side sent, held in memory; this machine's environment is not read for keys.
    Sent(Vec<(KeyName, String)>),
    /// This machine's environment only: the user said so, and the other side sent none.
    RemoteEnvironment,
}

impl KeySource {
    pub(super) fn into_from(self) -> KeysFrom {
        match self {
            Self::Sent(_) => KeysFrom::Store,
            Self::RemoteEnvironment => KeysFrom::Environment,
        }
    }
}

/// Where [`Engine::key`] reads a provider key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum KeysFrom {
    /// A local engine: the environment, else the keychain.
    EnvironmentThenKeychain,
    /// The secret store only (the keys a remote engine was sent).
    Store,
    /// The environment only.
    Environment,
}

impl Engine {
    /// The key `name` as a request would use it, or `None` when it is not set.
    pub(super) async fn key(&self, name: KeyName) -> Result<Option<ApiKey>, SecretError> {
        match self.keys_from {
            KeysFrom::EnvironmentThenKeychain => {
                crate::secrets::resolve_key(self.secrets.as_ref(), name).await
            }
            KeysFrom::Store => self.secrets.get(name).await,
            KeysFrom::Environment => Ok(env_keys::env_key(name.env_var())),
        }
    }

    /// Which keys are set, and for each what its provider said the last time this run sent it
    /// (the key as requests use it: the keychain's, else the environment's).
    pub async fn key_status(&self) -> Vec<KeyStatus> {
        let mut out = Vec::with_capacity(KeyName::ALL.len());
        for name in KeyName::ALL {
            // One keychain read: whether it holds the key, and (unless the environment's wins, as
            // in `resolve_key`) the key whose verdict is shown.
            let stored = self.secrets.get(name).await.ok().flatten();
            let is_set = stored.is_some();
            let key = match self.keys_from {
                KeysFrom::EnvironmentThenKeychain => env_keys::env_key(name.env_var()).or(stored),
                KeysFrom::Store => stored,
                KeysFrom::Environment => env_keys::env_key(name.env_var()),
            };
            let last_check = key.as_ref().and_then(verdict::last).map(|v| KeyCheck {
                accepted: v.accepted,
                at_ms: v
                    .at
                    .duration_since(UNIX_EPOCH)
                    .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
            });
            out.push(KeyStatus { name, is_set, last_check });
        }
        out
    }

    pub async fn set_key(&self, name: KeyName, value: &str) -> Result<(), SecretError> {
        self.secrets.set(name, value).await
    }

    pub async fn delete_key(&self, name: KeyName) -> Result<(), SecretError> {
        self.secrets.delete(name).await
    }

    /// The keys a session of `provider` on another machine needs (the provider's and the web
    /// search's, as requests here would use them: the environment's, else the keychain's), for
    /// the link to carry to the remote engine's memory. A key that is not set is left out: the
    /// remote engine then says it is missing, as this one would.
    pub async fn keys_for_remote(&self, provider: ProviderId) -> Vec<(KeyName, String)> {
        let mut keys = Vec::new();
        for name in super::providers::key_name(provider).into_iter().chain([KeyName::Brave]) {
            match self.key(name).await {
                Ok(Some(key)) => keys.push((name, key.expose().to_owned())),
                Ok(None) => {}
                Err(error) => tracing::debug!(%error, ?name, "keychain unavailable"),
            }
        }
        keys
    }

    /// The secrets the MCP servers of `settings` name (`keychain:NAME`), as kept in this
    /// machine's keychain, for the link to carry to the remote engine's memory: its servers run
    /// there, and its keychain is not the user's. One not kept is left out: the server there then
    /// says it is missing, as it would here.
    pub async fn mcp_secrets_for_remote(
        &self,
        settings: &warden_protocol::Settings,
    ) -> Vec<(String, String)> {
        let names: std::collections::BTreeSet<String> = settings
            .mcp_servers
            .values()
            .filter(|config| !config.disabled)
            .flat_map(crate::mcp::secrets::named_in)
            .collect();
        let mut secrets = Vec::new();
        for name in names {
            match crate::mcp::secrets::kept(self.secrets.as_ref(), &name).await {
                Ok(Some(value)) => secrets.push((name, value)),
                Ok(None) => {}
                Err(error) => tracing::debug!(%error, %name, "keychain unavailable"),
            }
        }
        secrets
    }
}

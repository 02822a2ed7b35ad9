//! The sign-ins (OAuth) of the user's HTTP MCP servers, carried to a remote engine for a session:
//! read from this machine's keychain, sent without their refresh tokens (refreshing there would
//! spend the one kept here where the server rotates them), and held there in the engine's memory.

use rmcp::transport::auth::{CredentialStore, StoredCredentials};
use warden_protocol::RemoteMcpSignIn;

use super::Engine;
use crate::mcp::auth::oauth::KeychainCredentials;

/// `credentials` as JSON without the refresh token; `None` when they hold no token.
pub(crate) fn carried(credentials: &StoredCredentials) -> Option<String> {
    credentials.token_response.as_ref()?;
    let mut value = serde_json::to_value(credentials).ok()?;
    if let Some(token) = value.get_mut("token_response").and_then(serde_json::Value::as_object_mut) {
        token.remove("refresh_token");
    }
    serde_json::to_string(&value).ok()
}

impl Engine {
    /// The sign-ins kept here for the HTTP servers of `settings` that are on, for the link to
    /// carry: each without its refresh token. A server not signed in to is left out (the server
    /// there then says it needs a sign-in, as it would here).
    pub async fn mcp_sign_ins_for_remote(
        &self,
        settings: &warden_protocol::Settings,
    ) -> Vec<RemoteMcpSignIn> {
        let mut sign_ins = Vec::new();
        for (server, config) in settings.mcp_servers.iter().filter(|(_, config)| !config.disabled) {
            let Some(url) = &config.url else { continue };
            let kept = KeychainCredentials::new(self.secrets.clone(), server, url);
            match kept.load().await {
                Ok(Some(credentials)) => {
                    if let Some(credentials) = carried(&credentials) {
                        sign_ins.push(RemoteMcpSignIn {
                            server: server.clone(),
                            url: url.clone(),
                            credentials,
                        });
                    }
                }
                Ok(None) => {}
                Err(error) => tracing::debug!(%error, %server, "keychain unavailable"),
            }
        }
        sign_ins
    }

    /// Hold a sign-in the face sent (in this engine's memory store: its servers find it there as
    /// they find a sign-in kept in the keychain).
    pub async fn keep_mcp_sign_in(&self, sign_in: &RemoteMcpSignIn) -> Result<(), String> {
        let credentials: StoredCredentials =
            serde_json::from_str(&sign_in.credentials).map_err(|e| format!("not credentials: {e}"))?;
        let kept = KeychainCredentials::new(self.secrets.clone(), &sign_in.server, &sign_in.url);
        kept.save(credentials).await.map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sign_in_crosses_without_its_refresh_token_and_none_without_a_token() {
        let with_token: StoredCredentials = serde_json::from_value(serde_json::json!({
            "client_id": "warden",
            "token_response": {
                "access_token": "at-123", "token_type": "bearer", "expires_in": 3600,
                "refresh_token": "rt-secret-456"
            },
            "granted_scopes": ["mcp"],
            "token_received_at": 1_700_000_000u64
        }))
        .unwrap();
        let sent = carried(&with_token).unwrap();
        assert!(sent.contains("at-123"), "{sent}");
        assert!(!sent.contains("rt-secret-456") && !sent.contains("refresh_token"), "{sent}");
        let back: StoredCredentials = serde_json::from_str(&sent).unwrap();
        assert!(back.token_response.is_some(), "it reads back as credentials");

        let registered_only = StoredCredentials::new("warden".into(), None, Vec::new(), None);
        assert_eq!(carried(&registered_only), None);
    }
}

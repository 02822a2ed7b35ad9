//! Signing in to an MCP server over HTTP with OAuth 2.1, as the MCP authorization spec has it:
//! discovery from the server's 401 (protected-resource and authorization-server metadata), dynamic
//! client registration, PKCE, the user's browser and a loopback redirect. `rmcp`'s `auth` does the
//! protocol (discovery with one allowance, [`super::discovery`]); Warden keeps the tokens (and
//! refresh tokens) in the OS keychain, never in a file, split across entries when they are long
//! ([`crate::secrets::chunked`]).

use std::sync::Arc;

use async_trait::async_trait;
use rmcp::transport::auth::{
    AuthError, AuthorizationManager, AuthorizationMetadata, AuthorizationRequest, AuthorizationSession,
    CredentialStore, OAuthState, OAuthTokenResponse, StoredCredentials,
};
use sha2::{Digest, Sha256};

use crate::mcp::error::McpError;
use crate::mcp::server::Origin;
use crate::secrets::{chunked, SecretStore};

/// Where an HTTP server's OAuth credentials live: the keychain entry of that server at that URL
/// (another URL under the same name signs in afresh).
#[derive(Clone)]
pub struct KeychainCredentials {
    store: Arc<dyn SecretStore>,
    account: String,
}

impl KeychainCredentials {
    pub fn new(store: Arc<dyn SecretStore>, server: &str, url: &str) -> Self {
        let digest = hex::encode(&Sha256::digest(url.as_bytes())[..6]);
        Self { store, account: format!("mcp-oauth/{server}/{digest}") }
    }

    /// The credentials of the server `server` of `origin` at `url`. A project's server keeps its
    /// sign-in apart from the user's own (`project:` cannot be part of a server name): a
    /// repository naming a server and address the user once signed in to does not get that
    /// sign-in's tokens.
    pub fn of(store: Arc<dyn SecretStore>, server: &str, origin: Origin, url: &str) -> Self {
        match origin {
            Origin::User => Self::new(store, server, url),
            Origin::Project => Self::new(store, &format!("project:{server}"), url),
        }
    }

    pub async fn has_tokens(&self) -> bool {
        matches!(self.load().await, Ok(Some(c)) if c.token_response.is_some())
    }

    /// Forget the server's tokens (sign out).
    pub async fn forget(&self) -> Result<(), McpError> {
        chunked::delete(self.store.as_ref(), &self.account).await.map_err(|e| McpError::SignIn(e.to_string()))
    }

    /// Keep a token Warden obtained by itself (a machine client's, an enterprise sign-in's) as a
    /// person's sign-in is kept: for `client_id`, with the scopes granted and the issuer of the
    /// authorization server that granted it.
    pub async fn keep_token(
        &self,
        client_id: &str,
        token: OAuthTokenResponse,
        scopes: Vec<String>,
        issuer: Option<String>,
    ) -> Result<(), McpError> {
        let stored = StoredCredentials::new(client_id.to_owned(), Some(token), scopes, Some(now_secs()))
            .with_issuer(issuer);
        self.save(stored).await.map_err(|e| McpError::SignIn(e.to_string()))
    }
}

/// Seconds since the epoch, as tokens and assertions count time.
pub(super) fn now_secs() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

fn store_error(error: impl std::fmt::Display) -> AuthError {
    AuthError::CredentialStoreError(error.to_string())
}

#[async_trait]
impl CredentialStore for KeychainCredentials {
    async fn load(&self) -> Result<Option<StoredCredentials>, AuthError> {
        match chunked::load(self.store.as_ref(), &self.account).await.map_err(store_error)? {
            Some(json) => serde_json::from_str(&json).map(Some).map_err(store_error),
            None => Ok(None),
        }
    }

    async fn save(&self, credentials: StoredCredentials) -> Result<(), AuthError> {
        let json = serde_json::to_string(&credentials).map_err(store_error)?;
        chunked::save(self.store.as_ref(), &self.account, &json).await.map_err(store_error)
    }

    async fn clear(&self) -> Result<(), AuthError> {
        chunked::delete(self.store.as_ref(), &self.account).await.map_err(store_error)
    }
}

/// Sends the user to the authorization server's page and brings back where it sent them.
#[async_trait]
pub trait Authorizer: Send + Sync {
    /// The address the authorization server sends the user back to.
    fn redirect_uri(&self) -> String;
    /// Show the user `url`; the address they were sent back to (with `code` and `state`).
    async fn authorize(&self, url: &str) -> Result<String, String>;
}

/// A manager for `url` whose credentials are `credentials`. Private addresses are allowed for the
/// metadata a server names (a company's own sign-in server); loopback only for a loopback server.
pub async fn manager(url: &str, credentials: KeychainCredentials) -> Result<AuthorizationManager, McpError> {
    crate::mcp::tls::install_tls();
    let mut manager = AuthorizationManager::new_allowing_private_addresses(url)
        .await
        .map_err(|e| McpError::SignIn(e.to_string()))?;
    manager.set_credential_store(credentials);
    Ok(manager)
}

/// A manager for `url` whose authorization server is already found ([`super::discovery`], with
/// its allowance), and that server's metadata; `challenge` is the server's `WWW-Authenticate` when
/// it sent one. Every sign-in and every connection with kept tokens starts here, so they all find
/// the same server the same way — but for the client-credentials grant with a client secret, where
/// rmcp's own call finds the server again by itself, without the allowance.
pub async fn discovered(
    url: &str,
    credentials: KeychainCredentials,
    challenge: Option<&str>,
) -> Result<(AuthorizationManager, AuthorizationMetadata), McpError> {
    let mut manager = manager(url, credentials).await?;
    let metadata = super::discovery::resolve(&manager, url, challenge).await?;
    manager.set_metadata(metadata.clone());
    Ok((manager, metadata))
}

/// A client the server's administrator registered for Warden (when the server does not let
/// clients register themselves).
#[derive(Clone)]
pub struct Registered {
    pub client_id: String,
    pub client_secret: Option<String>,
    /// The client's private key (PEM) and what it signs with, for a signed JWT instead of a secret.
    pub private_key: Option<(String, super::jwt::Algorithm)>,
}

impl std::fmt::Debug for Registered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registered")
            .field("client_id", &self.client_id)
            .field("client_secret", &self.client_secret.as_ref().map(|_| "[redacted]"))
            .field("private_key", &self.private_key.as_ref().map(|(_, algorithm)| algorithm))
            .finish()
    }
}

/// Who Warden is to the authorization server: a client registered for it, or the address of a
/// client ID metadata document (SEP-991) where the server accepts those; with neither (or where the
/// server takes neither), Warden registers itself (dynamic client registration).
#[derive(Debug, Clone, Copy, Default)]
pub struct Identity<'a> {
    pub registered: Option<&'a Registered>,
    pub metadata_url: Option<&'a str>,
}

/// Sign in to the server at `url`: the whole OAuth flow, the tokens saved in `credentials`.
/// `challenge` is the server's `WWW-Authenticate` from its 401 or 403, when there was one (it can
/// name the metadata and the scopes a call needs).
pub async fn sign_in(
    url: &str,
    credentials: KeychainCredentials,
    challenge: Option<&str>,
    identity: Identity<'_>,
    authorizer: &dyn Authorizer,
) -> Result<(), McpError> {
    let failed = |e: AuthError| McpError::SignIn(e.to_string());
    let (manager, _) = discovered(url, credentials, challenge).await?;
    let mut request = AuthorizationRequest::new(authorizer.redirect_uri()).with_client_name("Warden");
    if let Some(challenge) = challenge {
        request = request.with_challenge(challenge);
    }
    if let Some(metadata_url) = identity.metadata_url {
        request = request.with_client_metadata_url(metadata_url);
    }
    if let Some(client) = identity.registered {
        request = request.with_preregistered_client(&client.client_id);
        if let Some(secret) = &client.client_secret {
            request = request.with_client_secret(secret);
        }
    }
    let session = AuthorizationSession::new(manager, request).await.map_err(|(_, e)| failed(e))?;
    let mut state = OAuthState::Session(session);
    let page = state.get_authorization_url().await.map_err(failed)?;
    let back = authorizer.authorize(&page).await.map_err(McpError::SignIn)?;
    state.handle_callback_url(&back).await.map_err(failed)?;
    Ok(())
}

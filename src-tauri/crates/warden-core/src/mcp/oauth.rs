//! Signing in to an MCP server over HTTP with OAuth 2.1, as the MCP authorization spec has it:
//! discovery from the server's 401 (protected-resource and authorization-server metadata), dynamic
//! client registration, PKCE, the user's browser and a loopback redirect. `rmcp`'s `auth` does the
//! protocol; Warden keeps the tokens (and refresh tokens) in the OS keychain, never in a file,
//! split across entries when they are long ([`crate::secrets::chunked`]).

use std::collections::BTreeMap;
use std::sync::Arc;

use async_trait::async_trait;
use rmcp::transport::auth::{
    AuthError, AuthorizationManager, AuthorizationRequest, ClientCredentialsConfig, CredentialStore,
    OAuthState, StoredCredentials,
};
use sha2::{Digest, Sha256};
use warden_protocol::McpOAuthClient;

use super::connection::McpError;
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

    pub async fn has_tokens(&self) -> bool {
        matches!(self.load().await, Ok(Some(c)) if c.token_response.is_some())
    }

    /// Forget the server's tokens (sign out).
    pub async fn forget(&self) -> Result<(), McpError> {
        chunked::delete(self.store.as_ref(), &self.account).await.map_err(|e| McpError::SignIn(e.to_string()))
    }
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
    super::connection::install_tls();
    let mut manager = AuthorizationManager::new_allowing_private_addresses(url)
        .await
        .map_err(|e| McpError::SignIn(e.to_string()))?;
    manager.set_credential_store(credentials);
    Ok(manager)
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

/// The client an entry names, its secret taken from the keychain when it says `keychain:NAME`.
pub async fn registered(
    client: &McpOAuthClient,
    secrets: Option<&Arc<dyn SecretStore>>,
) -> Result<Registered, McpError> {
    let resolve = |field: &'static str, value: &Option<String>| {
        let named: BTreeMap<String, String> = value.iter().map(|v| (field.to_owned(), v.clone())).collect();
        async move { Ok::<_, McpError>(super::secrets::resolve(&named, secrets).await?.remove(field)) }
    };
    let client_secret = resolve("clientSecret", &client.client_secret).await?;
    let private_key = match resolve("privateKey", &client.private_key).await? {
        Some(pem) => {
            let name = client.signing_algorithm.as_deref().unwrap_or("ES256");
            Some((pem, super::jwt::Algorithm::parse(name).map_err(McpError::SignIn)?))
        }
        None => None,
    };
    Ok(Registered { client_id: client.client_id.clone(), client_secret, private_key })
}

/// Sign in to the server at `url`: the whole OAuth flow, the tokens saved in `credentials`.
/// `challenge` is the server's `WWW-Authenticate` from its 401 or 403, when there was one (it can
/// name the metadata and the scopes a call needs).
pub async fn sign_in(
    url: &str,
    credentials: KeychainCredentials,
    challenge: Option<&str>,
    registered: Option<&Registered>,
    authorizer: &dyn Authorizer,
) -> Result<(), McpError> {
    let failed = |e: AuthError| McpError::SignIn(e.to_string());
    let mut state = OAuthState::Unauthorized(manager(url, credentials).await?);
    let mut request = AuthorizationRequest::new(authorizer.redirect_uri()).with_client_name("Warden");
    if let Some(challenge) = challenge {
        request = request.with_challenge(challenge);
    }
    if let Some(client) = registered {
        request = request.with_preregistered_client(&client.client_id);
        if let Some(secret) = &client.client_secret {
            request = request.with_client_secret(secret);
        }
    }
    state.start_authorization(request).await.map_err(failed)?;
    let page = state.get_authorization_url().await.map_err(failed)?;
    let back = authorizer.authorize(&page).await.map_err(McpError::SignIn)?;
    state.handle_callback_url(&back).await.map_err(failed)?;
    Ok(())
}

/// Sign in to the server at `url` as `client` itself (the OAuth client-credentials grant,
/// SEP-1046: a machine account, no user and no browser), with its private key when it has one
/// (a signed JWT, `private_key_jwt`) and else its secret; the token is saved in `credentials`. The
/// token is asked for the server's own address (`resource`), as the MCP authorization spec requires.
pub async fn sign_in_as_client(
    url: &str,
    credentials: KeychainCredentials,
    client: &Registered,
    scopes: &[String],
) -> Result<(), McpError> {
    if let Some((key, algorithm)) = &client.private_key {
        return sign_in_with_key(url, credentials, &client.client_id, key, *algorithm, scopes).await;
    }
    let Some(secret) = &client.client_secret else {
        return Err(McpError::SignIn(
            "signing in as a client (`client_credentials`) needs the client's secret (`clientSecret`) or \
             private key (`privateKey`)"
                .to_owned(),
        ));
    };
    let config = ClientCredentialsConfig::ClientSecret {
        client_id: client.client_id.clone(),
        client_secret: secret.clone(),
        scopes: scopes.to_vec(),
        resource: Some(url.to_owned()),
    };
    let mut state = OAuthState::Unauthorized(manager(url, credentials).await?);
    state.authenticate_client_credentials(config).await.map_err(|e| McpError::SignIn(e.to_string()))
}

/// The client-credentials grant with a signed JWT instead of a secret (RFC 7523 §2.2): the
/// authorization server found as for any sign-in, the assertion addressed to it, the token request
/// sent to its token endpoint (https, or http between loopback addresses: a key's assertion is not
/// sent in the clear to another machine).
async fn sign_in_with_key(
    url: &str,
    credentials: KeychainCredentials,
    client_id: &str,
    key: &str,
    algorithm: super::jwt::Algorithm,
    scopes: &[String],
) -> Result<(), McpError> {
    let failed = |e: String| McpError::SignIn(e);
    let manager = manager(url, credentials.clone()).await?;
    let metadata = manager.resolve_metadata().await.map_err(|e| failed(e.to_string()))?.metadata;
    let endpoint = reqwest::Url::parse(&metadata.token_endpoint).map_err(|e| {
        failed(format!("the token endpoint `{}` is not an address: {e}", metadata.token_endpoint))
    })?;
    let server = reqwest::Url::parse(url).map_err(|e| failed(e.to_string()))?;
    if !(endpoint.scheme() == "https" || is_loopback(&endpoint) && is_loopback(&server)) {
        return Err(failed(format!(
            "the token endpoint `{endpoint}` is not https: the signed assertion is not sent"
        )));
    }
    let audience = metadata.issuer.clone().unwrap_or_else(|| metadata.token_endpoint.clone());
    let assertion =
        super::jwt::client_assertion(client_id, &audience, key, algorithm, now_secs()).map_err(failed)?;
    let form = {
        let mut form = url::form_urlencoded::Serializer::new(String::new());
        form.append_pair("grant_type", "client_credentials")
            .append_pair("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
            .append_pair("client_assertion", &assertion)
            .append_pair("resource", url);
        if !scopes.is_empty() {
            form.append_pair("scope", &scopes.join(" "));
        }
        form.finish()
    };
    let answer = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(std::time::Duration::from_secs(30))
        .build()
        .map_err(|e| failed(e.to_string()))?
        .post(endpoint)
        .header("content-type", "application/x-www-form-urlencoded")
        .header("accept", "application/json")
        .body(form)
        .send()
        .await
        .map_err(|e| failed(format!("the token request failed: {e}")))?;
    let status = answer.status();
    let body = answer.text().await.map_err(|e| failed(e.to_string()))?;
    if !status.is_success() {
        let said: String = body.chars().take(300).collect();
        return Err(failed(format!(
            "the authorization server refused the signed assertion ({status}): {said}"
        )));
    }
    let token: rmcp::transport::auth::OAuthTokenResponse =
        serde_json::from_str(&body).map_err(|e| failed(format!("the token answer is not a token: {e}")))?;
    let granted_scopes = serde_json::from_str::<serde_json::Value>(&body)
        .ok()
        .and_then(|answer| {
            answer["scope"].as_str().map(|s| s.split_whitespace().map(str::to_owned).collect())
        })
        .unwrap_or_default();
    let stored = StoredCredentials::new(client_id.to_owned(), Some(token), granted_scopes, Some(now_secs()))
        .with_issuer(metadata.issuer);
    credentials.save(stored).await.map_err(|e| failed(e.to_string()))
}

fn is_loopback(address: &reqwest::Url) -> bool {
    match address.host() {
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

fn now_secs() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use warden_protocol::McpOAuthGrant;

    use super::*;
    use crate::secrets::MemoryStore;

    fn client(secret: Option<&str>) -> McpOAuthClient {
        McpOAuthClient {
            client_id: "warden-ci".to_owned(),
            client_secret: secret.map(str::to_owned),
            private_key: None,
            signing_algorithm: None,
            grant: McpOAuthGrant::ClientCredentials,
            scopes: Vec::new(),
        }
    }

    #[tokio::test]
    async fn an_entrys_client_secret_comes_from_the_keychain_it_names() {
        let store: Arc<dyn SecretStore> = Arc::new(MemoryStore::new());
        super::super::secrets::keep(store.as_ref(), "ci-secret", "s3cret").await.unwrap();
        let kept = registered(&client(Some("keychain:ci-secret")), Some(&store)).await.unwrap();
        assert_eq!((kept.client_id.as_str(), kept.client_secret.as_deref()), ("warden-ci", Some("s3cret")));
        let missing = registered(&client(Some("keychain:nope")), Some(&store)).await.unwrap_err();
        assert!(missing.to_string().contains("warden mcp secret nope"), "{missing}");
        assert_eq!(registered(&client(None), Some(&store)).await.unwrap().client_secret, None);

        super::super::secrets::keep(store.as_ref(), "ci-key", "-----BEGIN PRIVATE KEY-----").await.unwrap();
        let keyed = McpOAuthClient { private_key: Some("keychain:ci-key".to_owned()), ..client(None) };
        let with_key = registered(&keyed, Some(&store)).await.unwrap();
        assert_eq!(
            with_key.private_key,
            Some(("-----BEGIN PRIVATE KEY-----".to_owned(), super::super::jwt::Algorithm::Es256)),
            "ES256 unless the entry says otherwise"
        );
        assert!(!format!("{with_key:?}").contains("BEGIN"), "the key is not in its debug form");
        let hs = McpOAuthClient { signing_algorithm: Some("HS256".to_owned()), ..keyed };
        assert!(registered(&hs, Some(&store)).await.unwrap_err().to_string().contains("ES256 or RS256"));
    }

    #[tokio::test]
    async fn signing_in_as_a_client_without_its_secret_says_so_before_any_request() {
        let store: Arc<dyn SecretStore> = Arc::new(MemoryStore::new());
        let credentials = KeychainCredentials::new(store, "ci", "http://127.0.0.1:9/mcp");
        let without =
            Registered { client_id: "warden-ci".to_owned(), client_secret: None, private_key: None };
        let refused =
            sign_in_as_client("http://127.0.0.1:9/mcp", credentials, &without, &[]).await.unwrap_err();
        assert!(
            refused.to_string().contains("clientSecret") && refused.to_string().contains("privateKey"),
            "{refused}"
        );
    }
}

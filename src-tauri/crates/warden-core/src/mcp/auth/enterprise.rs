//! Enterprise-managed sign-in (SEP-990, "cross-app access"): no browser and no consent page. The
//! user's ID token from the company's identity provider is exchanged at that provider for an
//! identity assertion grant (ID-JAG, RFC 8693 token exchange) addressed to the MCP server's
//! authorization server and bound to the server's address; the authorization server exchanges the
//! grant for the server's token (RFC 7523 JWT bearer), Warden proving itself there as the client
//! registered for it. `rmcp`'s `enterprise` module makes both exchanges (https, or http between
//! loopback addresses; no redirects; the bindings of each answer checked); Warden finds the
//! authorization server as for any sign-in, takes the secrets from the keychain, and keeps the
//! token like a person's sign-in ([`KeychainCredentials`]).

use std::sync::Arc;

use oauth2::basic::BasicTokenType;
use oauth2::ClientSecret;
use rmcp::transport::auth::enterprise::{
    EmaAuthorizationServer, EmaClientAuthentication, EmaExchangeRequest,
};
use rmcp::transport::auth::{default_oauth_http_client, OAuthTokenResponse, VendorExtraTokenFields};
use warden_protocol::McpIdentityProvider;

use super::oauth::{discovered, KeychainCredentials, Registered};
use crate::mcp::error::McpError;
use crate::mcp::secrets::resolve_value;
use crate::secrets::SecretStore;

/// An entry's identity provider with its secrets read from the keychain.
pub struct Provider {
    issuer: String,
    token_endpoint: String,
    client_id: String,
    client_secret: Option<String>,
    id_token: String,
}

impl std::fmt::Debug for Provider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Provider")
            .field("issuer", &self.issuer)
            .field("client_id", &self.client_id)
            .finish_non_exhaustive()
    }
}

/// The provider an entry names, its secret and the user's ID token read from the keychain when
/// they say `keychain:NAME`.
pub async fn provider(
    idp: &McpIdentityProvider,
    secrets: Option<&Arc<dyn SecretStore>>,
) -> Result<Provider, McpError> {
    let client_secret = match &idp.client_secret {
        Some(secret) => Some(resolve_value("idp.clientSecret", secret, secrets).await?),
        None => None,
    };
    Ok(Provider {
        issuer: idp.issuer.clone(),
        token_endpoint: idp.token_endpoint.clone(),
        client_id: idp.client_id.clone(),
        client_secret,
        id_token: resolve_value("idp.idToken", &idp.id_token, secrets).await?,
    })
}

/// Sign in to the server at `url` with the user's ID token from `idp`, as `client` at the
/// server's authorization server; the token is saved in `credentials`.
pub async fn sign_in(
    url: &str,
    credentials: KeychainCredentials,
    client: &Registered,
    idp: &Provider,
    scopes: &[String],
) -> Result<(), McpError> {
    let failed = |e: String| McpError::SignIn(e);
    let (_, metadata) = discovered(url, credentials.clone(), None).await?;
    let issuer = metadata.issuer.clone().ok_or_else(|| {
        failed(
            "the authorization server's metadata names no issuer: the identity assertion has no audience"
                .into(),
        )
    })?;
    let authentication = |secret: &Option<String>| match secret {
        Some(secret) => EmaClientAuthentication::ClientSecretBasic(ClientSecret::new(secret.clone())),
        None => EmaClientAuthentication::None,
    };
    let provider = EmaAuthorizationServer::new(&idp.issuer, &idp.token_endpoint, &idp.client_id)
        .with_client_authentication(authentication(&idp.client_secret));
    let resource = EmaAuthorizationServer::new(&issuer, &metadata.token_endpoint, &client.client_id)
        .with_client_authentication(authentication(&client.client_secret));
    let http = default_oauth_http_client().map_err(|e| failed(e.to_string()))?;
    let token = EmaExchangeRequest::new_with_id_token(provider, resource, url, &idp.id_token)
        .with_scopes(scopes.iter().cloned())
        .exchange(&http, &http)
        .await
        .map_err(|e| failed(format!("the enterprise sign-in failed: {e}")))?;
    let mut response = OAuthTokenResponse::new(
        token.access_token,
        BasicTokenType::Bearer,
        VendorExtraTokenFields::default(),
    );
    response.set_expires_in(token.expires_in.as_ref());
    credentials
        .keep_token(&client.client_id, response, token.scopes.into_iter().collect(), Some(issuer))
        .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::secrets::MemoryStore;

    #[tokio::test]
    async fn the_id_token_and_secret_come_from_the_keychain_and_stay_out_of_debug_output() {
        let store: Arc<dyn SecretStore> = Arc::new(MemoryStore::new());
        crate::mcp::secrets::keep(store.as_ref(), "sso", "eyJ.id.token").await.unwrap();
        let idp = McpIdentityProvider {
            issuer: "https://idp.example".to_owned(),
            token_endpoint: "https://idp.example/token".to_owned(),
            client_id: "warden".to_owned(),
            client_secret: None,
            id_token: "keychain:sso".to_owned(),
        };
        let read = provider(&idp, Some(&store)).await.unwrap();
        assert_eq!(read.id_token, "eyJ.id.token");
        assert!(!format!("{read:?}").contains("eyJ"), "{read:?}");
        let missing = McpIdentityProvider { id_token: "keychain:gone".to_owned(), ..idp };
        let said = provider(&missing, Some(&store)).await.unwrap_err().to_string();
        assert!(said.contains("warden mcp secret gone"), "{said}");
    }
}

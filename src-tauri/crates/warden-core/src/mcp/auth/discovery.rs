//! Finding an MCP server's authorization server: `rmcp`'s discovery (protected-resource metadata,
//! then authorization-server metadata, then the 2025-03-26 default endpoints), with one allowance.
//!
//! RFC 8414 asks that the `issuer` a metadata document names be the address it was fetched from,
//! a defence against mix-up attacks: one party's metadata passed off as another's. A 2025-03-26
//! server has no protected-resource metadata; its authorization server's metadata sits at the root
//! of the server's own origin, and some name an issuer under a path of that origin
//! (`https://mcp.example.com/oauth`). There is no second party there: the origin that serves the
//! MCP endpoint serves the metadata and the issuer. So where discovery refuses an issuer only for
//! that — the metadata from the root of the MCP server's own origin, the issuer on that origin —
//! Warden reads the document itself and takes it. An issuer on any other origin is still refused.

use rmcp::transport::auth::{AuthError, AuthorizationManager, AuthorizationMetadata};
use url::Url;

use crate::mcp::error::McpError;

/// The largest metadata document read (they are a few kB).
const MAX_DOCUMENT: usize = 256 * 1024;

/// The authorization server's metadata for the MCP server at `server`, `challenge` being its
/// `WWW-Authenticate` when it sent one.
pub async fn resolve(
    manager: &AuthorizationManager,
    server: &str,
    challenge: Option<&str>,
) -> Result<AuthorizationMetadata, McpError> {
    match manager.resolve_metadata_from_challenge(challenge).await {
        Ok(resolution) => Ok(resolution.metadata),
        Err(AuthError::AuthorizationServerMismatch { expected_issuer, received_issuer })
            if same_origin_root(server, &expected_issuer, &received_issuer) =>
        {
            root_metadata(server, &received_issuer).await
        }
        Err(error) => Err(McpError::SignIn(error.to_string())),
    }
}

/// Whether a refused issuer is the allowance's case: the metadata came from the root of the MCP
/// server's own origin (`expected` is that origin) and `received` is on the same origin.
fn same_origin_root(server: &str, expected: &str, received: &str) -> bool {
    let (Ok(server), Ok(expected), Ok(received)) =
        (Url::parse(server), Url::parse(expected), Url::parse(received))
    else {
        return false;
    };
    let origin = server.origin();
    origin.is_tuple()
        && expected.origin() == origin
        && received.origin() == origin
        && matches!(expected.path(), "" | "/")
        && expected.query().is_none()
}

/// The metadata document at the root of `server`'s origin (OAuth's location, then OpenID
/// Connect's) that names `issuer`.
async fn root_metadata(server: &str, issuer: &str) -> Result<AuthorizationMetadata, McpError> {
    let failed = |message: String| McpError::SignIn(message);
    let mut last = String::new();
    for path in ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"] {
        let mut address = Url::parse(server).map_err(|e| failed(e.to_string()))?;
        address.set_path(path);
        address.set_query(None);
        address.set_fragment(None);
        match fetch(&address).await {
            Ok(metadata) if metadata.issuer.as_deref() == Some(issuer) => return Ok(metadata),
            Ok(metadata) => {
                last = format!(
                    "{address} names the issuer {:?}, not {issuer}",
                    metadata.issuer.unwrap_or_default()
                )
            }
            Err(error) => last = format!("{address}: {error}"),
        }
    }
    Err(failed(format!("the authorization server's metadata could not be read again ({last})")))
}

async fn fetch(address: &Url) -> Result<AuthorizationMetadata, String> {
    let mut answer = crate::provider::http::shared_client()
        .map_err(|e| e.to_string())?
        .get(address.clone())
        .timeout(std::time::Duration::from_secs(30))
        .header("accept", "application/json")
        .send()
        .await
        .map_err(|e| e.to_string())?;
    if !answer.status().is_success() {
        return Err(format!("answered {}", answer.status()));
    }
    let mut body = Vec::new();
    while let Some(chunk) = answer.chunk().await.map_err(|e| e.to_string())? {
        if body.len() + chunk.len() > MAX_DOCUMENT {
            return Err(format!("the document is larger than {MAX_DOCUMENT} bytes"));
        }
        body.extend_from_slice(&chunk);
    }
    serde_json::from_slice(&body).map_err(|e| format!("not authorization server metadata: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_issuer_on_the_servers_own_origin_from_its_root_metadata_is_allowed() {
        let server = "http://127.0.0.1:4000/mcp";
        assert!(same_origin_root(server, "http://127.0.0.1:4000/", "http://127.0.0.1:4000/oauth"));
        assert!(same_origin_root(server, "http://127.0.0.1:4000", "http://127.0.0.1:4000/tenant/a"));
        // Another party's issuer, another port, another scheme: refused as RFC 8414 asks.
        assert!(!same_origin_root(server, "http://127.0.0.1:4000/", "https://evil.example/oauth"));
        assert!(!same_origin_root(server, "http://127.0.0.1:4000/", "http://127.0.0.1:4001/oauth"));
        assert!(!same_origin_root(server, "http://127.0.0.1:4000/", "https://127.0.0.1:4000/oauth"));
        // Metadata that did not come from the server's origin, or not from its root (an
        // authorization server the protected-resource metadata named elsewhere, a tenant's path).
        assert!(!same_origin_root(server, "https://auth.example/", "https://auth.example/oauth"));
        assert!(!same_origin_root(server, "http://127.0.0.1:4000/tenant", "http://127.0.0.1:4000/oauth"));
        assert!(!same_origin_root("not a url", "http://127.0.0.1:4000/", "http://127.0.0.1:4000/oauth"));
    }
}

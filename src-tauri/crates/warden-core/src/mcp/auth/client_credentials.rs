//! Signing in to an MCP server as a client registered for Warden: the client an entry names (its
//! secret or key from the keychain), and the OAuth client-credentials grant (SEP-1046) for a
//! machine account: no user and no browser, Warden proves itself with the client's secret
//! (through `rmcp`) or with a JWT signed by its private key ([`super::jwt`]). The token is kept
//! like a person's sign-in ([`KeychainCredentials`]).

use std::sync::Arc;

use rmcp::transport::auth::{ClientCredentialsConfig, OAuthState, OAuthTokenResponse};
use warden_protocol::{McpOAuthClient, McpOAuthGrant};

use super::jwt;
use super::oauth::{discovered, manager, now_secs, KeychainCredentials, Registered};
use crate::mcp::error::McpError;
use crate::mcp::secrets::resolve_value;
use crate::secrets::SecretStore;

/// The most bytes of a token endpoint's answer read (a token answer is a few KB).
const MAX_TOKEN_ANSWER: usize = 256 * 1024;

/// The client an entry names, its secret taken from the keychain when it says `keychain:NAME`;
/// `None` when it names no client id (only a client metadata document, say).
pub async fn registered(
    client: &McpOAuthClient,
    secrets: Option<&Arc<dyn SecretStore>>,
) -> Result<Option<Registered>, McpError> {
    let Some(client_id) = &client.client_id else {
        return Ok(None);
    };
    let client_secret = match &client.client_secret {
        Some(secret) => Some(resolve_value("clientSecret", secret, secrets).await?),
        None => None,
    };
    let private_key = match &client.private_key {
        Some(key) => {
            let pem = resolve_value("privateKey", key, secrets).await?;
            let name = client.signing_algorithm.as_deref().unwrap_or("ES256");
            Some((pem, jwt::Algorithm::parse(name).map_err(McpError::SignIn)?))
        }
        None => None,
    };
    Ok(Some(Registered { client_id: client_id.clone(), client_secret, private_key }))
}

/// The client an entry signs in as by itself (`client_credentials`): it must name one.
pub async fn machine_client(
    client: &McpOAuthClient,
    secrets: Option<&Arc<dyn SecretStore>>,
) -> Result<Registered, McpError> {
    registered(client, secrets).await?.ok_or_else(|| {
        McpError::SignIn("signing in as a client by itself needs the client's id (`clientId`)".to_owned())
    })
}

/// Whether an entry's client signs in by itself, with no browser and no user at a page: the
/// client-credentials grant, or the enterprise-managed sign-in with the user's ID token.
pub fn signs_in_by_itself(client: &McpOAuthClient) -> bool {
    matches!(client.grant, McpOAuthGrant::ClientCredentials | McpOAuthGrant::Enterprise)
}

/// Sign in to the server at `url` as an entry's client, by itself ([`signs_in_by_itself`]).
pub async fn sign_in_by_itself(
    url: &str,
    credentials: KeychainCredentials,
    client: &McpOAuthClient,
    secrets: Option<&Arc<dyn SecretStore>>,
) -> Result<(), McpError> {
    let registered = machine_client(client, secrets).await?;
    match (client.grant, &client.idp) {
        (McpOAuthGrant::Enterprise, Some(idp)) => {
            let provider = super::enterprise::provider(idp, secrets).await?;
            super::enterprise::sign_in(url, credentials, &registered, &provider, &client.scopes).await
        }
        (McpOAuthGrant::Enterprise, None) => {
            Err(McpError::SignIn("the enterprise sign-in needs the identity provider (`idp`)".to_owned()))
        }
        _ => sign_in_as_client(url, credentials, &registered, &client.scopes).await,
    }
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
    algorithm: jwt::Algorithm,
    scopes: &[String],
) -> Result<(), McpError> {
    let failed = |e: String| McpError::SignIn(e);
    let (_, metadata) = discovered(url, credentials.clone(), None).await?;
    let endpoint = reqwest::Url::parse(&metadata.token_endpoint).map_err(|e| {
        failed(format!("the token endpoint `{}` is not an address: {e}", metadata.token_endpoint))
    })?;
    let server = reqwest::Url::parse(url).map_err(|e| failed(e.to_string()))?;
    if !assertion_may_go_to(&endpoint, &server) {
        return Err(failed(format!(
            "the token endpoint `{endpoint}` is not https: the signed assertion is not sent"
        )));
    }
    let audience = metadata.issuer.clone().unwrap_or_else(|| metadata.token_endpoint.clone());
    let assertion =
        jwt::client_assertion(client_id, &audience, key, algorithm, now_secs()).map_err(failed)?;
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
    let mut answer = crate::provider::http::shared_client()
        .map_err(|e| failed(e.to_string()))?
        .post(endpoint)
        .timeout(std::time::Duration::from_secs(30))
        .header("content-type", "application/x-www-form-urlencoded")
        .header("accept", "application/json")
        .body(form)
        .send()
        .await
        .map_err(|e| failed(format!("the token request failed: {e}")))?;
    let status = answer.status();
    let (body, cut) = crate::provider::http::read_at_most(&mut answer, MAX_TOKEN_ANSWER)
        .await
        .map_err(|e| failed(e.to_string()))?;
    if cut && status.is_success() {
        return Err(failed(format!(
            "the token answer is larger than {} (Warden's limit)",
            crate::provider::http::size_in_words(MAX_TOKEN_ANSWER)
        )));
    }
    let body = String::from_utf8_lossy(&body);
    if !status.is_success() {
        let said: String = body.chars().take(300).collect();
        return Err(failed(format!(
            "the authorization server refused the signed assertion ({status}): {said}"
        )));
    }
    let not_a_token = |e: serde_json::Error| failed(format!("the token answer is not a token: {e}"));
    let answer: serde_json::Value = serde_json::from_str(&body).map_err(not_a_token)?;
    let granted_scopes = answer["scope"]
        .as_str()
        .map(|s| s.split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default();
    let token: OAuthTokenResponse = serde_json::from_value(answer).map_err(not_a_token)?;
    credentials.keep_token(client_id, token, granted_scopes, metadata.issuer).await
}

/// Whether a signed assertion may be sent to `endpoint` for the MCP server at `server`: over https,
/// or over plain http only when both are on this machine (a local test server), never in the
/// clear across a network.
fn assertion_may_go_to(endpoint: &reqwest::Url, server: &reqwest::Url) -> bool {
    endpoint.scheme() == "https" || is_loopback(endpoint) && is_loopback(server)
}

fn is_loopback(address: &reqwest::Url) -> bool {
    match address.host() {
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;
    use crate::secrets::MemoryStore;

    fn client(secret: Option<&str>) -> McpOAuthClient {
        McpOAuthClient {
            client_id: Some("warden-ci".to_owned()),
            client_metadata_url: None,
            client_secret: secret.map(str::to_owned),
            private_key: None,
            signing_algorithm: None,
            grant: McpOAuthGrant::ClientCredentials,
            scopes: Vec::new(),
            idp: None,
        }
    }

    #[tokio::test]
    async fn an_entrys_client_secret_comes_from_the_keychain_it_names() {
        let store: Arc<dyn SecretStore> = Arc::new(MemoryStore::new());
        crate::mcp::secrets::keep(store.as_ref(), "ci-secret", "s3cret").await.unwrap();
        let kept = machine_client(&client(Some("keychain:ci-secret")), Some(&store)).await.unwrap();
        assert_eq!((kept.client_id.as_str(), kept.client_secret.as_deref()), ("warden-ci", Some("s3cret")));
        let missing = machine_client(&client(Some("keychain:nope")), Some(&store)).await.unwrap_err();
        assert!(missing.to_string().contains("warden mcp secret nope"), "{missing}");
        assert_eq!(machine_client(&client(None), Some(&store)).await.unwrap().client_secret, None);
        let unnamed = McpOAuthClient { client_id: None, ..client(None) };
        assert!(registered(&unnamed, Some(&store)).await.unwrap().is_none(), "no id, no registered client");
        let refused = machine_client(&unnamed, Some(&store)).await.unwrap_err();
        assert!(refused.to_string().contains("clientId"), "{refused}");

        crate::mcp::secrets::keep(store.as_ref(), "ci-key", "-----BEGIN PRIVATE KEY-----").await.unwrap();
        let keyed = McpOAuthClient { private_key: Some("keychain:ci-key".to_owned()), ..client(None) };
        let with_key = machine_client(&keyed, Some(&store)).await.unwrap();
        assert_eq!(
            with_key.private_key,
            Some(("-----BEGIN PRIVATE KEY-----".to_owned(), jwt::Algorithm::Es256)),
            "ES256 unless the entry says otherwise"
        );
        assert!(!format!("{with_key:?}").contains("BEGIN"), "the key is not in its debug form");
        let hs = McpOAuthClient { signing_algorithm: Some("HS256".to_owned()), ..keyed };
        assert!(machine_client(&hs, Some(&store)).await.unwrap_err().to_string().contains("ES256 or RS256"));
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

    /// A loopback MCP server's sign-in side: its protected-resource and authorization-server
    /// metadata (the issuer at `http://{server_host}:{port}`), naming its own `/token` under
    /// `endpoint_host` as the token endpoint; `/token` records each request and grants a token.
    /// `0.0.0.0` is not a loopback address to Warden's rule, yet on Linux it reaches this
    /// machine's own listener: a token request the rule should have stopped is seen here, and no
    /// traffic leaves the machine.
    struct SignInServer {
        url: String,
        token_requests: Arc<Mutex<Vec<String>>>,
    }

    async fn sign_in_server(server_host: &str, endpoint_host: &str) -> SignInServer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let origin = format!("http://{server_host}:{port}");
        let url = format!("{origin}/mcp");
        let resource = serde_json::json!({"resource": url, "authorization_servers": [origin]}).to_string();
        let metadata = serde_json::json!({
            "issuer": origin,
            "authorization_endpoint": format!("{origin}/authorize"),
            "token_endpoint": format!("http://{endpoint_host}:{port}/token"),
            "response_types_supported": ["code"],
            "grant_types_supported": ["client_credentials"],
            "token_endpoint_auth_methods_supported": ["private_key_jwt"],
        })
        .to_string();
        let token_requests = Arc::new(Mutex::new(Vec::new()));
        let seen = token_requests.clone();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                let (resource, metadata, seen) = (resource.clone(), metadata.clone(), seen.clone());
                tokio::spawn(async move {
                    let mut request = Vec::new();
                    let mut buf = [0u8; 8192];
                    let complete = |r: &[u8]| {
                        let text = String::from_utf8_lossy(r);
                        let Some((head, body)) = text.split_once("\r\n\r\n") else { return false };
                        let length = head
                            .lines()
                            .find_map(|l| {
                                l.to_ascii_lowercase().strip_prefix("content-length:").map(str::to_owned)
                            })
                            .and_then(|n| n.trim().parse::<usize>().ok())
                            .unwrap_or(0);
                        body.len() >= length
                    };
                    while !complete(&request) {
                        match socket.read(&mut buf).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => request.extend_from_slice(&buf[..n]),
                        }
                    }
                    let request = String::from_utf8_lossy(&request).into_owned();
                    let path = request.split_whitespace().nth(1).unwrap_or("").to_owned();
                    let (status, body) = if path.starts_with("/.well-known/oauth-protected-resource") {
                        ("200 OK", resource)
                    } else if path.starts_with("/.well-known/oauth-authorization-server") {
                        ("200 OK", metadata)
                    } else if path == "/token" {
                        seen.lock().unwrap().push(request);
                        (
                            "200 OK",
                            r#"{"access_token":"granted","token_type":"Bearer","expires_in":3600}"#
                                .to_owned(),
                        )
                    } else {
                        ("404 Not Found", "{}".to_owned())
                    };
                    let answer = format!(
                        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                        body.len()
                    );
                    let _ = socket.write_all(answer.as_bytes()).await;
                    let _ = socket.shutdown().await;
                });
            }
        });
        SignInServer { url, token_requests }
    }

    /// A client whose private key signs its assertion (`private_key_jwt`).
    fn keyed_client() -> Registered {
        use base64::Engine as _;
        use ring::signature::{EcdsaKeyPair, ECDSA_P256_SHA256_FIXED_SIGNING};
        let rng = ring::rand::SystemRandom::new();
        let pkcs8 = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng).unwrap();
        let body = base64::engine::general_purpose::STANDARD.encode(pkcs8.as_ref());
        let pem = format!("-----BEGIN PRIVATE KEY-----\n{body}\n-----END PRIVATE KEY-----\n");
        Registered {
            client_id: "warden-ci".to_owned(),
            client_secret: None,
            private_key: Some((pem, jwt::Algorithm::Es256)),
        }
    }

    /// Sign in with the key to a server at `server_host` whose token endpoint is at `endpoint_host`:
    /// the outcome, the token requests the endpoint got, and whether a token was kept.
    async fn sign_in_with_key_via(
        server_host: &str,
        endpoint_host: &str,
    ) -> (Result<(), McpError>, Vec<String>, bool) {
        let server = sign_in_server(server_host, endpoint_host).await;
        let store: Arc<dyn SecretStore> = Arc::new(MemoryStore::new());
        let credentials = KeychainCredentials::new(store, "ci", &server.url);
        let outcome = sign_in_as_client(&server.url, credentials.clone(), &keyed_client(), &[]).await;
        let requests = server.token_requests.lock().unwrap().clone();
        (outcome, requests, credentials.has_tokens().await)
    }

    #[tokio::test]
    async fn a_signed_assertion_is_never_sent_over_plain_http_to_another_machine() {
        // The token endpoint over plain http at an address that is not loopback.
        let (outcome, requests, kept) = sign_in_with_key_via("127.0.0.1", "0.0.0.0").await;
        let refused = outcome.unwrap_err().to_string();
        assert!(refused.contains("is not https: the signed assertion is not sent"), "{refused}");
        assert!(requests.is_empty(), "the assertion went out over plain http: {requests:?}");
        assert!(!kept);

        // Both on loopback: the assertion is sent, and the token kept.
        for host in ["127.0.0.1", "localhost"] {
            let (outcome, requests, kept) = sign_in_with_key_via(host, host).await;
            outcome.unwrap_or_else(|e| panic!("{host}: {e}"));
            assert_eq!(requests.len(), 1, "{host}");
            assert!(requests[0].contains("client_assertion="), "{}", requests[0]);
            assert!(kept, "{host}");
        }
    }

    /// The rule itself, for the pairs a sign-in cannot reach end to end (rmcp's discovery already
    /// refuses an MCP server at `0.0.0.0` before Warden's rule is asked).
    #[test]
    fn an_assertion_goes_over_https_or_between_loopback_addresses_only() {
        let may = |endpoint: &str, server: &str| {
            assertion_may_go_to(
                &reqwest::Url::parse(endpoint).unwrap(),
                &reqwest::Url::parse(server).unwrap(),
            )
        };
        assert!(may("https://auth.example.com/token", "http://10.0.0.1/mcp"));
        assert!(may("https://127.0.0.1/token", "https://mcp.example.com/mcp"));
        assert!(may("http://127.0.0.1:9/token", "http://localhost:8/mcp"));
        assert!(
            !may("http://auth.example.com/token", "http://127.0.0.1/mcp"),
            "plain http to another machine"
        );
        assert!(
            !may("http://127.0.0.1/token", "http://mcp.example.com/mcp"),
            "loopback endpoint, remote server"
        );
        assert!(!may("http://auth.example.com/token", "https://mcp.example.com/mcp"));
    }

    #[test]
    fn loopback_is_localhost_and_the_loopback_addresses_only() {
        let loopback = |address: &str| is_loopback(&reqwest::Url::parse(address).unwrap());
        for address in [
            "http://localhost:1/",
            "http://LocalHost/",
            "http://127.0.0.1/",
            "http://127.9.8.7/",
            "http://[::1]:4/",
        ] {
            assert!(loopback(address), "{address}");
        }
        for address in [
            "http://0.0.0.0/",
            "http://10.0.0.1/",
            "http://[::]/",
            "http://localhost.example/",
            "http://example.com/",
            "file:///tmp/x",
        ] {
            assert!(!loopback(address), "{address}");
        }
    }
}

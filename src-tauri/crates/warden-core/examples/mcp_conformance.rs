//! The client side of the MCP conformance suite (`@modelcontextprotocol/conformance client`, run by
//! `tests/mcp/conformance.sh`): Warden's MCP client, as its sessions use it, against the suite's
//! test server. The suite appends the server's URL and names the scenario in
//! `MCP_CONFORMANCE_SCENARIO`; this connects over streamable HTTP, lists the tools and calls each
//! one the scenario offers, then ends the session.
// A test driver: a failed unwrap is a failed scenario, and stdout is its log.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

use std::collections::BTreeMap;
use std::sync::Arc;

use async_trait::async_trait;
use serde_json::json;
use warden_core::mcp::auth::oauth::{sign_in, Authorizer, Identity, KeychainCredentials, Registered};
use warden_core::mcp::{
    connect_with, ClientSetup, Connection, Elicitation, Elicitor, McpError, Origin, ServerSpec, Transport,
};
use warden_core::secrets::{MemoryStore, SecretStore};
use warden_core::tool::OutputSink;
use warden_protocol::{McpIdentityProvider, McpOAuthClient, McpOAuthGrant};

/// The user who approves at once: the suite's authorization server redirects straight back, so
/// its page is fetched without following the redirect, and the redirect is where the user lands.
struct ApprovesAtOnce;

#[async_trait]
impl Authorizer for ApprovesAtOnce {
    fn redirect_uri(&self) -> String {
        "http://127.0.0.1:1/callback".to_owned()
    }

    async fn authorize(&self, url: &str) -> Result<String, String> {
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| e.to_string())?;
        let answer = client.get(url).send().await.map_err(|e| e.to_string())?;
        answer
            .headers()
            .get("location")
            .and_then(|l| l.to_str().ok())
            .map(str::to_owned)
            .ok_or_else(|| format!("the authorization page answered {} without a redirect", answer.status()))
    }
}

/// The user who accepts a form as it comes: every field's default filled in.
struct AcceptsDefaults;

#[async_trait]
impl Elicitor for AcceptsDefaults {
    async fn elicit(&self, _server: &str, _message: &str, schema: &serde_json::Value) -> Elicitation {
        let defaults = schema["properties"]
            .as_object()
            .into_iter()
            .flatten()
            .filter_map(|(name, field)| Some((name.clone(), field.get("default")?.clone())))
            .collect();
        Elicitation::Accept(defaults)
    }
}

/// The client ID metadata document this client is known by (SEP-991), as an entry's
/// `clientMetadataUrl` names it: the suite's authorization servers that accept such documents take
/// it as the client id (the address the SDKs' conformance clients use; nothing is fetched from it).
const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";

/// How many times a scenario may send the user to sign in (a server that keeps asking for more
/// must not loop).
const SIGN_INS: usize = 3;

#[tokio::main]
#[allow(clippy::too_many_lines)] // One arm per conformance scenario.
async fn main() {
    let url = std::env::args().next_back().expect("the server URL");
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    println!("scenario {scenario} at {url}");
    let secrets: Arc<dyn SecretStore> = Arc::new(MemoryStore::new());
    let registered = context_client();
    // A machine client (the client-credentials scenarios) is configured as a user would: its
    // secret kept in the keychain and named in the entry.
    let oauth = match &registered {
        Some(client) if scenario.contains("client-credentials") => {
            let context = context();
            let mut entry = McpOAuthClient {
                client_id: Some(client.client_id.clone()),
                client_metadata_url: None,
                client_secret: None,
                private_key: None,
                signing_algorithm: context["signing_algorithm"].as_str().map(str::to_owned),
                grant: McpOAuthGrant::ClientCredentials,
                scopes: Vec::new(),
                idp: None,
            };
            if let Some(key) = context["private_key_pem"].as_str() {
                warden_core::mcp::secrets::keep(secrets.as_ref(), "conformance-key", key).await.unwrap();
                entry.private_key = Some("keychain:conformance-key".to_owned());
            } else {
                let secret = client.client_secret.clone().unwrap_or_default();
                warden_core::mcp::secrets::keep(secrets.as_ref(), "conformance-client", &secret)
                    .await
                    .unwrap();
                entry.client_secret = Some("keychain:conformance-client".to_owned());
            }
            Some(entry)
        }
        // The enterprise-managed sign-in (SEP-990): the user's ID token from the scenario's identity
        // provider, and the client's secret at the server's authorization server, both kept in the
        // keychain and named in the entry.
        Some(client) if scenario.contains("cross-app-access") => {
            let context = context();
            let keep = |name: &'static str, value: String| {
                let secrets = secrets.clone();
                async move { warden_core::mcp::secrets::keep(secrets.as_ref(), name, &value).await.unwrap() }
            };
            keep("conformance-client", client.client_secret.clone().unwrap_or_default()).await;
            keep("conformance-id-token", context["idp_id_token"].as_str().unwrap_or_default().to_owned())
                .await;
            let text = |key: &str| context[key].as_str().unwrap_or_default().to_owned();
            Some(McpOAuthClient {
                client_id: Some(client.client_id.clone()),
                client_metadata_url: None,
                client_secret: Some("keychain:conformance-client".to_owned()),
                private_key: None,
                signing_algorithm: None,
                grant: McpOAuthGrant::Enterprise,
                scopes: Vec::new(),
                idp: Some(McpIdentityProvider {
                    issuer: text("idp_issuer"),
                    token_endpoint: text("idp_token_endpoint"),
                    client_id: text("idp_client_id"),
                    client_secret: None,
                    id_token: "keychain:conformance-id-token".to_owned(),
                }),
            })
        }
        _ => None,
    };
    let spec = ServerSpec {
        name: "conformance".to_owned(),
        transport: Transport::Http { url, headers: BTreeMap::new(), oauth: oauth.map(Box::new) },
        tools: BTreeMap::new(),
        sampling: false,
        origin: Origin::User,
    };
    let root = std::env::current_dir().unwrap();
    let setup = ClientSetup {
        secrets: Some(secrets),
        elicitor: Some(Arc::new(AcceptsDefaults)),
        ..ClientSetup::default()
    };
    let mut sign_ins = 0;
    let mut connection: Option<Connection> = None;
    let mut tool = 0;
    loop {
        let outcome = match &connection {
            None => connect_with(&spec, &root, None, &setup).await.map(|c| {
                connection = Some(c);
            }),
            Some(live) => match live.tools().await {
                Ok(tools) if tool < tools.len() => {
                    let name = tools[tool].name.to_string();
                    let arguments = match name.as_str() {
                        "add_numbers" => json!({"a": 2, "b": 3}),
                        _ => json!({}),
                    };
                    let result = live
                        .call(&name, arguments.as_object().cloned().unwrap_or_default(), OutputSink::none())
                        .await;
                    println!("{name} -> {result:?}");
                    result.map(|_| tool += 1)
                }
                Ok(_) => break,
                Err(error) => Err(error),
            },
        };
        match outcome {
            Ok(()) => {}
            Err(McpError::NeedsSignIn { challenge }) if sign_ins < SIGN_INS => {
                sign_ins += 1;
                println!("signing in (challenge: {challenge:?})");
                let Transport::Http { url, .. } = &spec.transport else { unreachable!() };
                let credentials = KeychainCredentials::new(setup.secrets.clone().unwrap(), &spec.name, url);
                let identity =
                    Identity { registered: registered.as_ref(), metadata_url: Some(CLIENT_METADATA_URL) };
                if let Err(error) =
                    sign_in(url, credentials, challenge.as_deref(), identity, &ApprovesAtOnce).await
                {
                    println!("sign-in failed: {error}");
                    return;
                }
                // The next connection (or call) uses the new token.
                if let Some(old) = connection.take() {
                    old.close().await;
                }
            }
            Err(error) => {
                println!("stopped: {error}");
                break;
            }
        }
    }
    let Some(connection) = connection else { return };
    connection.close().await;
}

/// The scenario's context (`MCP_CONFORMANCE_CONTEXT`), `null` when it has none.
fn context() -> serde_json::Value {
    std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|json| serde_json::from_str(&json).ok())
        .unwrap_or_default()
}

/// A client registered in advance, from the scenario's context (`client_id`, `client_secret`).
fn context_client() -> Option<Registered> {
    let context = context();
    Some(Registered {
        client_id: context["client_id"].as_str()?.to_owned(),
        client_secret: context["client_secret"].as_str().map(str::to_owned),
        private_key: None,
    })
}

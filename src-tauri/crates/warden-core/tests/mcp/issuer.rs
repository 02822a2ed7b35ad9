//! Which authorization server a sign-in trusts, against a real loopback HTTP server with no
//! protected-resource metadata (a 2025-03-26 server): metadata at the root of the server's origin
//! naming an issuer under a path of that origin is taken; naming an issuer on another origin, it is
//! refused before the user is sent anywhere (RFC 8414's defence against mix-up attacks).

use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use serde_json::json;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;
use warden_core::mcp::auth::oauth::{sign_in, Authorizer, Identity, KeychainCredentials};
use warden_core::secrets::MemoryStore;
use warden_testkit::server::read_request;

/// A server whose MCP endpoint wants a sign-in and whose root metadata names `issuer` (`{origin}`
/// in it is the server's own origin), and takes client ID metadata documents when `cimd`. Answers
/// by path; everything else is a 404. Counts the registrations it is sent.
async fn legacy_server(issuer: &str, cimd: bool) -> (String, Arc<Mutex<usize>>, tokio::task::JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    let registrations = Arc::new(Mutex::new(0));
    let counted = registrations.clone();
    let metadata = json!({
        "client_id_metadata_document_supported": cimd,
        "issuer": issuer.replace("{origin}", &origin),
        "authorization_endpoint": format!("{origin}/oauth/authorize"),
        "token_endpoint": format!("{origin}/oauth/token"),
        "registration_endpoint": format!("{origin}/oauth/register"),
        "response_types_supported": ["code"],
        "code_challenge_methods_supported": ["S256"],
    })
    .to_string();
    let task = tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else { return };
            let (metadata, counted) = (metadata.clone(), counted.clone());
            tokio::spawn(async move {
                let Ok(Some(request)) = read_request(&mut socket, &mut Vec::new()).await else { return };
                let (status, extra, body) = match request.path.as_str() {
                    "/mcp" => ("401 Unauthorized", "WWW-Authenticate: Bearer\r\n", String::new()),
                    "/.well-known/oauth-authorization-server" => ("200 OK", "", metadata),
                    "/oauth/register" => {
                        *counted.lock().unwrap() += 1;
                        (
                            "201 Created",
                            "",
                            json!({"client_id": "registered", "redirect_uris": []}).to_string(),
                        )
                    }
                    _ => ("404 Not Found", "", String::new()),
                };
                let answer = format!(
                    "HTTP/1.1 {status}\r\n{extra}content-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = socket.write_all(answer.as_bytes()).await;
            });
        }
    });
    (origin, registrations, task)
}

/// The user, who never gets to sign in: records the page they were sent to.
#[derive(Default)]
struct Records(Mutex<Vec<String>>);

#[async_trait]
impl Authorizer for Records {
    fn redirect_uri(&self) -> String {
        "http://127.0.0.1:1/callback".to_owned()
    }

    async fn authorize(&self, url: &str) -> Result<String, String> {
        self.0.lock().unwrap().push(url.to_owned());
        Err("the test stops at the authorization page".to_owned())
    }
}

async fn try_sign_in(issuer: &str) -> (String, Vec<String>, String) {
    let (origin, _, _server) = legacy_server(issuer, false).await;
    let url = format!("{origin}/mcp");
    let credentials = KeychainCredentials::new(Arc::new(MemoryStore::new()), "legacy", &url);
    let user = Records::default();
    let error = sign_in(&url, credentials, None, Identity::default(), &user).await.unwrap_err().to_string();
    let pages = user.0.lock().unwrap().clone();
    (origin, pages, error)
}

#[tokio::test]
async fn an_issuer_on_the_servers_own_origin_is_taken_and_one_elsewhere_refused() {
    let (origin, pages, error) = try_sign_in("{origin}/oauth").await;
    assert_eq!(pages.len(), 1, "the user is sent to the authorization page: {error}");
    assert!(pages[0].starts_with(&format!("{origin}/oauth/authorize?")), "{}", pages[0]);
    assert!(pages[0].contains("client_id=registered"), "{}", pages[0]);

    let (_, pages, error) = try_sign_in("http://127.0.0.2:9/oauth").await;
    assert!(pages.is_empty(), "sent to sign in at a server that claims another's name: {pages:?}");
    assert!(error.contains("issuer"), "{error}");
}

/// An entry's `clientMetadataUrl` (SEP-991): where the authorization server takes client ID
/// metadata documents, the address is Warden's client id and nothing is registered; where it does
/// not, Warden registers itself as before.
#[tokio::test]
async fn a_client_metadata_document_is_the_client_id_where_the_server_takes_one() {
    const DOCUMENT: &str = "https://warden.example/oauth/client.json";
    for cimd in [true, false] {
        let (origin, registrations, _server) = legacy_server("{origin}", cimd).await;
        let url = format!("{origin}/mcp");
        let credentials = KeychainCredentials::new(Arc::new(MemoryStore::new()), "cimd", &url);
        let user = Records::default();
        let identity = Identity { registered: None, metadata_url: Some(DOCUMENT) };
        let error = sign_in(&url, credentials, None, identity, &user).await.unwrap_err().to_string();
        let pages = user.0.lock().unwrap().clone();
        assert_eq!(pages.len(), 1, "{error}");
        let client_id = url::Url::parse(&pages[0])
            .unwrap()
            .query_pairs()
            .find(|(name, _)| name == "client_id")
            .map(|(_, value)| value.into_owned());
        let registered = *registrations.lock().unwrap();
        if cimd {
            assert_eq!((client_id.as_deref(), registered), (Some(DOCUMENT), 0));
        } else {
            assert_eq!((client_id.as_deref(), registered), (Some("registered"), 1));
        }
    }
}

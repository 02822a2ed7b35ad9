//! A configured server, checked: how Warden reaches it ([`Transport`]) and what the user chose for
//! its tools. Built from the `mcpServers` entries users paste from Claude Desktop, Cursor or codex;
//! everything the entry gets wrong is said in words, never guessed.

use std::collections::BTreeMap;
use std::path::PathBuf;

use warden_protocol::{McpOAuthClient, McpOAuthGrant, McpServerConfig, McpToolChoice};

/// The longest server name Warden accepts (the model sees it inside every tool name).
pub const MAX_SERVER_NAME: usize = 32;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    /// A program Warden starts, speaking JSON-RPC on its stdin/stdout.
    Stdio {
        command: String,
        args: Vec<String>,
        env: BTreeMap<String, String>,
        /// `None`: the project folder.
        cwd: Option<PathBuf>,
        /// Whether the program may use the network from inside the sandbox.
        network: bool,
        /// What its box may also read (the user's own entries only: see [`super::project`]).
        readable: Vec<String>,
        /// Whether it runs outside the sandbox (the user's own entries only).
        outside_sandbox: bool,
    },
    /// A server at an HTTP(S) endpoint (the streamable HTTP transport).
    Http {
        url: String,
        headers: BTreeMap<String, String>,
        /// How Warden signs in, when the entry says (boxed: it is the larger part of an entry).
        oauth: Option<Box<McpOAuthClient>>,
    },
}

impl Transport {
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Stdio { .. } => "stdio",
            Self::Http { .. } => "http",
        }
    }
}

/// Whose entry a server comes from, which decides what it may have.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Origin {
    /// The user's own: the settings, or one run's `--mcp-config`. The entry is used as written.
    #[default]
    User,
    /// A project's approved `.mcp.json`: only what a project may say is used ([`super::project`]),
    /// no secret from the keychain is filled in, and a program runs in the project's command box
    /// exactly as the agent's commands do (the project's network, nothing more).
    Project,
}

/// One server Warden can start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerSpec {
    pub name: String,
    pub transport: Transport,
    pub tools: BTreeMap<String, McpToolChoice>,
    /// Whether it may ask for the user's model (each request asked of the user).
    pub sampling: bool,
    /// Whose entry it is: what it may have, and the box its program runs in.
    pub origin: Origin,
}

/// A configured entry and whose it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub config: McpServerConfig,
    pub origin: Origin,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("`{0}` is not a usable MCP server name: use 1–{MAX_SERVER_NAME} letters, digits, `_` or `-`")]
    BadName(String),
    #[error("MCP server `{0}` has both `command` and `url`: keep the one it is reached by")]
    Both(String),
    #[error("MCP server `{0}` has neither `command` (a program) nor `url` (an HTTP endpoint)")]
    Neither(String),
    #[error(
        "MCP server `{name}` is of type `{kind}`: Warden speaks stdio and streamable HTTP (the \
         older SSE transport was replaced by streamable HTTP; most servers serve both at one URL)"
    )]
    UnknownType { name: String, kind: String },
    #[error("MCP server `{name}`: `{url}` is not an http:// or https:// address")]
    BadUrl { name: String, url: String },
    #[error(
        "MCP server `{name}`: `clientMetadataUrl` must be the https address of a document \
         (https://host/path/client.json), not `{url}`"
    )]
    BadClientMetadataUrl { name: String, url: String },
    #[error("MCP server `{0}` signs in as a client by itself (`{1}`): it needs `clientId`")]
    MachineWithoutClientId(String, &'static str),
    #[error(
        "MCP server `{0}` signs in with your company's identity provider (`enterprise`): it needs `idp` \
         with the provider's `issuer` and `tokenEndpoint` (http:// or https:// addresses), `clientId` and \
         `idToken`"
    )]
    EnterpriseWithoutProvider(String),
    #[error("the MCP configuration is not valid JSON: {0}")]
    Json(String),
    #[error("the MCP configuration has no `mcpServers` object")]
    NoServers,
}

impl ServerSpec {
    /// The server configured as `name` by `config`.
    pub fn from_config(name: &str, config: &McpServerConfig) -> Result<Self, ConfigError> {
        check_name(name)?;
        let kind = config.kind.as_deref().map(str::to_ascii_lowercase);
        let transport = match (kind.as_deref(), &config.command, &config.url) {
            (Some(other), _, _) if !KNOWN_TYPES.contains(&other) => {
                return Err(ConfigError::UnknownType {
                    name: name.to_owned(),
                    kind: config.kind.clone().unwrap_or_default(),
                })
            }
            (_, Some(_), Some(_)) => return Err(ConfigError::Both(name.to_owned())),
            (_, None, None) => return Err(ConfigError::Neither(name.to_owned())),
            (_, Some(command), None) => Transport::Stdio {
                command: command.clone(),
                args: config.args.clone(),
                env: config.env.clone(),
                cwd: config.cwd.as_ref().map(PathBuf::from),
                network: config.network.is_on(),
                readable: config.readable.clone(),
                outside_sandbox: config.outside_sandbox,
            },
            (_, None, Some(url)) => {
                let lower = url.to_ascii_lowercase();
                let web = lower.starts_with("http://") || lower.starts_with("https://");
                if !web || url.chars().any(|c| c.is_whitespace() || c.is_control()) {
                    return Err(ConfigError::BadUrl { name: name.to_owned(), url: url.clone() });
                }
                if let Some(client) = &config.oauth {
                    check_oauth(name, client)?;
                }
                Transport::Http {
                    url: url.clone(),
                    headers: config.headers.clone(),
                    oauth: config.oauth.clone().map(Box::new),
                }
            }
        };
        Ok(Self {
            name: name.to_owned(),
            transport,
            tools: config.tools.clone(),
            sampling: config.sampling,
            origin: Origin::User,
        })
    }
}

/// An entry's OAuth client as far as it can be judged before signing in: a client metadata
/// document is an https address with a path (SEP-991: the address is the client id), and a client
/// that signs in by itself names its id.
fn check_oauth(name: &str, client: &McpOAuthClient) -> Result<(), ConfigError> {
    if let Some(address) = &client.client_metadata_url {
        let document = url::Url::parse(address)
            .is_ok_and(|u| u.scheme() == "https" && u.host().is_some() && !matches!(u.path(), "" | "/"));
        if !document {
            return Err(ConfigError::BadClientMetadataUrl { name: name.to_owned(), url: address.clone() });
        }
    }
    let grant = match client.grant {
        McpOAuthGrant::AuthorizationCode => return Ok(()),
        McpOAuthGrant::ClientCredentials => "client_credentials",
        McpOAuthGrant::Enterprise => "enterprise",
    };
    if client.client_id.is_none() {
        return Err(ConfigError::MachineWithoutClientId(name.to_owned(), grant));
    }
    if client.grant == McpOAuthGrant::Enterprise {
        let web =
            |address: &str| url::Url::parse(address).is_ok_and(|u| matches!(u.scheme(), "http" | "https"));
        let complete = client.idp.as_ref().is_some_and(|idp| {
            web(&idp.issuer)
                && web(&idp.token_endpoint)
                && !idp.client_id.is_empty()
                && !idp.id_token.is_empty()
        });
        if !complete {
            return Err(ConfigError::EnterpriseWithoutProvider(name.to_owned()));
        }
    }
    Ok(())
}

/// The `type` values the configurations in the wild use for the two transports Warden speaks.
const KNOWN_TYPES: [&str; 5] = ["stdio", "http", "streamable-http", "streamablehttp", "streamable_http"];

fn check_name(name: &str) -> Result<(), ConfigError> {
    let ok = !name.is_empty()
        && name.len() <= MAX_SERVER_NAME
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if ok {
        Ok(())
    } else {
        Err(ConfigError::BadName(name.to_owned()))
    }
}

/// The servers of a pasted or loaded `{"mcpServers": {…}}` document (a bare map of servers is
/// taken too), each checked. The whole document is refused at its first mistake.
pub fn parse_servers(json: &str) -> Result<BTreeMap<String, McpServerConfig>, ConfigError> {
    let value: serde_json::Value =
        serde_json::from_str(json).map_err(|e| ConfigError::Json(e.to_string()))?;
    let servers = match value.get("mcpServers") {
        Some(servers) => servers.clone(),
        None if value.is_object() && value.as_object().is_some_and(|o| !o.is_empty()) => value,
        None => return Err(ConfigError::NoServers),
    };
    let servers: BTreeMap<String, McpServerConfig> =
        serde_json::from_value(servers).map_err(|e| ConfigError::Json(e.to_string()))?;
    for (name, config) in &servers {
        ServerSpec::from_config(name, config)?;
    }
    Ok(servers)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::specs;

    #[test]
    fn the_formats_users_paste_are_read() {
        let claude_desktop = r#"{"mcpServers": {
            "files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]},
            "remote": {"type": "http", "url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer x"}}
        }}"#;
        let servers = parse_servers(claude_desktop).unwrap();
        let (specs, bad) = specs(&servers);
        assert!(bad.is_empty());
        assert_eq!(specs[0].name, "files");
        assert!(
            matches!(&specs[0].transport, Transport::Stdio { command, network: true, .. } if command == "npx")
        );
        assert!(
            matches!(&specs[1].transport, Transport::Http { url, headers, .. } if url.ends_with("/mcp") && headers.len() == 1)
        );
        // A bare map of servers (codex's table, converted) is the same thing.
        assert_eq!(parse_servers(r#"{"files": {"command": "x"}}"#).unwrap().len(), 1);
    }

    #[test]
    fn an_oauth_client_is_read_with_its_grant_and_the_browser_sign_in_is_the_default() {
        let servers = parse_servers(
            r#"{"mcpServers": {
                "machine": {"url": "https://mcp.example.com/mcp", "oauth": {"clientId": "warden-ci",
                    "clientSecret": "keychain:ci-secret", "grant": "client_credentials", "scopes": ["read"]}},
                "person": {"url": "https://other.example.com/mcp", "oauth": {"clientId": "warden"}},
                "documented": {"url": "https://third.example.com/mcp",
                    "oauth": {"clientMetadataUrl": "https://warden.example.org/oauth/client.json"}}
            }}"#,
        )
        .unwrap();
        let oauth = |name: &str| match ServerSpec::from_config(name, &servers[name]).unwrap().transport {
            Transport::Http { oauth, .. } => *oauth.unwrap(),
            Transport::Stdio { .. } => panic!("an HTTP server"),
        };
        let machine = oauth("machine");
        assert_eq!(machine.grant, McpOAuthGrant::ClientCredentials);
        assert_eq!(
            (machine.client_secret.as_deref(), machine.scopes.as_slice()),
            (Some("keychain:ci-secret"), &["read".to_owned()][..])
        );
        let person = oauth("person");
        assert_eq!((person.grant, person.client_secret), (McpOAuthGrant::AuthorizationCode, None));
        let documented = oauth("documented");
        assert_eq!(
            (documented.client_id, documented.client_metadata_url.as_deref(), documented.grant),
            (None, Some("https://warden.example.org/oauth/client.json"), McpOAuthGrant::AuthorizationCode)
        );
        let unknown = r#"{"mcpServers": {"x": {"url": "https://h/mcp", "oauth": {"clientId": "c", "grant": "password"}}}}"#;
        assert!(parse_servers(unknown).is_err(), "an unknown grant is refused, not guessed");
        let spec = |oauth: &str| {
            parse_servers(&format!(
                r#"{{"mcpServers": {{"x": {{"url": "https://h/mcp", "oauth": {oauth}}}}}}}"#
            ))
            .map(|_| ())
            .map_err(|e| e.to_string())
        };
        for bad in ["http://warden.example.org/client.json", "https://warden.example.org/", "client.json"] {
            let said = spec(&format!(r#"{{"clientMetadataUrl": "{bad}"}}"#)).unwrap_err();
            assert!(said.contains("https address of a document"), "{bad}: {said}");
        }
        let said = spec(r#"{"grant": "client_credentials", "clientSecret": "keychain:s"}"#).unwrap_err();
        assert!(said.contains("needs `clientId`"), "{said}");
        let idp = r#"{"issuer": "https://idp.example", "tokenEndpoint": "https://idp.example/token",
            "clientId": "warden", "idToken": "keychain:sso"}"#;
        spec(&format!(r#"{{"grant": "enterprise", "clientId": "c", "idp": {idp}}}"#)).unwrap();
        let said = spec(r#"{"grant": "enterprise", "clientId": "c"}"#).unwrap_err();
        assert!(said.contains("needs `idp`"), "{said}");
        let bad_endpoint = idp.replace("https://idp.example/token", "token");
        let said = spec(&format!(r#"{{"grant": "enterprise", "clientId": "c", "idp": {bad_endpoint}}}"#))
            .unwrap_err();
        assert!(said.contains("needs `idp`"), "{said}");
    }

    #[test]
    fn mistakes_are_said_in_words() {
        let bad = |json: &str| parse_servers(json).unwrap_err().to_string();
        assert!(bad(r#"{"mcpServers": {"a": {"command": "x", "url": "http://h"}}}"#).contains("both"));
        assert!(bad(r#"{"mcpServers": {"a": {}}}"#).contains("neither"));
        assert!(bad(r#"{"mcpServers": {"a": {"type": "sse", "url": "http://h/sse"}}}"#)
            .contains("streamable HTTP"));
        assert!(bad(r#"{"mcpServers": {"a": {"url": "file:///etc/passwd"}}}"#).contains("not an http"));
        assert!(bad(r#"{"mcpServers": {"a b": {"command": "x"}}}"#).contains("not a usable"));
        assert!(bad(r#"{"mcpServers": {"a": {"command": 3}}}"#).contains("not valid JSON"));
        assert!(bad("[]").contains("no `mcpServers`"));
        assert!(bad("{").contains("not valid JSON"));
    }

    #[test]
    fn disabled_servers_are_not_started_and_bad_ones_are_reported() {
        let mut servers =
            parse_servers(r#"{"on": {"command": "x"}, "off": {"command": "y", "disabled": true}}"#).unwrap();
        servers.insert("broken".into(), McpServerConfig::default());
        let (ok, bad) = specs(&servers);
        assert_eq!(ok.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["on"]);
        assert_eq!(bad.len(), 1);
        assert_eq!(bad[0].0, "broken");
    }
}

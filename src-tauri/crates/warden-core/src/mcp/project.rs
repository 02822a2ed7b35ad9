//! What a project's own `.mcp.json` may say. A repository names its servers — how to reach them
//! (`command`, `args`, the `env` values it states, `url`, plain `headers`), and choices that only
//! narrow (`disabled`, a tool to `ask` about or `deny`, a browser sign-in as a named client) — and
//! nothing that widens trust: a tool that runs unasked (`allow`), the user's model (`sampling`), the
//! network (`network`), a secret from the user's keychain (`keychain:NAME` anywhere) or an OAuth
//! secret come only from the user's own settings. Approving the file approves what [`trim`] keeps;
//! what it leaves out is shown, with why, before the approval (the window's card, `warden mcp
//! show`), and [`fields`] is every field that is used, as both show it.

use std::collections::BTreeMap;
use std::path::{Component, Path};

use warden_protocol::{McpIgnoredField, McpOAuthClient, McpOAuthGrant, McpServerConfig, McpToolChoice};

use super::secrets::PREFIX as KEYCHAIN;
use super::server::{parse_servers, ConfigError};

/// A project's entry cut to what a project may say, and what was cut.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trimmed {
    pub used: McpServerConfig,
    pub ignored: Vec<McpIgnoredField>,
}

const SECRET: &str = "names a secret from your keychain: a project's file cannot send your secrets to its \
     server (name it in the server's entry in your own settings instead); left out";
const OAUTH_SECRET: &str =
    "an OAuth client's secret, key or ID token comes only from your own settings; left out";

/// `config`, a project's entry, with only what a project may say.
pub fn trim(config: &McpServerConfig) -> Trimmed {
    let mut ignored = Vec::new();
    let mut ignore = |field: String, value: String, reason: &str| {
        ignored.push(McpIgnoredField { field, value, reason: reason.to_owned() });
    };
    let mut used = McpServerConfig {
        kind: config.kind.clone(),
        command: config.command.clone(),
        args: config.args.clone(),
        url: config.url.clone(),
        disabled: config.disabled,
        ..McpServerConfig::default()
    };
    for (name, value) in &config.env {
        if value.starts_with(KEYCHAIN) {
            ignore(format!("env.{name}"), value.clone(), SECRET);
        } else {
            used.env.insert(name.clone(), value.clone());
        }
    }
    for (name, value) in &config.headers {
        if value.starts_with(KEYCHAIN) {
            ignore(format!("headers.{name}"), value.clone(), SECRET);
        } else {
            used.headers.insert(name.clone(), value.clone());
        }
    }
    if let Some(cwd) = &config.cwd {
        if inside(Path::new(cwd)) {
            used.cwd = Some(cwd.clone());
        } else {
            ignore(
                "cwd".to_owned(),
                cwd.clone(),
                "a project's server starts inside the project: `cwd` must be a folder of the project, \
                 written relative to it, without `..`; the server starts in the project folder",
            );
        }
    }
    for (tool, choice) in &config.tools {
        match choice {
            McpToolChoice::Allow => ignore(
                format!("tools.{tool}"),
                "allow".to_owned(),
                "only you can let a tool run without asking (Settings → MCP servers); the tool is \
                 treated as any server's tool: your trust level decides whether it asks",
            ),
            // Asking more, or not offering a tool at all, widens nothing.
            McpToolChoice::Ask | McpToolChoice::Deny => {
                used.tools.insert(tool.clone(), *choice);
            }
        }
    }
    for path in &config.readable {
        ignore(
            "readable".to_owned(),
            path.clone(),
            "only your own settings can let a server's box read more of your machine; a project's \
             server sees what the project's commands see",
        );
    }
    if config.outside_sandbox {
        ignore(
            "outsideSandbox".to_owned(),
            "true".to_owned(),
            "only your own settings can run a server outside the sandbox; a project's server runs \
             in the project's box",
        );
    }
    if config.sampling {
        ignore(
            "sampling".to_owned(),
            "true".to_owned(),
            "only your own settings let a server ask your model for answers; left off",
        );
    }
    // `"network": false` only takes away (the program gets no network even where the project's
    // commands have it); `true` is the default, which gives nothing here: a project's server gets
    // the network exactly as the project's commands do. An entry that says `true` is told so by
    // [`trim_document`], which sees what the file wrote.
    used.network = config.network;
    if let Some(client) = &config.oauth {
        used.oauth = trim_oauth(client, &mut ignore);
    }
    Trimmed { used, ignored }
}

/// The part of an OAuth client a project may name: who Warden signs in as, in the browser, with
/// the user at the page. Secrets, and the grants that sign in without the user (which need them),
/// are left out.
fn trim_oauth(
    client: &McpOAuthClient,
    ignore: &mut impl FnMut(String, String, &str),
) -> Option<McpOAuthClient> {
    for (field, value) in [
        ("oauth.clientSecret", &client.client_secret),
        ("oauth.privateKey", &client.private_key),
        ("oauth.signingAlgorithm", &client.signing_algorithm),
    ] {
        if let Some(value) = value {
            ignore(field.to_owned(), value.clone(), OAUTH_SECRET);
        }
    }
    if let Some(idp) = &client.idp {
        ignore(
            "oauth.idp".to_owned(),
            format!("issuer {}, client {}", idp.issuer, idp.client_id),
            "signing in with your ID token from your company's identity provider is for your own \
             settings only: a project's file could send the token to a provider of its choosing; \
             left out",
        );
        ignore("oauth.idp.idToken".to_owned(), idp.id_token.clone(), OAUTH_SECRET);
        if let Some(secret) = &idp.client_secret {
            ignore("oauth.idp.clientSecret".to_owned(), secret.clone(), OAUTH_SECRET);
        }
    }
    let grant = match client.grant {
        McpOAuthGrant::AuthorizationCode => None,
        McpOAuthGrant::ClientCredentials => Some("client_credentials"),
        McpOAuthGrant::Enterprise => Some("enterprise"),
    };
    if let Some(grant) = grant {
        ignore(
            "oauth.grant".to_owned(),
            grant.to_owned(),
            "signing in without you needs a secret only your own settings can name; you sign in \
             in your browser instead, when the server asks",
        );
    }
    let kept = McpOAuthClient {
        client_id: client.client_id.clone(),
        client_metadata_url: client.client_metadata_url.clone(),
        client_secret: None,
        private_key: None,
        signing_algorithm: None,
        grant: McpOAuthGrant::AuthorizationCode,
        scopes: client.scopes.clone(),
        idp: None,
    };
    let names_something =
        kept.client_id.is_some() || kept.client_metadata_url.is_some() || !kept.scopes.is_empty();
    names_something.then_some(kept)
}

/// Whether `cwd` names a folder of the project as written: relative, without `..`. (Where it leads
/// once links are followed is checked when the server starts.)
fn inside(cwd: &Path) -> bool {
    cwd.components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

/// Every field of `config` that Warden uses, as `(field, value)` rows in a fixed order: what an
/// approval shows. Values are as written (a list as JSON, so an argument with spaces is seen as
/// one).
pub fn fields(config: &McpServerConfig) -> Vec<(String, String)> {
    let mut rows = Vec::new();
    if let Some(kind) = &config.kind {
        rows.push(("type".to_owned(), kind.clone()));
    }
    if let Some(command) = &config.command {
        rows.push(("command".to_owned(), command.clone()));
    }
    if !config.args.is_empty() {
        rows.push(("args".to_owned(), json(&config.args)));
    }
    for (name, value) in &config.env {
        rows.push((format!("env.{name}"), value.clone()));
    }
    if let Some(cwd) = &config.cwd {
        rows.push(("cwd".to_owned(), cwd.clone()));
    }
    if let Some(url) = &config.url {
        rows.push(("url".to_owned(), url.clone()));
    }
    for (name, value) in &config.headers {
        rows.push((format!("headers.{name}"), value.clone()));
    }
    if config.disabled {
        rows.push(("disabled".to_owned(), "true".to_owned()));
    }
    for (tool, choice) in &config.tools {
        rows.push((format!("tools.{tool}"), json(choice)));
    }
    if config.sampling {
        rows.push(("sampling".to_owned(), "true".to_owned()));
    }
    if config.network != McpServerConfig::default().network {
        rows.push(("network".to_owned(), config.network.as_str().to_owned()));
    }
    if !config.readable.is_empty() {
        rows.push(("readable".to_owned(), json(&config.readable)));
    }
    if config.outside_sandbox {
        rows.push(("outsideSandbox".to_owned(), "true".to_owned()));
    }
    if let Some(client) = &config.oauth {
        let optional = [
            ("oauth.clientId", &client.client_id),
            ("oauth.clientMetadataUrl", &client.client_metadata_url),
            ("oauth.clientSecret", &client.client_secret),
            ("oauth.privateKey", &client.private_key),
            ("oauth.signingAlgorithm", &client.signing_algorithm),
        ];
        for (field, value) in optional {
            if let Some(value) = value {
                rows.push((field.to_owned(), value.clone()));
            }
        }
        rows.push(("oauth.grant".to_owned(), json(&client.grant)));
        if !client.scopes.is_empty() {
            rows.push(("oauth.scopes".to_owned(), json(&client.scopes)));
        }
        if let Some(idp) = &client.idp {
            rows.push(("oauth.idp".to_owned(), json(idp)));
        }
    }
    rows
}

/// `value` as JSON text, for the rows; a bare string (an enum's name) without its quotes.
/// (Serializing these plain values cannot fail; a failure would show as the empty string.)
fn json<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(plain)) => plain,
        Ok(other) => other.to_string(),
        Err(_) => String::new(),
    }
}

/// The servers of a project's `.mcp.json` document, checked as any `mcpServers` document
/// ([`parse_servers`]), each trimmed; and what was left out, by server name (servers with nothing
/// left out are not in the second map).
pub fn trim_document(json: &str) -> Result<ProjectServers, ConfigError> {
    let servers = parse_servers(json)?;
    // What the file wrote, for the one field whose value is also its default.
    let raw: serde_json::Value = serde_json::from_str(json).map_err(|e| ConfigError::Json(e.to_string()))?;
    let raw = raw.get("mcpServers").unwrap_or(&raw);
    let mut used = BTreeMap::new();
    let mut ignored = BTreeMap::new();
    for (name, config) in &servers {
        let mut trimmed = trim(config);
        let written = raw.get(name).and_then(|entry| entry.get("network"));
        let asks_network = written == Some(&true.into()) || written == Some(&"rules".into());
        if asks_network && config.command.is_some() {
            trimmed.ignored.push(McpIgnoredField {
                field: "network".to_owned(),
                value: "true".to_owned(),
                reason: "a project's server gets the network exactly as the project's own commands \
                         do (Settings → Sandbox), whatever its file says"
                    .to_owned(),
            });
        }
        used.insert(name.clone(), trimmed.used);
        if !trimmed.ignored.is_empty() {
            ignored.insert(name.clone(), trimmed.ignored);
        }
    }
    Ok((used, ignored))
}

/// What a project's servers use, and what each leaves out, by server name.
pub type ProjectServers = (BTreeMap<String, McpServerConfig>, BTreeMap<String, Vec<McpIgnoredField>>);

#[cfg(test)]
mod tests {
    use super::*;
    use warden_protocol::{McpIdentityProvider, NetworkMode};

    fn every_field() -> McpServerConfig {
        McpServerConfig {
            kind: Some("http".to_owned()),
            command: Some("node".to_owned()),
            args: vec!["tools/server.js".to_owned(), "two words".to_owned()],
            env: BTreeMap::from([
                ("PLAIN".to_owned(), "value".to_owned()),
                ("TOKEN".to_owned(), "keychain:github".to_owned()),
            ]),
            cwd: Some("../outside".to_owned()),
            url: Some("https://mcp.example/mcp".to_owned()),
            headers: BTreeMap::from([
                ("X-Plain".to_owned(), "p".to_owned()),
                ("Authorization".to_owned(), "keychain:OTHER".to_owned()),
            ]),
            disabled: true,
            tools: BTreeMap::from([
                ("run".to_owned(), McpToolChoice::Allow),
                ("look".to_owned(), McpToolChoice::Ask),
                ("wipe".to_owned(), McpToolChoice::Deny),
            ]),
            network: NetworkMode::Off,
            readable: vec!["/home/me/.config/srv".to_owned()],
            outside_sandbox: true,
            sampling: true,
            oauth: Some(McpOAuthClient {
                client_id: Some("warden".to_owned()),
                client_metadata_url: Some("https://org.example/client.json".to_owned()),
                client_secret: Some("keychain:ci".to_owned()),
                private_key: Some("keychain:key".to_owned()),
                signing_algorithm: Some("RS256".to_owned()),
                grant: McpOAuthGrant::Enterprise,
                scopes: vec!["read".to_owned()],
                idp: Some(McpIdentityProvider {
                    issuer: "https://idp.example".to_owned(),
                    token_endpoint: "https://idp.example/token".to_owned(),
                    client_id: "idp-client".to_owned(),
                    client_secret: Some("literal-idp-secret".to_owned()),
                    id_token: "keychain:sso".to_owned(),
                }),
            }),
        }
    }

    #[test]
    fn a_project_entry_keeps_what_names_its_server_and_nothing_that_widens_trust() {
        let Trimmed { used, ignored } = trim(&every_field());
        assert_eq!(used.command.as_deref(), Some("node"));
        assert_eq!(used.args, ["tools/server.js", "two words"]);
        assert_eq!(used.env, BTreeMap::from([("PLAIN".to_owned(), "value".to_owned())]));
        assert_eq!(used.headers, BTreeMap::from([("X-Plain".to_owned(), "p".to_owned())]));
        assert_eq!(used.cwd, None, "a cwd leading out of the project is not used");
        assert!(used.disabled);
        assert_eq!(
            used.tools,
            BTreeMap::from([
                ("look".to_owned(), McpToolChoice::Ask),
                ("wipe".to_owned(), McpToolChoice::Deny)
            ])
        );
        assert!(!used.sampling);
        assert!(used.readable.is_empty(), "a project's server reads what the project's commands do");
        assert!(!used.outside_sandbox, "a project's server always runs in the box");
        assert_eq!(used.network, NetworkMode::Off, "`network: false` only takes away, and is kept");
        let oauth = used.oauth.expect("the client it names is kept");
        assert_eq!(
            (oauth.client_id.as_deref(), oauth.client_secret, oauth.private_key, oauth.grant, oauth.idp),
            (Some("warden"), None, None, McpOAuthGrant::AuthorizationCode, None)
        );
        let fields: Vec<&str> = ignored.iter().map(|i| i.field.as_str()).collect();
        for field in [
            "env.TOKEN",
            "headers.Authorization",
            "cwd",
            "tools.run",
            "sampling",
            "readable",
            "outsideSandbox",
            "oauth.clientSecret",
            "oauth.privateKey",
            "oauth.signingAlgorithm",
            "oauth.idp",
            "oauth.idp.idToken",
            "oauth.idp.clientSecret",
            "oauth.grant",
        ] {
            assert!(fields.contains(&field), "{field} is not said to be ignored: {fields:?}");
        }
        assert!(ignored.iter().all(|i| !i.reason.is_empty()));
        // Trimming what was trimmed leaves it as it is.
        assert_eq!(trim(&trim(&every_field()).used).ignored, Vec::new());
    }

    #[test]
    fn a_document_asking_for_the_network_is_told_it_gets_the_projects() {
        let (used, ignored) = trim_document(
            r#"{"mcpServers": {
                "asks": {"command": "node", "args": ["s.js"], "network": true},
                "quiet": {"command": "node", "args": ["s.js"]},
                "without": {"command": "node", "network": false},
                "named": {"command": "node", "network": "rules"},
                "named_off": {"command": "node", "network": "off"}
            }}"#,
        )
        .unwrap();
        assert_eq!(ignored["asks"][0].field, "network");
        assert!(ignored["asks"][0].reason.contains("the project's own commands"), "{:?}", ignored["asks"]);
        assert_eq!(ignored["named"][0].field, "network");
        for kept in ["quiet", "without", "named_off"] {
            assert!(!ignored.contains_key(kept), "{kept}: {ignored:?}");
        }
        assert_eq!(used["without"].network, NetworkMode::Off);
        assert_eq!(used["named_off"].network, NetworkMode::Off);
        assert!(trim_document("{").is_err());
    }

    #[test]
    fn a_cwd_is_kept_only_inside_the_project_as_written() {
        let with = |cwd: &str| trim(&McpServerConfig { cwd: Some(cwd.to_owned()), ..Default::default() });
        for kept in ["tools", "./tools/server", "a/b"] {
            assert_eq!(with(kept).used.cwd.as_deref(), Some(kept));
        }
        for refused in ["/etc", "..", "tools/../../x", "/"] {
            let trimmed = with(refused);
            assert_eq!(trimmed.used.cwd, None, "{refused}");
            assert_eq!(trimmed.ignored[0].field, "cwd");
        }
    }

    #[test]
    fn the_rows_name_every_field_an_entry_can_have() {
        let config = every_field();
        let rows = fields(&config);
        let shown: Vec<&str> = rows.iter().map(|(f, _)| f.split('.').next().unwrap_or(f)).collect();
        let serialized = serde_json::to_value(&config).unwrap();
        for key in serialized.as_object().unwrap().keys() {
            assert!(shown.contains(&key.as_str()), "the field `{key}` is not shown: {rows:?}");
        }
        for key in serialized["oauth"].as_object().unwrap().keys() {
            let field = format!("oauth.{key}");
            assert!(rows.iter().any(|(f, _)| *f == field), "`{field}` is not shown: {rows:?}");
        }
        assert!(rows.contains(&("args".to_owned(), r#"["tools/server.js","two words"]"#.to_owned())));
        assert!(rows.contains(&("tools.look".to_owned(), "ask".to_owned())));
    }
}

//! MCP servers as users configure them: the `mcpServers` entries of Claude Desktop, Cursor and
//! codex (`command`/`args`/`env`/`cwd` for a local program, `url`/`headers` for a server over
//! HTTP), plus Warden's own choices per server (off, per-tool allow / ask / deny, network).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use specta::Type;

/// One configured MCP server. Exactly one of `command` (stdio) and `url` (streamable HTTP) is set;
/// the engine says so clearly when a hand-written entry has both or neither.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase", default)]
pub struct McpServerConfig {
    /// `"stdio"` or `"http"` (`"streamable-http"`, `"streamableHttp"`) when the entry says; it is
    /// otherwise inferred from `command` / `url`.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// The program of a stdio server (`npx`, `uvx`, a path).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// Variables added to the credential-stripped environment the program gets.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    /// The folder the program starts in; the project folder when unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// The endpoint of a streamable HTTP server.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Headers sent with every request to `url` (an `Authorization` token, say).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub headers: BTreeMap<String, String>,
    /// Configured but not started.
    #[serde(skip_serializing_if = "is_false")]
    pub disabled: bool,
    /// Per tool (the server's own name for it): what Warden does when the model calls it. A tool
    /// not listed is treated as dangerous (the trust level decides whether it asks).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub tools: BTreeMap<String, McpToolChoice>,
    /// Whether a stdio server may use the network from inside the sandbox: `rules` (the default:
    /// most servers exist to reach a service) is out through Warden's proxy only, to the hosts
    /// the project's rules allow, each other host asked about in the window in the server's name;
    /// `off` is none. The boolean that stood here before is read too (`true` is `rules`).
    #[serde(skip_serializing_if = "is_rules")]
    pub network: crate::NetworkMode,
    /// Files, folders or sockets a stdio server's box may also read (absolute paths): the box
    /// shows only the toolchains of the home, and a server may need its own configuration or a
    /// socket (Docker's, say). Never Warden's own folders nor a folder holding the home; a known
    /// credential location is shown only because it is listed here. The user's own settings only:
    /// a project's `.mcp.json` cannot name any.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub readable: Vec<String>,
    /// Whether a stdio server runs outside the sandbox, as any program of the user's: it sees and
    /// may change everything the user can, and each of its calls is shown as not contained. The
    /// user's own settings only: a project's server always runs in the project's box.
    #[serde(skip_serializing_if = "is_false")]
    pub outside_sandbox: bool,
    /// Whether the server may ask for a completion from the user's model (MCP sampling); each
    /// request is shown to the user, who allows or declines it. Off unless the user turns it on.
    #[serde(skip_serializing_if = "is_false")]
    pub sampling: bool,
    /// The OAuth client the server's administrator registered for Warden (an HTTP server), instead
    /// of Warden registering itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub oauth: Option<McpOAuthClient>,
}

/// An OAuth client registered for Warden with an MCP server's authorization server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct McpOAuthClient {
    /// The client id the server's administrator registered for Warden.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
    /// Or, without a registered client: the https address of a client ID metadata document that
    /// describes Warden (SEP-991), hosted by your organisation. Warden gives it as its client id
    /// where the authorization server accepts such documents, and registers itself where not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_metadata_url: Option<String>,
    /// The client's secret, best as `keychain:NAME` (kept with `warden mcp secret NAME`) so the
    /// settings file holds no secret.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_secret: Option<String>,
    /// Instead of a secret, the client's private key (PKCS#8 PEM, best `keychain:NAME`): Warden
    /// proves itself with a JWT signed by it (`private_key_jwt`; `client_credentials` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub private_key: Option<String>,
    /// What the key signs with: `ES256` (the default) or `RS256`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signing_algorithm: Option<String>,
    /// How Warden gets its tokens: the user signs in in the browser as this client
    /// (`authorization_code`, the default), or Warden signs in by itself as this client, a machine
    /// account with no user in the loop (`client_credentials`).
    #[serde(default)]
    pub grant: McpOAuthGrant,
    /// The scopes to ask for (`client_credentials`, `enterprise`; empty: the server's default).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<String>,
    /// Your company's identity provider, for the `enterprise` grant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idp: Option<McpIdentityProvider>,
}

/// An MCP resource read to go with a message: its text parts, and its binary parts named with
/// their type and size; cut at a limit (`truncated`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct McpResourceText {
    pub server: String,
    pub uri: String,
    pub text: String,
    pub truncated: bool,
}

/// The identity provider of an enterprise-managed sign-in (SEP-990, "cross-app access"): the user's
/// ID token from it is exchanged there for an identity assertion (ID-JAG) addressed to the MCP
/// server's authorization server, which exchanges that for the server's token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct McpIdentityProvider {
    /// The provider's issuer (`https://company.okta.com`).
    pub issuer: String,
    /// Its token endpoint, where the exchange is made.
    pub token_endpoint: String,
    /// The client registered with the provider for Warden.
    pub client_id: String,
    /// That client's secret, best `keychain:NAME`; none for a public client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_secret: Option<String>,
    /// The user's ID token from the provider, best `keychain:NAME` (`warden mcp secret NAME`).
    pub id_token: String,
}

/// How Warden gets an MCP server's OAuth tokens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "snake_case")]
pub enum McpOAuthGrant {
    /// The user signs in in the browser (PKCE, a loopback redirect).
    #[default]
    AuthorizationCode,
    /// Warden signs in with the client's own credentials (SEP-1046), no browser.
    ClientCredentials,
    /// Enterprise-managed (SEP-990): the user's ID token from the company's identity provider
    /// ([`McpOAuthClient::idp`]) stands for the sign-in, no browser.
    Enterprise,
}

impl Default for McpServerConfig {
    fn default() -> Self {
        Self {
            kind: None,
            command: None,
            args: Vec::new(),
            env: BTreeMap::new(),
            cwd: None,
            url: None,
            headers: BTreeMap::new(),
            disabled: false,
            sampling: false,
            tools: BTreeMap::new(),
            network: crate::NetworkMode::Rules,
            readable: Vec::new(),
            outside_sandbox: false,
            oauth: None,
        }
    }
}

fn is_false(value: &bool) -> bool {
    !*value
}

fn is_rules(value: &crate::NetworkMode) -> bool {
    *value == crate::NetworkMode::Rules
}

/// What the user chose for one MCP tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Type)]
#[serde(rename_all = "lowercase")]
pub enum McpToolChoice {
    /// Runs without asking, like a read-only built-in tool.
    Allow,
    /// Asks before every call, whatever the trust level.
    Ask,
    /// Never offered to the model.
    Deny,
}

/// Where an MCP server stands, for Settings and `warden mcp list`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase", tag = "state")]
pub enum McpServerState {
    /// Configured with `disabled`.
    Disabled,
    /// Being started (or restarted).
    Starting,
    /// Initialized; its tools are listed.
    Connected,
    /// Could not start or died; `error` says why in words.
    Failed { error: String },
    /// An HTTP server that wants the user to sign in (OAuth) before it answers.
    NeedsSignIn,
}

/// One MCP tool as Settings and `warden mcp list` show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct McpToolInfo {
    /// The server's own name for it.
    pub name: String,
    /// The name the model calls it by: `mcp__<server>__<tool>`.
    pub qualified_name: String,
    pub description: String,
    /// The user's choice; `None` = not chosen (dangerous: the trust level decides).
    pub choice: Option<McpToolChoice>,
}

/// One configured MCP server and what Warden knows of it now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct McpServerStatus {
    pub name: String,
    /// `stdio` or `http`.
    pub transport: String,
    #[serde(flatten)]
    pub state: McpServerState,
    pub tools: Vec<McpToolInfo>,
    /// The last lines the program wrote to stderr (stdio servers), oldest first.
    pub stderr_tail: Vec<String>,
    /// What the server offers besides tools (listed in Settings): its resources ("name <uri>")
    /// and prompts, at most 200 of each.
    pub resources: Vec<String>,
    pub prompts: Vec<String>,
}

/// What the user decided about a project's own `.mcp.json`, for the file's content as it was
/// (a changed file is offered again).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ProjectMcpChoice {
    /// SHA-256 of the file's bytes, hex.
    pub digest: String,
    /// `true`: its servers are used in this project; `false`: declined.
    pub approved: bool,
}

/// A project's own `.mcp.json`, as the window and `warden mcp show` offer it: never used before the
/// user approves it, and then only for what a project may say.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ProjectMcpOffer {
    /// The file.
    pub path: String,
    /// Its servers, each with exactly the fields Warden would use: what a project may name
    /// (empty when `error` says why the file cannot be used).
    pub servers: BTreeMap<String, McpServerConfig>,
    /// Per server, the fields of its entry Warden does not take from a project, each with why
    /// (servers with none are left out).
    pub ignored: BTreeMap<String, Vec<McpIgnoredField>>,
    /// Whether the servers' programs get the network: they run in the project's command box,
    /// with the project's own network setting (an entry may only take it away, `"network":
    /// false`).
    pub network: bool,
    /// SHA-256 of the file's bytes, hex: the content an approval is for.
    pub digest: String,
    /// What the user chose for this content: `None` = not asked yet.
    pub approved: Option<bool>,
    /// Why the file cannot be used (not JSON, a bad entry, too large).
    pub error: Option<String>,
}

/// A field of a project's `.mcp.json` entry that Warden ignores: something only the user's own
/// settings may say (a tool allowed to run unasked, a keychain secret, sampling, the network).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct McpIgnoredField {
    /// The field as the entry has it: `sampling`, `tools.get-env`, `headers.Authorization`,
    /// `oauth.clientSecret`.
    pub field: String,
    /// The value the entry gives it, as it is written (a keychain reference names a secret; it is
    /// never the secret).
    pub value: String,
    /// Why it is ignored and what Warden does instead, in words.
    pub reason: String,
}

/// An MCP server asks the user to fill in a form (MCP elicitation), for the window to show.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct McpElicit {
    /// Names this request in the answer (`mcp_elicit_answer`).
    pub request_id: String,
    /// The server asking.
    pub server: String,
    /// What the server says it needs, in its words.
    pub message: String,
    /// The form: a JSON Schema object of plain fields (string, number, integer, boolean, enum).
    pub schema: serde_json::Value,
    /// What the server asks for: a form filled in, or the use of the user's model (then `message`
    /// shows the request and the schema is empty).
    #[serde(default)]
    pub purpose: McpAskPurpose,
    /// For `purpose: "network"`: the host the server's box wants to reach, which no rule names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network: Option<crate::NetworkRequest>,
}

/// What an MCP server asks the user for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "lowercase")]
pub enum McpAskPurpose {
    /// Fill in a form (elicitation).
    #[default]
    Form,
    /// Let the user's model answer the server's request (sampling).
    Sampling,
    /// Let the server's box reach a host no rule names (`McpElicit.network`): accepted with
    /// `{"always": true}` for good (a rule of the project's), accepted with nothing for as long
    /// as the server runs, declined for as long as it runs.
    Network,
}

/// The user's answer to a form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "lowercase", tag = "action")]
pub enum McpElicitAnswer {
    /// Filled in: the values, by field name.
    Accept { content: serde_json::Map<String, serde_json::Value> },
    /// "No": the server gets a refusal.
    Decline,
    /// Dismissed without answering.
    Cancel,
}

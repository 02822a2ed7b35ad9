//! What opens a remote session: this machine's settings, the secrets the session needs (each
//! hidden from `Debug`), and the session's own choices.

use serde::{Deserialize, Serialize};

use crate::{KeyName, NetworkMode, ProviderId, Settings, TrustLevel};

/// The session the link opens: the local user's settings and the keys it needs (they stay in the
/// remote engine's memory for the session), and the choices of this session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RemoteOpen {
    /// The local user's settings: the remote machine's own Warden settings are never read.
    pub settings: Settings,
    #[serde(default)]
    pub keys: Vec<RemoteKey>,
    /// The secrets the settings' MCP servers name (`keychain:NAME`), from this machine's keychain,
    /// held in the remote engine's memory only.
    #[serde(default)]
    pub mcp_secrets: Vec<RemoteMcpSecret>,
    /// The sign-ins (OAuth) kept in this machine's keychain for the settings' HTTP servers, their
    /// refresh tokens left out, held in the remote engine's memory only.
    #[serde(default)]
    pub mcp_sign_ins: Vec<RemoteMcpSignIn>,
    pub session: RemoteSession,
}

/// An HTTP MCP server's sign-in for the session: the credentials kept here for server `server` at
/// `url` (JSON, as the keychain holds them), without the refresh token — refreshing there would
/// spend the one kept here where the server rotates them; once the access token expires, the
/// server there asks for a sign-in here.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RemoteMcpSignIn {
    pub server: String,
    pub url: String,
    pub credentials: String,
}

impl std::fmt::Debug for RemoteMcpSignIn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RemoteMcpSignIn")
            .field("server", &self.server)
            .field("url", &self.url)
            .field("credentials", &"<hidden>")
            .finish()
    }
}

/// An MCP server's secret for the session (`keychain:NAME` in its entry), held in the remote
/// engine's memory only.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RemoteMcpSecret {
    pub name: String,
    pub value: String,
}

impl std::fmt::Debug for RemoteMcpSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RemoteMcpSecret").field("name", &self.name).field("value", &"<hidden>").finish()
    }
}

/// A provider key for the session, held in the remote engine's memory only.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RemoteKey {
    pub name: KeyName,
    pub value: String,
}

impl std::fmt::Debug for RemoteKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RemoteKey").field("name", &self.name).field("value", &"<hidden>").finish()
    }
}

/// The choices of one session, as `warden exec` takes them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RemoteSession {
    /// The project folder on the remote machine.
    pub project: String,
    /// A new conversation's id, or the saved one to continue (`resume`).
    pub conversation_id: String,
    #[serde(default)]
    pub resume: bool,
    /// Continue the conversation last changed in the project there instead (`--continue`); the
    /// session is refused in words when there is none.
    #[serde(default)]
    pub continue_last: bool,
    pub provider: ProviderId,
    #[serde(default)]
    pub model: Option<String>,
    #[serde(default)]
    pub base_url: Option<String>,
    #[serde(default)]
    pub native_tools: Option<bool>,
    pub trust: TrustLevel,
    /// The tools the session may use, or `["all"]` (`None`: the project's permissions).
    #[serde(default)]
    pub allow: Option<Vec<String>>,
    #[serde(default)]
    pub approval_timeout_secs: Option<u32>,
    pub max_turns: u32,
    #[serde(default)]
    pub searxng_url: Option<String>,
    #[serde(default)]
    pub network: Option<NetworkMode>,
    /// Whether each message is saved on the remote machine.
    pub save: bool,
    /// Opened by the window: a project without permissions of its own gets the window's tools
    /// (every built-in tool, each asking as the policy says), not `warden exec`'s read-only set.
    #[serde(default)]
    pub window: bool,
    /// The provider keys come from the remote engine's own environment, because the user said so
    /// (`--remote-env-keys`): none is sent. Otherwise only the keys sent are used there, and a key
    /// in the remote's environment is ignored.
    #[serde(default)]
    pub remote_env_keys: bool,
}

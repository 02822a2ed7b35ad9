//! Why an MCP server could not be reached, signed in to, or answered: the one error of `mcp/`'s
//! connections, sign-ins and secrets.

/// Why a server could not be reached or a call did not complete.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum McpError {
    #[error("could not start `{command}`: {error}")]
    Spawn { command: String, error: String },
    /// A project's server whose `cwd` is not a folder inside the project.
    #[error("its `cwd` ({cwd}) {why}")]
    Cwd { cwd: String, why: String },
    #[error("the server did not complete the MCP handshake: {0}")]
    Handshake(String),
    #[error("the server did not answer within {0} s")]
    Timeout(u64),
    #[error("the connection to the server is closed")]
    Closed,
    #[error("the server answered with an error: {0}")]
    Server(String),
    #[error("bad header `{0}` in the server's configuration")]
    Header(String),
    /// The server answered 401: the user must sign in (OAuth) first.
    #[error("needs you to sign in")]
    NeedsSignIn { challenge: Option<String> },
    #[error("signing in failed: {0}")]
    SignIn(String),
    #[error("{0}")]
    Secret(String),
}

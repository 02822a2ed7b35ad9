//! Signing in to an MCP server over HTTP: OAuth 2.1 in the user's browser ([`oauth`],
//! [`browser`], with the discovery of the authorization server in [`discovery`]), as a client
//! registered for Warden ([`client_credentials`], with a signed JWT: [`jwt`]), or through the
//! organisation's identity provider ([`enterprise`]). The tokens live in the keychain.

mod browser;
pub mod client_credentials;
mod discovery;
pub mod enterprise;
pub mod jwt;
pub mod oauth;

pub use browser::BrowserAuthorizer;

//! The TLS of rmcp's HTTP clients.

/// rmcp's HTTP clients (the MCP session's and the sign-in's) take TLS from the process-wide
/// provider: ring, as Warden's own. Building one before it is installed panics.
pub(super) fn install_tls() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

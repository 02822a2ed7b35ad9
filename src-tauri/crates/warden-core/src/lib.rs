//! Warden's engine. It talks to providers, runs tools inside the sandbox under the policy, and
//! reports every step as a `warden_protocol::Event`. It has no face: it never prints and never
//! depends on tauri; the desktop window and `warden exec` consume its events.
#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod agent;
pub mod checkpoint;
pub mod config;
pub mod containment;
pub mod conventions;
pub mod conversations;
pub mod engine;
pub mod hooks;
pub mod images;
pub mod instructions;
pub mod mcp;
pub mod opener;
pub mod policy;
pub mod process_guard;
pub mod provider;
pub mod remote;
pub mod rules;
pub mod sandbox;
pub mod scope;
pub mod secrets;
pub mod shell;
pub mod tool;
pub mod tools;
pub mod visible;
pub mod words;

/// Entry points for the fuzz targets in `src-tauri/fuzz`: pure functions reached without files or a
/// session. Not part of the engine's API.
#[doc(hidden)]
pub mod fuzzing {
    /// Parse a one-file unified diff and apply it to `old`, as `apply_patch` does, without files.
    pub fn apply_patch_text(old: &str, patch: &str) -> Result<String, String> {
        crate::tools::apply_patch_to_text(old, patch)
    }
}

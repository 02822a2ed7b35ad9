//! What the two binaries of the `warden` command share: the front (`warden`, [`front`]) runs a plain
//! `warden sandbox` itself and hands every other command line to the engine (`warden-engine`, the
//! headless faces of the engine: `exec`, `tool`, `sandbox`, `checkpoint`, `mcp`, `sessions`).

#![deny(clippy::print_stdout, clippy::print_stderr, clippy::disallowed_methods)]

pub mod exit;
pub mod front;
pub mod sandbox_cmd;
pub mod sanitize;
pub mod say;

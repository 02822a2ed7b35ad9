//! Tools from Model Context Protocol servers, governed like Warden's own: the configured servers
//! (`server`), started and kept alive (`hub`, `connection`, `spawn` for stdio programs in the
//! sandbox), what Warden answers them (`handler`; the user's model for those allowed to ask, `sampling`), and their tools offered as
//! `mcp__<server>__<tool>` (`names`, `tool`), kept current while a session runs (`toolset`),
//! whose results are read as the model needs (`result`); what a project's own `.mcp.json` may
//! say (`project`). The client is the official Rust SDK,
//! `rmcp`.

pub mod auth;
mod connection;
mod elicitor;
mod entries;
mod error;
// Roots and logging are deprecated by the 2026-07-28 draft (SEP-2577) but are part of the protocol
// versions Warden speaks, 2025-06-18 and 2025-11-25.
#[allow(deprecated)]
mod handler;
mod hub;
pub mod names;
pub mod project;
pub mod resource;
mod result;
pub mod sampling;
pub mod secrets;
pub mod server;
mod server_net;
mod slot;
mod spawn;
mod tls;
mod tool;
mod tool_list;
mod toolset;

pub use crate::opener::OPENER_ENV;
pub use auth::BrowserAuthorizer;
pub use connection::{connect, connect_with, ClientSetup, Connection, CATALOG_MAX};
pub use elicitor::{AskUser, Elicitation, Elicitor, ASK_WAIT};
pub use entries::{entry_specs, specs};
pub use error::McpError;
pub use hub::McpHub;
pub use result::to_output as result_output;
pub use server::{parse_servers, ConfigError, Entry, Origin, ServerSpec, Transport};
pub use server_net::SaveHostRule;
pub use slot::{ServerSlot, START_TIMEOUT};
pub use tool::McpTool;
pub use toolset::McpToolset;

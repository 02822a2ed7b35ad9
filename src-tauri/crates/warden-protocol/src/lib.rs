//! The wire contract between Warden's engine and its faces (the desktop window and `warden exec`).
//!
//! Data only: every type here is serde + `specta::Type`, payload fields are camelCase, and
//! `src/bindings.ts` in the UI is generated from these types — never edited by hand.

mod checkpoint;
mod conventions;
mod conversation;
mod event;
mod history;
mod hooks;
mod mcp;
mod op;
mod remote;
mod report;
mod rules;
mod settings;
mod todo;
mod tool;

pub use checkpoint::*;
pub use conventions::*;
pub use conversation::*;
pub use event::*;
pub use history::*;
pub use hooks::*;
pub use mcp::*;
pub use op::*;
pub use remote::*;
pub use report::*;
pub use rules::*;
pub use settings::*;
pub use todo::*;
pub use tool::*;

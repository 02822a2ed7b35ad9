//! The agent: sessions, the turn loop, approvals and the context budget.

pub mod approvals;
mod assemble;
pub mod budget;
pub mod compaction;
mod hooks;
pub use hooks::SessionHooks;
mod events;
pub(crate) mod first_look;
mod network_ask;
mod newer;
mod saving;
mod session;
mod session_core;
mod tool_env;
mod tool_runner;
mod tool_source;
mod tool_step;
mod turn;
mod turn_plan;

pub use network_ask::SaveRule;
pub use session::{CompactNowError, SendMode, Session, SessionError, MAX_IMAGES};
pub use session_core::SessionConfig;
pub use tool_env::{execute_streaming, ToolEnvironment};
pub use tool_runner::{CallOutcome, CallPolicy, PlannedCall, RequestedCall, ToolRunner};
pub use tool_source::ToolSource;
pub use turn::TurnEnd;

//! The agent loop driven through real HTTP in every wire format.

mod approvals;
mod checkpoints;
mod compaction;
mod conventions;
mod engine_facts;
pub(crate) mod harness;
mod hooks;
mod images;
mod instructions;
mod network_questions;
mod one_path;
mod plan_mode;
mod restore_race;
mod saved;
mod scenarios;
mod second_command_tool;
mod switch;
mod through_engine;
mod together;
pub use warden_testkit::scripted as wire;

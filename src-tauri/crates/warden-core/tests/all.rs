//! The engine's integration tests: one binary, a module per area.
// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod agent;
mod checkpoint;
mod import_circles;
mod mcp;
mod providers;
mod store;
mod support;
mod tools;

//! The engine's integration tests: one binary, a module per area.

mod providers;
mod support;
mod tools;

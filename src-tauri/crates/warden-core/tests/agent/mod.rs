//! The agent loop driven through real HTTP in every wire format.

mod harness;
mod scenarios;
mod wire;

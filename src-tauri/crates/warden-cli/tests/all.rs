//! `warden` as a process: the exec and tool contracts, against a loopback provider.
// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod cli;

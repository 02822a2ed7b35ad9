//! Shared helpers for the integration tests: the wire fixtures and the loopback server (from
//! `warden-testkit`), and a collector that turns a chunk stream into what a client extracts.

#![allow(dead_code)]

pub mod collect;

pub use warden_testkit::{fixture, fixture_json, server};

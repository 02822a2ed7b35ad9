//! Shared helpers for the integration tests: the wire fixtures, a loopback HTTP server that
//! replays them, and a collector that turns a chunk stream into what a client extracts.

// Tests fail loudly on anything unexpected, fixtures included.
#![allow(clippy::unwrap_used, clippy::expect_used)]
#![allow(dead_code)]

pub mod collect;
pub mod server;

use std::path::PathBuf;

/// `<repo>/../shared/wire`, resolved from this crate (`<repo>/src-tauri/crates/warden-core`).
pub fn wire_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../../shared/wire");
    assert!(
        dir.is_dir(),
        "the wire fixtures are missing: expected them at {} (the repository's sibling `shared/wire`)",
        dir.display()
    );
    dir
}

pub fn fixture(path: &str) -> Vec<u8> {
    let file = wire_dir().join(path);
    std::fs::read(&file).unwrap_or_else(|e| panic!("cannot read fixture {}: {e}", file.display()))
}

pub fn fixture_json(path: &str) -> serde_json::Value {
    serde_json::from_slice(&fixture(path)).unwrap_or_else(|e| panic!("fixture {path} is not JSON: {e}"))
}

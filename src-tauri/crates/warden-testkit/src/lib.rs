//! Test support shared by Warden's crates (dev-dependency only).
// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

pub mod scripted;
pub mod server;

use std::path::PathBuf;

/// `<repo>/../shared/wire`: the provider wire fixtures beside the repository.
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

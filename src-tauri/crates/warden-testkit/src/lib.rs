//! Test support shared by Warden's crates (dev-dependency only).
// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

pub mod images;
pub mod mcp;
pub mod rerun;
pub mod scripted;
pub mod server;

pub use rerun::rerun_with_env;

use std::path::PathBuf;

/// Every file under `root` (links are not followed: a link is listed as a file), sorted.
pub fn files_under(root: &std::path::Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The provider and search wire fixtures, kept in this crate (`wire/`, with a README saying where
/// each came from). Every test finds them through here.
pub fn wire_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("wire")
}

pub fn fixture(path: &str) -> Vec<u8> {
    let file = wire_dir().join(path);
    std::fs::read(&file).unwrap_or_else(|e| panic!("cannot read fixture {}: {e}", file.display()))
}

pub fn fixture_json(path: &str) -> serde_json::Value {
    serde_json::from_slice(&fixture(path)).unwrap_or_else(|e| panic!("fixture {path} is not JSON: {e}"))
}

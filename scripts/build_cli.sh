#!/usr/bin/env bash
# Builds the `warden` command as it ships (release profile): the engine (`warden-engine`) and the
# small front (`warden`), the front linked statically — no shared libraries to load at each start,
# ≈ 0.3 ms of every `warden sandbox` (src-tauri/crates/warden-cli/src/front.rs). Used by
# scripts/package.sh and bench/sandbox/run.sh; `cargo build -p warden-cli` gives the same two
# binaries with a dynamically linked front.
set -euo pipefail
cd "$(dirname "$0")/../src-tauri"
cargo build --release --locked -q -p warden-cli --bin warden-engine
# The first program of every box with the network (bridges the box's loopback to Warden's proxy).
cargo build --release --locked -q -p warden-box
cargo rustc --release --locked -q -p warden-cli --bin warden -- -C target-feature=+crt-static

#!/usr/bin/env bash
# The agent loop's own cost per iteration against bare loopback HTTP round trips that send the
# same request bodies, measured in the same run (crates/warden-core/examples/loop_overhead.rs).
#
#   bench/loop/run.sh [ITERATIONS] [RUNS]      (defaults 200 5)
set -euo pipefail
N=${1:-200}
RUNS=${2:-5}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
TARGET_DIR=${CARGO_TARGET_DIR:-$REPO/src-tauri/target}
(cd "$REPO/src-tauri" && cargo build --release -q -p warden-core --example loop_overhead)
for i in $(seq "$RUNS"); do
  echo "== run $i"
  "$TARGET_DIR/release/examples/loop_overhead" "$N"
done

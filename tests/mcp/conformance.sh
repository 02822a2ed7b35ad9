#!/usr/bin/env bash
# The MCP conformance suite's client scenarios (@modelcontextprotocol/conformance, on the Node 22 it
# needs, both from npm in tests/mcp) against Warden's MCP client, driven by
# `examples/mcp_conformance.rs`. Scenarios Warden does not pass yet are listed in
# conformance-baseline.yml: the run fails on any other failure, and on a listed scenario that
# passes (so the list only shrinks). Prints the suite's summary and the pass count.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
TARGET_DIR=${CARGO_TARGET_DIR:-$REPO/src-tauri/target}
(cd "$REPO/src-tauri" && cargo build -q --locked -p warden-core --example mcp_conformance)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
cd "$OUT"
status=0
"$HERE/node_modules/.bin/node" "$HERE/node_modules/.bin/conformance" client \
  --command "$TARGET_DIR/debug/examples/mcp_conformance" --suite all \
  --expected-failures "$HERE/conformance-baseline.yml" >"$OUT/log" 2>&1 || status=$?
sed -n '/=== SUITE SUMMARY ===/,$p' "$OUT/log"
if [ "$status" -ne 0 ]; then
  echo "conformance: unexpected result (a new failure, or a baseline entry that now passes); the log:" >&2
  tail -80 "$OUT/log" >&2
fi
exit "$status"

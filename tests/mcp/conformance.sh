#!/usr/bin/env bash
# The MCP conformance suite's client scenarios (@modelcontextprotocol/conformance, on the Node 22 it
# needs, both from npm in tests/mcp) against Warden's MCP client, driven by
# `examples/mcp_conformance.rs`. One scenario at a time (in parallel, the retry-timing scenario
# measures the machine's load). Scenarios Warden does not pass are listed, with why, in
# conformance-baseline.yml: the run fails on any other failure, and on a listed scenario that
# passes (so the list only shrinks). Prints one line per scenario and the totals.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
TARGET_DIR=${CARGO_TARGET_DIR:-$REPO/src-tauri/target}
(cd "$REPO/src-tauri" && cargo build -q --locked -p warden-core --example mcp_conformance)
NODE="$HERE/node_modules/.bin/node"
SUITE="$HERE/node_modules/.bin/conformance"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
cd "$OUT"

scenarios=$("$NODE" "$SUITE" list --client | sed -n 's/^  - \([^ ]*\) .*/\1/p')
failed=0 passed_checks=0 all_checks=0 passed_scenarios=0 count=0
for scenario in $scenarios; do
  count=$((count + 1))
  status=0
  "$NODE" "$SUITE" client --command "$TARGET_DIR/debug/examples/mcp_conformance" --scenario "$scenario" \
    --expected-failures "$HERE/conformance-baseline.yml" >"$OUT/log" 2>&1 || status=$?
  line=$(grep -E '^Passed: [0-9]+/[0-9]+' "$OUT/log" | tail -1 || true)
  checks=${line#Passed: }; checks=${checks%%,*}
  passed_checks=$((passed_checks + ${checks%/*})); all_checks=$((all_checks + ${checks#*/}))
  if grep -q 'OVERALL: PASSED' "$OUT/log"; then passed_scenarios=$((passed_scenarios + 1)); fi
  printf '  %-45s %s%s\n' "$scenario" "$line" "$([ "$status" -ne 0 ] && echo '   <- UNEXPECTED')"
  if [ "$status" -ne 0 ]; then
    failed=1
    tail -40 "$OUT/log" >&2
  fi
done
echo "conformance: $passed_scenarios of $count client scenarios pass; $passed_checks of $all_checks checks"
exit "$failed"

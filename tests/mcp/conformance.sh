#!/usr/bin/env bash
# The MCP conformance suite's client scenarios (@modelcontextprotocol/conformance, on the Node 22 it
# needs, both from npm in tests/mcp) against Warden's MCP client, driven by
# `examples/mcp_conformance.rs`. One scenario at a time (in parallel, the retry-timing scenario
# measures the machine's load). Scenarios Warden does not pass are listed, with why, in
# conformance-baseline.yml. Prints one line per scenario and the totals.
#
# The run decides each scenario itself rather than trusting the suite's exit status alone: a
# scenario passes when the suite says `OVERALL: PASSED` after at least one check (a client that
# dies at once runs no check, and the suite's baseline mode calls that a pass). It fails on a
# scenario that does not pass and is not in the baseline, on a baseline scenario that passes (so
# the list only shrinks), on a baseline entry the suite does not list, on a scenario whose exit
# status disagrees with that verdict, and when fewer than MIN_SCENARIOS scenarios ran (a change in
# the format of `conformance list` would otherwise run none and pass).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
TARGET_DIR=${CARGO_TARGET_DIR:-$REPO/src-tauri/target}
# The client scenarios of conformance 0.1.16 (tests/mcp/package.json). Raise it with the suite.
MIN_SCENARIOS=26
BASELINE="$HERE/conformance-baseline.yml"
(cd "$REPO/src-tauri" && cargo build -q --locked -p warden-core --example mcp_conformance)
NODE="$HERE/node_modules/.bin/node"
SUITE="$HERE/node_modules/.bin/conformance"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
cd "$OUT"

# The baseline read with the YAML parser the suite itself reads it with.
expected=$("$NODE" -e '
  const yaml = require(process.argv[1]);
  const doc = yaml.parse(require("fs").readFileSync(process.argv[2], "utf8")) ?? {};
  const client = doc.client ?? [];
  if (!Array.isArray(client)) throw new Error("`client` in the baseline is not a list");
  for (const name of client) console.log(String(name));
' "$HERE/node_modules/yaml" "$BASELINE")
in_baseline() { grep -qxF -- "$1" <<<"$expected"; }

scenarios=$("$NODE" "$SUITE" list --client | sed -n 's/^  - \([^ ]*\) .*/\1/p')
for name in $expected; do
  if ! grep -qxF -- "$name" <<<"$scenarios"; then
    echo "conformance: the baseline names \`$name\`, which the suite does not list: remove or rename it" >&2
    exit 1
  fi
done

failed=0 passed_checks=0 all_checks=0 passed_scenarios=0 count=0
for scenario in $scenarios; do
  count=$((count + 1))
  status=0
  "$NODE" "$SUITE" client --command "$TARGET_DIR/debug/examples/mcp_conformance" --scenario "$scenario" \
    --expected-failures "$BASELINE" >"$OUT/log" 2>&1 || status=$?
  line=$(grep -E '^Passed: [0-9]+/[0-9]+' "$OUT/log" | tail -1 || true)
  checks=${line#Passed: }; checks=${checks%%,*}
  [[ $checks =~ ^[0-9]+/[0-9]+$ ]] || checks=0/0
  passed_checks=$((passed_checks + ${checks%/*})); all_checks=$((all_checks + ${checks#*/}))
  passes=false
  if grep -q 'OVERALL: PASSED' "$OUT/log" && [ "${checks#*/}" -gt 0 ]; then
    passes=true passed_scenarios=$((passed_scenarios + 1))
  fi
  why=""
  case "$(in_baseline "$scenario" && echo listed || echo unlisted)/$passes" in
    listed/true) why="passes but is in the baseline: remove it from conformance-baseline.yml" ;;
    unlisted/false) why="does not pass (${checks} checks)" ;;
    */*) [ "$status" -eq 0 ] || why="the suite's baseline check failed (status $status)" ;;
  esac
  printf '  %-45s %s%s\n' "$scenario" "${line:-no result}" "${why:+   <- UNEXPECTED: $why}"
  if [ -n "$why" ]; then
    failed=1
    tail -40 "$OUT/log" >&2
  fi
done
echo "conformance: $passed_scenarios of $count client scenarios pass; $passed_checks of $all_checks checks"
if [ "$count" -lt "$MIN_SCENARIOS" ]; then
  echo "conformance: only $count client scenarios ran, at least $MIN_SCENARIOS expected:" \
    "has the output of \`conformance list --client\` changed?" >&2
  exit 1
fi
exit "$failed"

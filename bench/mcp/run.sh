#!/usr/bin/env bash
# MCP client benchmark: Warden's client (rmcp under Warden's connection, release build) against the
# official TypeScript SDK's client, on the same server (server-everything over stdio), in the same
# run, alternating. Each round is a fresh process of each client: start the server, list its tools
# (the start-up figure), then CALLS sequential `echo` calls (the per-call figure). The TypeScript
# client runs twice per round: as is, and declaring roots as Warden's client does (server-everything
# registers one more tool for such a client and asks it for its roots: the same work for both).
# Warden's client also runs with its server in the box (`--boxed`), as users' stdio servers start:
# that is the headline, and the unboxed row says the box's share.
#
#   bench/mcp/run.sh [CALLS] [ROUNDS]     (defaults 1000 7)
#
# Prints the medians and Warden's ratio to the TypeScript client (below 1 = Warden faster).
set -euo pipefail

CALLS=${1:-1000}
ROUNDS=${2:-7}
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
TARGET_DIR=${CARGO_TARGET_DIR:-$REPO/src-tauri/target}
CLIENT="$TARGET_DIR/release/examples/mcp_client"
SERVER="$REPO/tests/mcp/node_modules/.bin/mcp-server-everything"

command -v node >/dev/null || { echo "missing: node (Node 20+)" >&2; exit 1; }
[ -x "$SERVER" ] || (cd "$REPO/tests/mcp" && npm ci --no-audit --no-fund --loglevel=error)

echo "== building Warden's client (release)"
(cd "$REPO/src-tauri" && cargo build --release -q -p warden-core --example mcp_client)

# Both clients run in the same small environment, so their servers start with the same one: the
# TypeScript client gives its server only HOME, LOGNAME, PATH, SHELL, TERM and USER, Warden's gives
# its server the user's environment without credentials. Left as they are, a variable such as
# NODE_EXTRA_CA_CERTS (set on the machines here: Node then reads 144 certificates as it starts,
# ≈ 40 ms) would be timed as a difference between the clients.
CLEAN=(env -i HOME="$HOME" PATH="$PATH")

RESULTS=$(mktemp)
# The project the boxed server starts in (its box's writable folder), as a user's would.
PROJECT=$(mktemp -d)
trap 'rm -rf "$RESULTS" "$PROJECT"' EXIT
for round in $(seq "$ROUNDS"); do
  for client in warden-boxed warden typescript typescript-roots; do
    case "$client" in
      warden-boxed) line=$(cd "$PROJECT" && "${CLEAN[@]}" "$CLIENT" "$CALLS" --boxed -- "$SERVER" stdio) ;;
      warden) line=$("${CLEAN[@]}" "$CLIENT" "$CALLS" -- "$SERVER" stdio) ;;
      typescript) line=$("${CLEAN[@]}" node "$HERE/ts_client.mjs" "$CALLS" -- "$SERVER" stdio) ;;
      typescript-roots) line=$("${CLEAN[@]}" node "$HERE/ts_client.mjs" "$CALLS" --roots -- "$SERVER" stdio) ;;
    esac
    echo "$client $line" >>"$RESULTS"
    printf '   round %d %-10s %s\n' "$round" "$client" "$line"
  done
done

python3 - "$RESULTS" "$CALLS" <<'PY'
import json, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, data = line.split(" ", 1)
    rows.setdefault(name, []).append(json.loads(data))
calls = int(sys.argv[2])
med = lambda name, key: statistics.median(r[key] for r in rows[name])
b_start, w_start, t_start = med("warden-boxed", "startup_ms"), med("warden", "startup_ms"), med("typescript", "startup_ms")
per_call = lambda name: med(name, "calls_ms") / calls * 1000
b_call, w_call, t_call = per_call("warden-boxed"), per_call("warden"), per_call("typescript")
print(f"== medians over {len(rows['warden'])} rounds, {calls} calls each")
print("   what users get: Warden's client with the server in the box (the TypeScript client has no box)")
print(f"   start-up to a listed toolset: warden {b_start:7.1f} ms   typescript {t_start:7.1f} ms   ratio {b_start / t_start:.2f}")
print(f"   one echo call (round trip):  warden {b_call:7.1f} µs   typescript {t_call:7.1f} µs   ratio {b_call / t_call:.2f}")
print(f"   the box's share: start-up {b_start - w_start:+.1f} ms ({w_start:.1f} ms unboxed, ratio {w_start / t_start:.2f}); per call {b_call - w_call:+.1f} µs ({w_call:.1f} µs unboxed)")
r_start = med("typescript-roots", "startup_ms")
print(f"   start-up, the TypeScript client declaring roots as Warden does (same tools listed): {r_start:7.1f} ms   ratio {b_start / r_start:.2f} (boxed)")
PY

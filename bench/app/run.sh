#!/usr/bin/env bash
# App start-up, memory and frame-time benchmark: Warden vs a hello-world Tauri 2 app built in the
# same run with the same profile, tauri version and target dir.
#
#   bench/app/run.sh                       debug profile (shares the e2e build)
#   BENCH_PROFILE=release bench/app/run.sh release profile for both apps
#   BENCH_RUNS=5 BENCH_MESSAGES=2000 BENCH_DELTAS=5000 BENCH_TOOLS=200 (defaults)
#   BENCH_ONLY=start | drive               only the start-up part | only the conversation part
#   BENCH_PROBE=1                          per-frame breakdown of the stream (frame callbacks, layout)
#
# Measures: launch → mapped window and launch → first contentful paint (medians of BENCH_RUNS),
# idle PSS summed over the app and its WebKit children, Warden's PSS after a BENCH_MESSAGES-message
# conversation (which starts with the stream below), the page's frame times while
# BENCH_DELTAS text deltas and BENCH_TOOLS tool blocks stream in (an idle page's frames beside them),
# and the longest frame of a 200 KB paste (a real Ctrl+V through XTEST from xclip's clipboard) as
# the message field's chip against a plain textarea in the same run.
set -euo pipefail
command -v xclip >/dev/null || { echo "bench: missing xclip (bash scripts/setup.sh installs it)" >&2; exit 2; }

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT="$ROOT/bench/out"
PROFILE="${BENCH_PROFILE:-debug}"
export BENCH_RUNS="${BENCH_RUNS:-5}" BENCH_MESSAGES="${BENCH_MESSAGES:-2000}"
export BENCH_DELTAS="${BENCH_DELTAS:-5000}" BENCH_TOOLS="${BENCH_TOOLS:-200}"
export CARGO_TARGET_DIR="$ROOT/src-tauri/target"
cargo_profile=(); [[ "$PROFILE" == release ]] && cargo_profile=(--release)

echo "bench: building hello-world and Warden ($PROFILE, custom-protocol)" >&2
rm -rf "$OUT/hello" && mkdir -p "$OUT" && cp -r "$ROOT/bench/app/hello" "$OUT/hello"
mkdir -p "$OUT/hello/dist" "$OUT/hello/icons"
printf '<!doctype html><html><head><meta charset="utf-8"><title>Hello</title></head><body><h1>Hello, world</h1></body></html>\n' \
  >"$OUT/hello/dist/index.html"
cp "$ROOT/src-tauri/icons/"{32x32.png,128x128.png,icon.png} "$OUT/hello/icons/"
# Same dependency versions as Warden, so the shared target dir reuses tauri's artifacts.
cp "$ROOT/src-tauri/Cargo.lock" "$OUT/hello/Cargo.lock"
(cd "$OUT/hello" && cargo build "${cargo_profile[@]}" --features custom-protocol 2>&1 | tail -1 >&2)
(cd "$ROOT" && { [[ -d node_modules ]] || npm ci --no-audit --no-fund; } && npm run build >/dev/null)
(cd "$ROOT/src-tauri" && cargo build -p warden-desktop "${cargo_profile[@]}" --features custom-protocol 2>&1 | tail -1 >&2)
export HELLO_APP="$CARGO_TARGET_DIR/$PROFILE/hello-tauri" WARDEN_APP="$CARGO_TARGET_DIR/$PROFILE/warden-desktop"
command -v tauri-driver >/dev/null || cargo install tauri-driver --locked --version 2.1.0

RUN_DIR="$(mktemp -d /tmp/warden-bench.XXXXXX)"
export RUN_DIR ROOT
trap 'rm -rf "$RUN_DIR"' EXIT
NO_AT_BRIDGE=1 XDG_DATA_HOME="$RUN_DIR/data" XDG_CONFIG_HOME="$RUN_DIR/config" RUST_BACKTRACE=0 \
  dbus-run-session -- bash "$ROOT/bench/app/session.sh" \
  2> >(grep --line-buffered -v -E 'dbus-daemon|xdg-desktop-portal|Gtk-WARNING|SpiRegistry|pw.conf|max threads|^$' >&2)

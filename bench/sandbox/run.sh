#!/usr/bin/env bash
# What the box costs per command: starting `true` through `warden sandbox` (the box the agent's
# commands run in: bubblewrap + seccomp, secret locations hidden), against a plain spawn and a
# minimal bare bubblewrap in the same run, and — with PEERS=1, installed from npm into bench/out —
# `codex sandbox` (@openai/codex) and `srt` (@anthropic-ai/sandbox-runtime).
#
#   bench/sandbox/run.sh            RUNS (default 200) per contestant, hyperfine medians and ratios
#   PEERS=1 bench/sandbox/run.sh    also the peers (npm downloads, once)
#
# Every contestant is a fresh process from start to exit, CLI start-up included. The goal of the
# containment issue: warden sandbox within 1.5x of bare bubblewrap's median.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="$repo/bench/out/sandbox"
runs="${RUNS:-200}"
mkdir -p "$out"
command -v hyperfine >/dev/null || { echo "missing hyperfine (bash scripts/setup.sh installs it)" >&2; exit 1; }
command -v bwrap >/dev/null || { echo "missing bwrap (bash scripts/setup.sh installs bubblewrap)" >&2; exit 1; }

echo "== building warden (release)"
(cd "$repo/src-tauri" && cargo build --release -q -p warden-cli)
warden="${CARGO_TARGET_DIR:-$repo/src-tauri/target}/release/warden"
project=$(mktemp -d)
trap 'rm -rf "$project"' EXIT

contestants=(
  -n plain "true"
  -n bwrap-bare "bwrap --ro-bind / / --dev /dev --proc /proc --unshare-all --die-with-parent -- true"
  -n warden-sandbox "$warden sandbox --project $project -- true"
)
if [ "${PEERS:-0}" = 1 ]; then
  if [ ! -x "$out/peers/node_modules/.bin/codex" ] || [ ! -x "$out/peers/node_modules/.bin/srt" ]; then
    echo "== installing codex and srt from npm into $out/peers"
    mkdir -p "$out/peers"
    (cd "$out/peers" && { [ -f package.json ] || echo '{"private":true}' > package.json; } &&
      npm install --no-audit --no-fund --loglevel=error @openai/codex @anthropic-ai/sandbox-runtime >/dev/null)
  fi
  # srt relays its proxies through socat (a Debian package).
  command -v socat >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -q socat >/dev/null
  bin="$out/peers/node_modules/.bin"
  contestants+=(-n codex-sandbox "$bin/codex sandbox -- true")
  contestants+=(-n srt "$bin/srt true")
fi

echo "== $runs runs each (hyperfine, no shell)"
(cd "$project" && hyperfine -N --warmup 10 --runs "$runs" --export-json "$out/result.json" "${contestants[@]}" >/dev/null)
node -e '
  const r = require(process.argv[1]).results;
  const med = (x) => x.median * 1000;
  const by = Object.fromEntries(r.map((x) => [x.command, med(x)]));
  for (const x of r) console.log(`${x.command.padEnd(16)} median ${med(x).toFixed(2).padStart(8)} ms   mean ${(x.mean * 1000).toFixed(2).padStart(8)} ms`);
  const ratio = by["warden-sandbox"] / by["bwrap-bare"];
  console.log(`warden sandbox / bare bwrap: ${ratio.toFixed(2)}x (goal <= 1.5x)`);
  if (by["codex-sandbox"]) console.log(`codex sandbox / warden sandbox: ${(by["codex-sandbox"] / by["warden-sandbox"]).toFixed(1)}x`);
  if (by["srt"]) console.log(`srt / warden sandbox: ${(by["srt"] / by["warden-sandbox"]).toFixed(1)}x`);
' "$out/result.json"

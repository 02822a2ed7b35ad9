#!/usr/bin/env bash
# Stream-parsing benchmark: Warden's providers vs the official npm SDKs' stream helpers, same
# bodies, same loopback server, same run. Each measurement is a fresh process, end to end
# (start-up, HTTP request, parse every event, accumulate the final message).
#
#   bench/stream/run.sh [TEXT_DELTAS] [ARG_FRAGMENTS] [RUNS]     (defaults 60000 10000 5)
#
# Prints per-run medians of wall time and peak RSS (/usr/bin/time -v), the ratios, and a
# linearity check of Warden's parser (N vs 2N events).
set -euo pipefail

N=${1:-60000}
M=${2:-10000}
RUNS=${3:-5}
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
OUT="$REPO/bench/out"
TARGET_DIR=${CARGO_TARGET_DIR:-$REPO/src-tauri/target}
DRAIN="$TARGET_DIR/release/examples/stream_drain"
WARDEN="$TARGET_DIR/release/warden"

need() { command -v "$1" >/dev/null 2>&1 || { echo "missing: $1 ($2)" >&2; exit 1; }; }
need node "Node 20+"
need npm "npm"
need cargo "Rust toolchain"
need curl "curl (server warm-up)"
if [ ! -x /usr/bin/time ]; then
  echo "installing GNU time (apt)…" >&2
  apt-get install -y time >/dev/null
fi

echo "== building (release) and installing the SDKs"
(cd "$REPO/src-tauri" && cargo build --release -q -p warden-core --example stream_drain && cargo build --release -q -p warden-cli)
EXEC_HOME=$(mktemp -d)
EXEC_PROJECT=$(mktemp -d)
(cd "$HERE" && { [ -d node_modules/@anthropic-ai/sdk ] && [ -d node_modules/openai ] || npm install --no-audit --no-fund --silent; })

echo "== generating bodies: $N text deltas + a tool call of $M argument fragments (and 2N for linearity)"
node "$HERE/gen.mjs" "$OUT/n" "$N" "$M"
node "$HERE/gen.mjs" "$OUT/2n" "$((2 * N))" "$((2 * M))"
ls -l "$OUT/n" | awk 'NR>1 {printf "   %-14s %8.1f MB\n", $9, $5/1048576}'

SERVER_PIDS=()
cleanup() { for p in "${SERVER_PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap 'cleanup; rm -rf "$EXEC_HOME" "$EXEC_PROJECT"' EXIT
start_server() { # dir → sets PORT
  local fifo; fifo=$(mktemp -u); mkfifo "$fifo"
  node "$HERE/serve.mjs" "$1" >"$fifo" & SERVER_PIDS+=($!)
  read -r PORT <"$fifo"; rm -f "$fifo"
}

# measure RUN NAME CMD… → appends "name wall_ms rss_kb" to $RESULTS; prints the output of run 1
RESULTS=$(mktemp)
measure() {
  local i=$1 name=$2; shift 2
  {
    local log; log=$(mktemp)
    local t0 t1; t0=$(date +%s%N)
    if ! /usr/bin/time -v "$@" >"$log.out" 2>"$log"; then
      echo "FAILED: $name" >&2; cat "$log" "$log.out" >&2; exit 1
    fi
    t1=$(date +%s%N)
    local rss; rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
    local cpu; cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {printf "%d", s * 1000}' "$log")
    echo "$name $(( (t1 - t0) / 1000000 )) $rss $cpu" >>"$RESULTS"
    [ "$i" = 1 ] && printf "   %-22s %s\n" "$name" "$(cat "$log.out")"
    rm -f "$log" "$log.out"
  }
}
median() { # name column → median
  awk -v n="$1" -v c="$2" '$1==n {print $c}' "$RESULTS" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

start_server "$OUT/n"
BASE="http://127.0.0.1:$PORT"
start_server "$OUT/2n"
BASE2="http://127.0.0.1:$PORT"
# Warm the servers up (JIT, page cache) so no contestant pays for it.
for b in "$BASE" "$BASE2"; do
  for i in 1 2 3; do
    curl -s -o /dev/null -X POST "$b/v1/messages"; curl -s -o /dev/null -X POST "$b/v1/chat/completions"
  done
done
echo "== running ($RUNS rounds, contestants interleaved, fresh process each; medians reported)"
for i in $(seq 1 "$RUNS"); do
  measure "$i" warden-anthropic "$DRAIN" anthropic "$BASE"
  measure "$i" sdk-anthropic node "$HERE/sdk_anthropic.mjs" "$BASE"
  # What a user runs: the whole CLI, events as JSON lines to /dev/null. A Claude model name: the
  # engine budgets with its 200k window (an unknown name gets 32k, which the 70,000 output tokens
  # of the body would spend, ending the turn with exit 1).
  measure "$i" warden-exec env WARDEN_HOME="$EXEC_HOME" ANTHROPIC_API_KEY=bench sh -c \
    'exec "$0" exec --json --provider anthropic --model claude-bench --base-url "$1" --project "$2" hi >/dev/null' \
    "$WARDEN" "$BASE" "$EXEC_PROJECT"
  measure "$i" warden-openai "$DRAIN" openai "$BASE/v1"
  measure "$i" sdk-openai node "$HERE/sdk_openai.mjs" "$BASE/v1"
  measure "$i" warden-anthropic-2n "$DRAIN" anthropic "$BASE2"
  measure "$i" warden-openai-2n "$DRAIN" openai "$BASE2/v1"
done

echo
echo "machine load while measuring: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores (wall time includes waiting for the CPU; CPU time does not)"
printf "%-22s %10s %10s %12s\n" "parser" "wall ms" "CPU ms" "peak RSS MB"
for name in warden-anthropic warden-openai warden-exec sdk-anthropic sdk-openai warden-anthropic-2n warden-openai-2n; do
  printf "%-22s %10s %10s %12.1f\n" "$name" "$(median $name 2)" "$(median $name 4)" "$(echo "$(median $name 3)" | awk '{print $1/1024}')"
done

wa=$(median warden-anthropic 2); wo=$(median warden-openai 2)
sa=$(median sdk-anthropic 2); so=$(median sdk-openai 2)
ra=$(median warden-anthropic 3); ro=$(median warden-openai 3)
rsa=$(median sdk-anthropic 3); rso=$(median sdk-openai 3)
fastest_sdk=$(( sa < so ? sa : so ))
slowest_warden=$(( wa > wo ? wa : wo ))
echo
awk -v wa="$wa" -v sa="$sa" -v ra="$ra" -v rsa="$rsa" 'BEGIN {printf "anthropic: Warden %.1fx faster than @anthropic-ai/sdk, %.1f%% of its memory\n", sa/wa, 100*ra/rsa}'
awk -v wo="$wo" -v so="$so" -v ro="$ro" -v rso="$rso" 'BEGIN {printf "openai:    Warden %.1fx faster than openai,            %.1f%% of its memory\n", so/wo, 100*ro/rso}'
awk -v w="$slowest_warden" -v s="$fastest_sdk" 'BEGIN {r=s/w; printf "wall time, slowest Warden vs fastest SDK: %.1fx (target >= 10x): %s\n", r, (r>=10 ? "PASS" : "FAIL")}'
we=$(median warden-exec 2)
awk -v w="$we" -v s="$sa" 'BEGIN {r=s/w; printf "warden exec --json > /dev/null vs @anthropic-ai/sdk finalMessage(): %.1fx (target >= 10x): %s\n", r, (r>=10 ? "PASS" : "FAIL")}'
cw=$(( $(median warden-anthropic 4) > $(median warden-openai 4) ? $(median warden-anthropic 4) : $(median warden-openai 4) ))
cs=$(( $(median sdk-anthropic 4) < $(median sdk-openai 4) ? $(median sdk-anthropic 4) : $(median sdk-openai 4) ))
awk -v w="$cw" -v s="$cs" 'BEGIN {r=s/(w>0?w:1); printf "CPU time,  slowest Warden vs fastest SDK: %.1fx (target >= 10x): %s\n", r, (r>=10 ? "PASS" : "FAIL")}'
la=$(median warden-anthropic-2n 2); lo=$(median warden-openai-2n 2)
awk -v a="$wa" -v a2="$la" -v o="$wo" -v o2="$lo" 'BEGIN {
  printf "linearity (time 2N / time N, 2.0 = linear, start-up makes it lower): anthropic %.2f, openai %.2f: %s\n",
    a2/a, o2/o, ((a2/a <= 2.6 && o2/o <= 2.6) ? "PASS" : "FAIL") }'
rm -f "$RESULTS"

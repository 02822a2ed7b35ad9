#!/usr/bin/env bash
# Stream benchmark: Warden against the official npm SDKs on the same streamed bodies, served by the
# same loopback server in the same run. Every measurement is a fresh process, end to end (start-up,
# HTTP requests, every event parsed, the final message built); contestants are interleaved round by
# round and the medians are compared.
#
#   bench/stream/run.sh [TEXT_DELTAS] [ARG_FRAGMENTS] [RUNS]     (defaults 60000 10000 7)
#
# The body: N text deltas, then one tool call (file_write) whose arguments come in M fragments.
#
# Row 1, the headline — one whole turn as a user runs it:
#   Warden: `warden exec --json` (process start, its store, both requests of the turn: the big
#           message, its tool call refused by the project's permissions, the follow-up request with
#           that result, the short final answer; every event printed as a JSON line to /dev/null).
#   SDK:    @anthropic-ai/sdk sending the same two requests (the first is Warden's own, recorded by
#           the server: model, system prompt, tools, message; the second carries the built message
#           and the same refused tool result — both the same size as Warden's) and building both
#           final messages, the faster of its two ways: the raw events iterated and accumulated by
#           hand, or messages.stream().finalMessage() (both are measured and printed).
# Row 2, the parsers alone — one request, the final message built:
#   Warden: examples/stream_drain (the provider's stream, text joined, tool arguments parsed into
#           JSON once at the call's end).
#   SDK:    the same request and final message with @anthropic-ai/sdk / openai, the faster of raw
#           events accumulated by hand and the stream helper (finalMessage / finalChatCompletion).
#   Both sides print a summary of the message they built; the run fails if they differ.
#
# Goals (wall time, medians; PASS/MISS printed, exit 1 on any MISS):
#   headline: the SDK's faster turn takes >= 3x as long as `warden exec`'s (measured 5.5x and 7.1x
#             on a shared 2-core machine: both pay process start-up and the follow-up request, and
#             Warden also keeps its store and prints every event);
#   parsers:  the SDK's faster final message takes >= 8x as long as Warden's, for each provider
#             (measured 16-23x; Node's start-up and the SDK's import take ~0.25 s of it, and
#             without start-up the ratio is still 11-17x, printed as information);
#   linearity: Warden's parser at 2N events takes <= 2.6x its time at N (2.0 = linear; start-up
#             makes it lower).
# Peak RSS (/usr/bin/time -v) and CPU time are printed beside, without goals.
set -euo pipefail

N=${1:-60000}
M=${2:-10000}
RUNS=${3:-7}
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
OUT="$REPO/bench/out"
TARGET_DIR=${CARGO_TARGET_DIR:-$REPO/src-tauri/target}
DRAIN="$TARGET_DIR/release/examples/stream_drain"
WARDEN="$TARGET_DIR/release/warden"
HEADLINE_GOAL=3
PARSER_GOAL=8
LINEARITY_MAX=2.6

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
if [ ! -d "$HERE/node_modules/@anthropic-ai/sdk" ] || [ ! -d "$HERE/node_modules/openai" ]; then
  (cd "$HERE" && npm ci --no-audit --no-fund --silent)
fi

echo "== generating bodies: $N text deltas + a tool call of $M argument fragments (and 2N for linearity)"
node "$HERE/gen.mjs" "$OUT/n" "$N" "$M"
node "$HERE/gen.mjs" "$OUT/2n" "$((2 * N))" "$((2 * M))"
for f in "$OUT"/n/*.sse; do
  printf "   %-14s %8.1f MB\n" "$(basename "$f")" "$(stat -c %s "$f" | awk '{print $1/1048576}')"
done

WORK=$(mktemp -d)
EXEC_HOME="$WORK/home"
EXEC_PROJECT="$WORK/project"
TURN_REQUEST="$WORK/turn-request.json"
OUTPUTS="$WORK/outputs"
RESULTS="$WORK/results"
mkdir -p "$EXEC_HOME" "$EXEC_PROJECT" "$OUTPUTS"
SERVER_PIDS=()
cleanup() {
  for p in "${SERVER_PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
start_server() { # dir [record-file] → sets PORT
  local fifo; fifo=$(mktemp -u); mkfifo "$fifo"
  RECORD_REQUEST=${2:-} node "$HERE/serve.mjs" "$1" >"$fifo" & SERVER_PIDS+=($!)
  read -r PORT <"$fifo"; rm -f "$fifo"
}

# measure RUN NAME CMD… → appends "name wall_ms rss_kb cpu_ms in_process_ms" to $RESULTS (the last
# is what the contestant says on stderr it took after its start-up, "-" when it does not say); keeps
# run 1's output
measure() {
  local i=$1 name=$2; shift 2
  local log="$WORK/time.log" t0 t1
  t0=$(date +%s%N)
  if ! /usr/bin/time -v "$@" >"$log.out" 2>"$log"; then
    echo "FAILED: $name" >&2; cat "$log" "$log.out" >&2; exit 1
  fi
  t1=$(date +%s%N)
  local rss cpu inproc
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
  cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {printf "%d", s * 1000}' "$log")
  inproc=$(sed -n 's/^in_process_ms=//p' "$log" | head -n 1)
  echo "$name $(( (t1 - t0) / 1000000 )) $rss $cpu ${inproc:--}" >>"$RESULTS"
  if [ "$i" = 1 ]; then
    cp "$log.out" "$OUTPUTS/$name"
    printf "   %-24s %s\n" "$name" "$(if [ -s "$log.out" ]; then cat "$log.out"; else echo "(its output went to /dev/null)"; fi)"
  fi
}
median() { # name column → median ("-" when the contestant gave none)
  awk -v n="$1" -v c="$2" '$1==n && $c != "-" {print $c}' "$RESULTS" | sort -n |
    awk '{a[NR]=$1} END {print (NR ? a[int((NR+1)/2)] : "-")}'
}
# The whole CLI, events as JSON lines to /dev/null: EXEC_TURN… <base-url>. A Claude model name: the
# engine budgets with its 200k window (an unknown name gets 32k, which the 70,000 output tokens of
# the body would spend, ending the turn with exit 1).
# shellcheck disable=SC2016 # $0..$2 are the inner shell's arguments
EXEC_TURN=(env WARDEN_HOME="$EXEC_HOME" ANTHROPIC_API_KEY=bench sh -c
  'exec "$0" exec --json --provider anthropic --model claude-bench --base-url "$2" --project "$1" hi >/dev/null'
  "$WARDEN" "$EXEC_PROJECT")

start_server "$OUT/n" "$TURN_REQUEST"
BASE="http://127.0.0.1:$PORT"
start_server "$OUT/2n"
BASE2="http://127.0.0.1:$PORT"
# Warm the servers up (JIT, page cache) so no contestant pays for it; the warm-up turn of
# `warden exec` also records its first request for the SDK's turn.
for b in "$BASE" "$BASE2"; do
  for _ in 1 2 3; do
    curl -s -o /dev/null -X POST "$b/v1/messages"; curl -s -o /dev/null -X POST "$b/v1/chat/completions"
  done
done
"${EXEC_TURN[@]}" "$BASE" 2>/dev/null
[ -s "$TURN_REQUEST" ] || { echo "the warm-up turn of warden exec sent no request offering tools" >&2; exit 1; }
echo "   warden exec's first request: $(wc -c <"$TURN_REQUEST") bytes (model, system prompt, 8 tools, the user's message)"

echo "== running ($RUNS rounds, contestants interleaved, fresh process each; run 1's output shown)"
for i in $(seq 1 "$RUNS"); do
  measure "$i" warden-exec "${EXEC_TURN[@]}" "$BASE"
  measure "$i" sdk-turn-raw node "$HERE/sdk_anthropic.mjs" "$BASE" raw "$TURN_REQUEST"
  measure "$i" sdk-turn-helper node "$HERE/sdk_anthropic.mjs" "$BASE" helper "$TURN_REQUEST"
  measure "$i" warden-anthropic "$DRAIN" anthropic "$BASE"
  measure "$i" sdk-anthropic-raw node "$HERE/sdk_anthropic.mjs" "$BASE" raw
  measure "$i" sdk-anthropic-helper node "$HERE/sdk_anthropic.mjs" "$BASE" helper
  measure "$i" warden-openai "$DRAIN" openai "$BASE/v1"
  measure "$i" sdk-openai-raw node "$HERE/sdk_openai.mjs" "$BASE/v1" raw
  measure "$i" sdk-openai-helper node "$HERE/sdk_openai.mjs" "$BASE/v1" helper
  measure "$i" warden-anthropic-2n "$DRAIN" anthropic "$BASE2"
  measure "$i" warden-openai-2n "$DRAIN" openai "$BASE2/v1"
done

# Every contestant built the same message, and every turn made both of its requests.
for name in sdk-anthropic-raw sdk-anthropic-helper sdk-openai-raw sdk-openai-helper; do
  provider=${name#sdk-}; provider=${provider%%-*}
  if ! cmp -s "$OUTPUTS/$name" "$OUTPUTS/warden-$provider"; then
    echo "MISMATCH: $name built a different message than warden-$provider" >&2; exit 1
  fi
done
stats=$(curl -s "$BASE/stats")
echo "   turns served: $stats (the warm-up turn included)"
echo "$stats" | awk -v want="$((3 * RUNS + 1))" -F'[:,}]' '{ if ($2 != want || $4 != want) { print "expected " want " first requests and " want " follow-ups" > "/dev/stderr"; exit 1 } }'

echo
echo "machine load while measuring: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores (wall time includes waiting for the CPU; CPU time does not)"
echo "(in-process: the time after start-up, from the first request to the last message built, as each says)"
printf "%-24s %10s %10s %12s %12s\n" "contestant (medians)" "wall ms" "CPU ms" "peak RSS MB" "in-process"
for name in warden-exec sdk-turn-raw sdk-turn-helper warden-anthropic sdk-anthropic-raw sdk-anthropic-helper \
  warden-openai sdk-openai-raw sdk-openai-helper warden-anthropic-2n warden-openai-2n; do
  printf "%-24s %10s %10s %12.1f %12s\n" "$name" "$(median "$name" 2)" "$(median "$name" 4)" \
    "$(median "$name" 3 | awk '{print $1/1024}')" "$(median "$name" 5)"
done

MISSES=0
# verdict RATIO GOAL: PASS when ratio >= goal (the caller counts the misses)
verdict() {
  if awk -v r="$1" -v g="$2" 'BEGIN {exit !(r >= g)}'; then echo "PASS"; else echo "MISS"; fi
}
min() { if [ "$1" -le "$2" ]; then echo "$1"; else echo "$2"; fi; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.1f", a / (b > 0 ? b : 1)}'; }
row() { # label warden-name sdk-raw-name sdk-helper-name goal description…
  local label=$1 w s_raw s_helper s r v; w=$(median "$2" 2); s_raw=$(median "$3" 2); s_helper=$(median "$4" 2)
  s=$(min "$s_raw" "$s_helper"); r=$(ratio "$s" "$w")
  v=$(verdict "$r" "$5")
  [ "$v" = MISS ] && MISSES=$((MISSES + 1))
  echo
  printf "%s: Warden %s ms, SDK %s ms (raw events %s ms, helper %s ms): %sx (goal >= %sx): %s\n" \
    "$label" "$w" "$s" "$s_raw" "$s_helper" "$r" "$5" "$v"
  local wi si_raw si_helper; wi=$(median "$2" 5); si_raw=$(median "$3" 5); si_helper=$(median "$4" 5)
  shift 5
  for line in "$@"; do echo "   $line"; done
  if [ "$wi" != - ]; then
    awk -v w="$wi" -v r="$si_raw" -v h="$si_helper" 'BEGIN { s = (r < h ? r : h);
      printf "   without start-up (in-process, information only): Warden %.1f ms, SDK %.1f ms: %.1fx\n", w, s, s / w }'
  else
    echo "   without start-up (in-process, information only): SDK raw events $si_raw ms, helper $si_helper ms (Warden's CLI does not say)"
  fi
}

echo
echo "== verdicts (wall time, medians; the SDK side is its faster way)"
row "headline, one turn (anthropic)" warden-exec sdk-turn-raw sdk-turn-helper "$HEADLINE_GOAL" \
  "Warden: warden exec --json, fresh process: its store, request 1 (the big message), the tool call refused, request 2, the answer" \
  "SDK:    node + @anthropic-ai/sdk, fresh process: the same two requests, both final messages built"
row "parsers, anthropic" warden-anthropic sdk-anthropic-raw sdk-anthropic-helper "$PARSER_GOAL" \
  "Warden: stream_drain, fresh process: one request, the provider's chunks built into the final message (tool input parsed)" \
  "SDK:    node + @anthropic-ai/sdk, fresh process: one request, the final message built"
row "parsers, openai" warden-openai sdk-openai-raw sdk-openai-helper "$PARSER_GOAL" \
  "Warden: stream_drain, fresh process: one request, the provider's chunks built into the final message (tool input parsed)" \
  "SDK:    node + openai, fresh process: one request, the final message built"

wa=$(median warden-anthropic 2); wo=$(median warden-openai 2)
la=$(median warden-anthropic-2n 2); lo=$(median warden-openai-2n 2)
linear=$(awk -v a="$wa" -v a2="$la" -v o="$wo" -v o2="$lo" -v max="$LINEARITY_MAX" \
  'BEGIN {print ((a2/a <= max && o2/o <= max) ? "PASS" : "MISS")}')
[ "$linear" = MISS ] && MISSES=$((MISSES + 1))
echo
awk -v a="$wa" -v a2="$la" -v o="$wo" -v o2="$lo" -v max="$LINEARITY_MAX" -v v="$linear" 'BEGIN {
  printf "linearity (Warden parser, time 2N / time N, 2.0 = linear, start-up makes it lower): anthropic %.2f, openai %.2f (goal <= %s): %s\n",
    a2/a, o2/o, max, v }'

echo
if [ "$MISSES" -gt 0 ]; then
  echo "RESULT: $MISSES goal(s) missed"
  exit 1
fi
echo "RESULT: every goal met"

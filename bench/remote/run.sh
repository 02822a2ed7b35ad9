#!/usr/bin/env bash
# Remote benchmark: what the link adds when the engine runs elsewhere (`warden exec --remote`),
# against the same turn run here, in the same run, rows interleaved round by round.
#
#   bench/remote/run.sh [ROUNDS] [TEXT_DELTAS] [RUNS]     (defaults 20 60000 5)
#
# Rows:
#   local: `warden exec --json` (the engine in this process).
#   pipe:  `warden exec --json --remote …` through `warden serve --stdio` started directly: the link's
#          frames, the bridge and the per-user engine on its unix socket, no network.
#   ssh:   the same through a real sshd on 127.0.0.1 (started here as root, with its own port, host
#          key and configuration; skipped when not root or openssh-server is missing): encryption and
#          ssh's own buffering added.
# Measures:
#   approvals: a turn of ROUNDS `file_write` calls, each confirmed the moment it is read; the round
#              trip is the answer written → the call's result read (the write and its checkpoint are
#              the same work in every row), median of all rounds of all runs.
#   stream:    one message of TEXT_DELTAS text deltas (bench/stream's body) and its turn: the
#              provider's deltas per second of the whole run, process start and link set-up
#              included. The engine joins the deltas that arrive together into one `chat:text-delta`
#              before anything crosses the link, so the events the link carries are far fewer
#              (printed beside).
# Goals (PASS/MISS; exit 1 on a MISS): the ssh row (the pipe row without sshd) adds < 5 ms to the
# median approval round trip over local, and a stream through it goes at >= 10,000 deltas/s end to
# end.
set -euo pipefail

ROUNDS=${1:-20}
N=${2:-60000}
RUNS=${3:-5}
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
TARGET_DIR=${CARGO_TARGET_DIR:-$REPO/src-tauri/target}
WARDEN="$TARGET_DIR/release/warden"
ADDED_GOAL_MS=5
EVENTS_GOAL=10000

command -v node >/dev/null || { echo "missing: node" >&2; exit 1; }
echo "== building (release)"
(cd "$REPO/src-tauri" && cargo build --release -q -p warden-cli -p warden-box)

WORK=$(mktemp -d)
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT
mkdir -p "$WORK/home" "$WORK/rhome" "$WORK/project" "$WORK/run"
chmod 700 "$WORK/run"
echo "remote project" >"$WORK/project/README.md"

# start_server NAME script args…: the server's port in NAME_PORT (not in a subshell: its pid must
# reach PIDS for the cleanup).
start_server() {
  local name=$1 fifo="$WORK/port.$1"
  shift
  mkfifo "$fifo"
  node "$@" >"$fifo" 2>>"$WORK/servers.log" & PIDS+=($!)
  read -r "${name}_PORT" <"$fifo"
  rm -f "$fifo"
}
start_server ROUNDS "$HERE/rounds.mjs" "$ROUNDS"
node "$REPO/bench/stream/gen.mjs" "$WORK/body" "$N" 10 >/dev/null
start_server STREAM "$REPO/bench/stream/serve.mjs" "$WORK/body"

# The engine on the other side: its own home and runtime folder, leaving 5 s after its last link.
ENGINE_ENV="env WARDEN_HOME=$WORK/rhome XDG_RUNTIME_DIR=$WORK/run WARDEN_ENGINE_IDLE_SECS=5"
PIPE="$ENGINE_ENV $WARDEN serve --stdio"
SSH=""
if [ "$(id -u)" -eq 0 ] && [ -x /usr/sbin/sshd ]; then
  D="$WORK/ssh"
  mkdir -p "$D" /run/sshd
  ssh-keygen -q -t ed25519 -N "" -f "$D/host_key"
  ssh-keygen -q -t ed25519 -N "" -f "$D/client_key"
  cp "$D/client_key.pub" "$D/authorized_keys"
  PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  cat >"$D/sshd_config" <<EOF
Port $PORT
ListenAddress 127.0.0.1
HostKey $D/host_key
AuthorizedKeysFile $D/authorized_keys
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
AllowUsers root
PidFile $D/sshd.pid
EOF
  /usr/sbin/sshd -D -e -f "$D/sshd_config" 2>"$D/sshd.log" & PIDS+=($!)
  for _ in $(seq 100); do (echo >/dev/tcp/127.0.0.1/"$PORT") 2>/dev/null && break; sleep 0.05; done
  echo "[127.0.0.1]:$PORT $(cut -d' ' -f1,2 "$D/host_key.pub")" >"$D/known_hosts"
  cat >"$D/ssh_config" <<EOF
Host bench
  HostName 127.0.0.1
  Port $PORT
  User root
  IdentityFile $D/client_key
  IdentitiesOnly yes
  UserKnownHostsFile $D/known_hosts
  StrictHostKeyChecking yes
EOF
  SSH="ssh -F $D/ssh_config bench $ENGINE_ENV $WARDEN serve --stdio"
else
  echo "   (no ssh row: needs root and openssh-server)"
fi

# exec ROW BASE-URL extra… : one turn, driven, its JSON summary printed.
run_turn() {
  local row=$1 base=$2
  shift 2
  local args=(exec --json --ephemeral --provider anthropic --model claude-bench --base-url "$base" --allow all)
  case $row in
    local) args+=(--project "$WORK/project") ;;
    pipe) args+=(--remote "pipe:$WORK/project" --transport "$PIPE") ;;
    ssh) args+=(--remote "bench:$WORK/project" --transport "$SSH") ;;
  esac
  (cd "$WORK/project" && env WARDEN_HOME="$WORK/home" ANTHROPIC_API_KEY=bench \
    node "$HERE/drive.mjs" -- "$WARDEN" "${args[@]}" "$@" 2>>"$WORK/stderr.log")
}

ROWS=(local pipe)
[ -n "$SSH" ] && ROWS+=(ssh)
echo "== $RUNS runs of each row, interleaved: $ROUNDS approvals, then a $N-delta stream"
for i in $(seq "$RUNS"); do
  for row in "${ROWS[@]}"; do
    run_turn "$row" "http://127.0.0.1:$ROUNDS_PORT" "write $ROUNDS rounds" >>"$WORK/approvals.$row" || {
      echo "the $row approvals turn failed; stderr:" >&2; tail -20 "$WORK/stderr.log" >&2; exit 1; }
    run_turn "$row" "http://127.0.0.1:$STREAM_PORT" "stream" --trust supervised --approve none >>"$WORK/stream.$row" || {
      echo "the $row stream turn failed; stderr:" >&2; tail -20 "$WORK/stderr.log" >&2; exit 1; }
  done
done

node - "$WORK" "$ADDED_GOAL_MS" "$EVENTS_GOAL" "$N" "${ROWS[@]}" <<'EOF'
const [work, addedGoal, eventsGoal, deltas, ...rows] = process.argv.slice(2);
const fs = require("node:fs");
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const read = (kind, row) => fs.readFileSync(`${work}/${kind}.${row}`, "utf8").trim().split("\n").map(JSON.parse);
const stats = {};
for (const row of rows) {
  const approvals = read("approvals", row);
  const stream = read("stream", row);
  stats[row] = {
    roundTrip: median(approvals.flatMap((r) => r.roundTrips)),
    rounds: approvals.reduce((n, r) => n + r.roundTrips.length, 0),
    eventsPerSec: median(stream.map((r) => r.events / (r.wallMs / 1000))),
    deltasPerSec: median(stream.map((r) => Number(deltas) / (r.wallMs / 1000))),
    streamMs: median(stream.map((r) => r.wallMs)),
    events: stream[0].events,
  };
}
console.log(`row     approval round trip (median)   stream of ${deltas} deltas: wall (median)   deltas/s   events (after the engine joins deltas)`);
for (const row of rows) {
  const s = stats[row];
  console.log(`${row.padEnd(7)} ${s.roundTrip.toFixed(2).padStart(8)} ms (${s.rounds} rounds)        ${s.streamMs.toFixed(0).padStart(12)} ms   ${s.deltasPerSec.toFixed(0).padStart(12)}   ${s.events}`);
}
const judged = rows.includes("ssh") ? "ssh" : "pipe";
const added = stats[judged].roundTrip - stats.local.roundTrip;
let miss = false;
const verdict = (ok, line) => { console.log(`${ok ? "PASS" : "MISS"}: ${line}`); miss ||= !ok; };
verdict(added < Number(addedGoal), `the ${judged} link adds ${added.toFixed(2)} ms to an approval's round trip (goal < ${addedGoal} ms)`);
verdict(stats[judged].deltasPerSec >= Number(eventsGoal), `a stream through the ${judged} link goes at ${stats[judged].deltasPerSec.toFixed(0)} deltas/s end to end, set-up included (goal >= ${eventsGoal})`);
process.exit(miss ? 1 : 0);
EOF

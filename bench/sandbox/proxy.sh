#!/usr/bin/env bash
# What Warden's proxy costs a boxed command with the network, against the same transfers without
# it, in the same run (medians of interleaved rounds):
#   first byte   curl's time to first byte for a small file: outside any box, straight to the
#                server, against inside `warden sandbox --network` through the proxy (box loopback
#                -> warden-box -> unix socket -> proxy -> server). Goal: <= 2 ms more.
#   throughput   a 256 MiB download: through the proxy from the box, against a socat relay over
#                the same two hops outside any box (TCP -> unix socket -> TCP, two socat
#                processes), and straight. Goal: the proxy >= 90 % of socat's relay. The proxy's
#                side also crosses the box's bridge (warden-box), a copy socat's relay does not
#                make: the comparison leans against the proxy, not for it.
# Exits 1 when a goal is missed.
# The server is python3's http.server on loopback, named `bench.test` through the proxy's
# resolver map and allowed by a rule (`--resolve`, `--allow-host`). socat is installed on demand.
#
#   bench/sandbox/proxy.sh          ROUNDS (default 5) rounds of N (default 40) first-byte probes
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
rounds="${ROUNDS:-5}"
n="${N:-40}"
command -v socat >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -q socat >/dev/null

echo "== building warden (release)"
bash "$repo/scripts/build_cli.sh"
warden="${CARGO_TARGET_DIR:-$repo/src-tauri/target}/release/warden"

work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p "$work/www" "$work/project"
head -c 1024 /dev/urandom >"$work/www/small"
head -c $((256 << 20)) /dev/zero >"$work/www/big"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
(cd "$work/www" && exec python3 -m http.server "$port" --bind 127.0.0.1 >/dev/null 2>&1) & pids+=($!)
relay=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
socat UNIX-LISTEN:"$work/relay.sock",fork TCP:127.0.0.1:"$port" & pids+=($!)
socat TCP-LISTEN:"$relay",bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:"$work/relay.sock" & pids+=($!)
for _ in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$port/small" && curl -sf -o /dev/null "http://127.0.0.1:$relay/small" && break; sleep 0.1; done

boxed() { # SCRIPT: run in warden's box with the network, bench.test allowed
  (cd "$work/project" && "$warden" sandbox --network --resolve "bench.test:127.0.0.1" --allow-host "bench.test:$port" \
    -- sh -c "$1")
}
probe='for i in $(seq '"$n"'); do curl -s -o /dev/null -w "%{time_starttransfer}\n" "$0"; done'

median() { sort -g | awk '{a[NR]=$1} END {m=int((NR+1)/2); if (NR%2) print a[m]; else print (a[m]+a[m+1])/2}'; }
: >"$work/direct"; : >"$work/proxied"; : >"$work/t-proxy"; : >"$work/t-socat"; : >"$work/t-direct"
for round in $(seq "$rounds"); do
  sh -c "$probe" "http://127.0.0.1:$port/small" >>"$work/direct"
  boxed "$(printf '%s' "$probe" | sed "s|\"\$0\"|http://bench.test:$port/small|")" >>"$work/proxied"
  curl -s -o /dev/null -w "%{speed_download}\n" "http://127.0.0.1:$port/big" >>"$work/t-direct"
  curl -s -o /dev/null -w "%{speed_download}\n" "http://127.0.0.1:$relay/big" >>"$work/t-socat"
  boxed "curl -s -o /dev/null -w '%{speed_download}\n' http://bench.test:$port/big" >>"$work/t-proxy"
done
d=$(median <"$work/direct"); p=$(median <"$work/proxied")
td=$(median <"$work/t-direct"); ts=$(median <"$work/t-socat"); tp=$(median <"$work/t-proxy")
awk -v d="$d" -v p="$p" -v n="$(wc -l <"$work/proxied")" 'BEGIN {
  printf "first byte  direct %.3f ms   through the proxy %.3f ms   added %.3f ms (goal <= 2 ms; %d probes)\n", d*1000, p*1000, (p-d)*1000, n }'
awk -v td="$td" -v ts="$ts" -v tp="$tp" 'BEGIN {
  printf "throughput  direct %.0f MB/s   socat relay %.0f MB/s   proxy %.0f MB/s   proxy/socat %.0f %% (goal >= 90 %%)\n", td/1e6, ts/1e6, tp/1e6, 100*tp/ts }'
awk -v d="$d" -v p="$p" -v ts="$ts" -v tp="$tp" 'BEGIN {
  ok = ((p - d) * 1000 <= 2) && (tp >= 0.9 * ts)
  print (ok ? "PASS" : "FAIL") ": first byte <= 2 ms more, throughput >= 90 % of socat"
  exit (ok ? 0 : 1) }'

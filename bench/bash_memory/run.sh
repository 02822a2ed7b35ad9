#!/usr/bin/env bash
# Warden's memory while `bash` runs a command that prints 1 GB: RSS sampled every 100 ms from
# /proc/<pid>/status of the process running the tool; it must stay flat (bounded head+tail buffer,
# capped UI stream), not grow with the output.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="$repo/bench/out"
mkdir -p "$out"
bytes="${BYTES:-1000000000}"

(cd "$repo/src-tauri" && cargo build --release -q -p warden-core --example bash_memory)
bin="$repo/src-tauri/target/release/examples/bash_memory"

"$bin" "$bytes" > "$out/bash_memory.txt" &
pid=$!
samples="$out/bash_memory_rss.txt"
: > "$samples"
while kill -0 "$pid" 2>/dev/null; do
  awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null >> "$samples" || true
  sleep 0.1
done
wait "$pid"
cat "$out/bash_memory.txt"
sort -n "$samples" | awk '
  {v[NR] = $1}
  END {
    if (NR == 0) { print "no samples"; exit 1 }
    printf "RSS over %d samples: min %.1f MiB, median %.1f MiB, max %.1f MiB\n", NR, v[1]/1024, v[int((NR+1)/2)]/1024, v[NR]/1024
  }'

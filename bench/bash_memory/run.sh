#!/usr/bin/env bash
# Warden's memory while `bash` runs a command that prints 2 GB (BYTES to change it), on a release
# build: the peak RSS of the process running the tool (GNU time's maximum resident set size, the
# kernel's own figure), with RSS sampled every 100 ms for the median. It must stay flat (a bounded
# head+tail buffer, a capped UI stream): PASS when the peak stays under PEAK_BOUND_MIB (96 MiB, the
# release build peaks at about 7 MiB; the test `tools::bash_memory` holds a debug build to 256 MiB), FAIL
# (exit 1) otherwise.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="$repo/bench/out"
mkdir -p "$out"
bytes="${BYTES:-2000000000}"
bound_mib="${PEAK_BOUND_MIB:-96}"

(cd "$repo/src-tauri" && cargo build --release -q -p warden-core --example bash_memory)
bin="$repo/src-tauri/target/release/examples/bash_memory"
peak_file="$out/bash_memory_peak_kib.txt"

/usr/bin/time -f %M -o "$peak_file" "$bin" "$bytes" > "$out/bash_memory.txt" &
pid=$!
samples="$out/bash_memory_rss.txt"
: > "$samples"
while kill -0 "$pid" 2>/dev/null; do
  # The example is time's child: sample it, not time.
  child=$(ps -o pid= --ppid "$pid" 2>/dev/null | head -1 | tr -d ' ')
  [[ -n "$child" ]] && awk '/^VmRSS/ {print $2}' "/proc/$child/status" 2>/dev/null >> "$samples" || true
  sleep 0.1
done
wait "$pid"
cat "$out/bash_memory.txt"
peak_kib=$(tail -1 "$peak_file")
sort -n "$samples" | awk -v peak="$peak_kib" '
  {v[NR] = $1}
  END {
    if (NR == 0) { printf "peak RSS %.1f MiB (no samples taken)\n", peak/1024; exit }
    printf "RSS over %d samples: min %.1f MiB, median %.1f MiB; peak %.1f MiB\n", NR, v[1]/1024, v[int((NR+1)/2)]/1024, peak/1024
  }'
if (( peak_kib < bound_mib * 1024 )); then
  echo "PASS  peak RSS $((peak_kib / 1024)) MiB while the command printed $bytes bytes (bound $bound_mib MiB)"
else
  echo "FAIL  peak RSS $((peak_kib / 1024)) MiB while the command printed $bytes bytes (bound $bound_mib MiB)"
  exit 1
fi

#!/usr/bin/env bash
# Checkpoints of a large real tree (the search benchmark's corpus, ~40-50k files) against the git
# CLI doing the same in the same run (`git add -A && git commit`, a separate GIT_DIR): the first
# snapshot, a checkpoint when nothing changed, and one after one file changed (medians of RUNS).
# Warden is measured as a session uses it (its watcher vouching for what did not change) and
# without the watcher (every file looked at: the fallback). Goals: first snapshot no slower than
# git; unchanged <= 20 ms; one file changed <= 50 ms; memory flat over 200 more checkpoints.
# Then restore: 5,000 changed files put back by Warden (through folder handles, flushed) against
# the `git checkout-index` restore it replaced, kept as a contestant in examples/restore_bench.rs
# (the same run, the same store; medians of RESTORE_RUNS).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="$repo/bench/out"
corpus="$out/corpus"
mkdir -p "$out"

# shellcheck source=../corpus.sh
source "$here/../corpus.sh"
make_corpus "$corpus"
echo "corpus: $(du -sh --apparent-size "$corpus" | cut -f1), $(find "$corpus" -type f -not -path '*/.git/*' | wc -l) files"

(cd "$repo/src-tauri" && cargo build --release -q -p warden-core --example checkpoint_bench --example restore_bench)
# Read the tree once so both start from a warm page cache.
find "$corpus" -type f -not -path '*/.git/*' -print0 | xargs -0 cat > /dev/null
RUNS="${RUNS:-20}" "$repo/src-tauri/target/release/examples/checkpoint_bench" "$corpus" | tee "$out/checkpoint.json"

python3 - "$out/checkpoint.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
g, w, s = r["git"], r["warden"], r["warden_without_watcher"]
def line(name, key, goal):
    print(f"{name:<22} git {g[key]:9.1f} ms   warden {w[key]:8.1f} ms ({g[key] / w[key]:6.1f}x faster)   "
          f"without watcher {s.get(key, float('nan')):8.1f} ms   goal: {goal}")
print(f"first snapshot         git {g['first_ms'] / 1000:8.2f} s    warden {w['first_ms'] / 1000:7.2f} s  "
      f"({g['first_ms'] / w['first_ms']:.2f}x git's speed)   goal: no slower than git")
line("unchanged tree", "unchanged_ms", "<= 20 ms")
line("one file changed", "one_file_ms", "<= 50 ms")
print(f"memory: {w['rss_kib_after_first'] / 1024:.1f} MiB after the first snapshot, "
      f"{w['rss_kib_after_200_more'] / 1024:.1f} MiB after 200 more checkpoints")
PY

RUNS="${RESTORE_RUNS:-5}" "$repo/src-tauri/target/release/examples/restore_bench" | tee "$out/restore.json"
python3 - "$out/restore.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(f"restore of {r['files']} files   checkout-index {r['checkout_index_ms']:8.1f} ms   warden {r['warden_ms']:8.1f} ms "
      f"({r['ratio']:.2f}x the contestant's time; Warden's includes the undo snapshot and two flushes)")
PY

#!/usr/bin/env bash
# Checkpoints against git configured for speed, in the same run (examples/checkpoint_bench.rs).
#
#   bench/checkpoint/run.sh                   every case (RUNS=20 RESTORE_RUNS=5 BIG_RUNS=3)
#   bench/checkpoint/run.sh --big-repo-only   only the 50,000-file repository (or BIG_REPO_ONLY=1)
#
# 1. A large real tree (the search benchmark's corpus, ~40-50k files, its .git empty): the first
#    snapshot (best of two), a checkpoint when nothing changed and one after one file changed
#    (medians of RUNS, every contestant in turn in each run).
#    Warden: as a session uses it (its inotify watcher vouches for the folders that did not change;
#            a first snapshot reads and hashes every file, on up to four threads), and without the
#            watcher (every file looked at; the stat cache spares reading unchanged ones).
#    git:    the CLI with a separate GIT_DIR (`add -A && commit`; `add -A` when nothing changed),
#            configured as its users configure it for speed: feature.manyFiles=true (index v4,
#            index.skipHash), core.untrackedCache=true, index.threads=true, pack.threads=<cores>,
#            and measured with and without core.fsmonitor (git's builtin daemon where this git has
#            it; on Linux, where it has not, git's fsmonitor-watchman hook with Watchman — the
#            script installs watchman with apt if it is missing); each row takes git's faster.
#            The monitor is started for the run and stopped at its end. The first snapshot also
#            prints untuned git's (`add -A && commit`, defaults) as a reference.
#    Then memory: Warden's resident memory before and after 200 more checkpoints.
#    Then restore: 5,000 changed files put back by Warden (through folder handles, flushed)
#    against the `git checkout-index` restore it replaced, kept as a contestant in
#    examples/restore_bench.rs (the same store; medians of RESTORE_RUNS). Printed, no goal.
# 2. A 50,000-file git repository, small source files in nested folders, committed once, its
#    work tree clean and its index warm (made in bench/out/bigrepo, kept between runs): Warden's
#    first snapshot of it (it may take clean files' ids from the project's git index) against
#    `git status --porcelain` on it (tuned git as above, with and without its monitor, the faster;
#    index.skipHash=false there, since feature.manyFiles would write the project's index without
#    the checksum Warden requires to take its word) and `git add -A && commit` of the same files
#    into an empty repository (tuned). Medians of BIG_RUNS (Warden, git add) and BIG_RUNS × RUNS
#    (status).
#
# Goals (each row prints PASS or MISS; the script exits 1 on any MISS):
#   first snapshot:   no slower than git (Warden's time <= tuned git's);
#   unchanged tree:   <= 20 ms;
#   one file changed: <= 50 ms;
#   memory:           flat over 200 more checkpoints (grows by less than 10%);
#   50,000-file repository, first snapshot: <= 1.5 s and <= 2x `git status --porcelain`.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="$repo/bench/out"
corpus="$out/corpus"
big_repo="$out/bigrepo"
bin="$repo/src-tauri/target/release/examples"
mkdir -p "$out"
big_only="${BIG_REPO_ONLY:-0}"
for arg in "$@"; do
  case "$arg" in
    --big-repo-only) big_only=1 ;;
    *) echo "usage: $0 [--big-repo-only]" >&2; exit 2 ;;
  esac
done

# Git's monitor: its builtin daemon where this git has one, else Watchman through git's hook.
if ! git version --build-options | grep -q 'feature: fsmonitor--daemon' && ! command -v watchman >/dev/null; then
  echo "git has no builtin fsmonitor daemon here; installing watchman (apt) for git's fsmonitor-watchman hook…" >&2
  apt-get install -y watchman >/dev/null 2>&1 || echo "could not install watchman: git is measured without a monitor" >&2
fi
(cd "$repo/src-tauri" && cargo build --release -q -p warden-core --example checkpoint_bench --example restore_bench)
echo "$(git --version), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
misses=0

if [ "$big_only" != 1 ]; then
  # shellcheck source-path=SCRIPTDIR source=../corpus.sh
  source "$here/../corpus.sh"
  make_corpus "$corpus"
  echo "corpus: $(du -sh --apparent-size "$corpus" | cut -f1), $(find "$corpus" -type f -not -path '*/.git/*' | wc -l) files"
  # Read the tree once so every contestant starts from a warm page cache.
  find "$corpus" -type f -not -path '*/.git/*' -print0 | xargs -0 cat > /dev/null
  RUNS="${RUNS:-20}" "$bin/checkpoint_bench" "$corpus" | tee "$out/checkpoint.json"
  python3 - "$out/checkpoint.json" <<'PY' || misses=$((misses + 1))
import json, sys
r = json.load(open(sys.argv[1]))
tuned = "feature.manyFiles, untrackedCache, index.threads, pack.threads"
monitor = r["fsmonitor"]
misses = 0

def verdict(ok):
    global misses
    misses += 0 if ok else 1
    return "PASS" if ok else "MISS"

def fastest_git(row):
    options = {"git tuned": row["git_tuned"]}
    if "git_fsmonitor" in row:
        options["git tuned + fsmonitor"] = row["git_fsmonitor"]
    name = min(options, key=options.get)
    return name, options[name], "   ".join(f"{k} {v:.1f} ms" for k, v in options.items())

print()
print(f"git's settings (tuned): {', '.join(r['tuned_settings'])}")
print(f"git's monitor: {monitor}")
f = r["first_ms"]
ok = f["warden"] <= f["git_tuned"]
print(f"\nfirst snapshot     Warden {f['warden'] / 1000:6.2f} s   git tuned {f['git_tuned'] / 1000:6.2f} s   "
      f"({f['git_tuned'] / f['warden']:.2f}x git's speed)   goal: no slower than git: {verdict(ok)}")
print("   Warden: a fresh store, every file read and hashed (up to 4 threads), blobs and trees stored (best of 2)")
print(f"   git:    add -A && commit into an empty repository, {tuned} (a monitor cannot help a first add) (best of 2)")
print(f"   reference, untuned git (add -A && commit, defaults): {f['git_untuned'] / 1000:.2f} s "
      f"({f['git_untuned'] / f['warden']:.2f}x Warden's time)")
for key, title, goal, what_w, what_g in [
    ("unchanged_ms", "unchanged tree", 20,
     "Warden: its inotify watcher vouches for every folder; nothing read, nothing new stored",
     "git:    add -A (refresh the index, look for untracked files)"),
    ("one_file_ms", "one file changed", 50,
     "Warden: the watcher names the changed folder; that file hashed, trees above it written, recorded",
     "git:    add -A && commit (the one file hashed, trees, a commit)"),
]:
    row = r[key]
    name, g, options = fastest_git(row)
    ok = row["warden"] <= goal
    print(f"\n{title:<18} Warden {row['warden']:7.1f} ms   {name} {g:7.1f} ms   ({g / row['warden']:.1f}x faster than git)"
          f"   goal: <= {goal} ms: {verdict(ok)}")
    print(f"   {what_w}")
    print(f"   {what_g}, {tuned}; with and without the monitor ({options}), the faster")
    print(f"   Warden without its watcher (every file looked at, the stat cache spares reading): "
          f"{row['warden_without_watcher']:.1f} ms")
m = r["rss_kib"]
growth = (m["after_200"] - m["before_200"]) / m["before_200"]
print(f"\nmemory             {m['after_first'] / 1024:.1f} MiB after the first snapshot, {m['before_200'] / 1024:.1f} MiB "
      f"before 200 more checkpoints, {m['after_200'] / 1024:.1f} MiB after ({100 * growth:+.1f}%)   "
      f"goal: flat (< 10% growth): {verdict(growth < 0.10)}")
sys.exit(1 if misses else 0)
PY

  RUNS="${RESTORE_RUNS:-5}" "$bin/restore_bench" | tee "$out/restore.json"
  python3 - "$out/restore.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(f"restore of {r['files']} files   checkout-index {r['checkout_index_ms']:8.1f} ms   warden {r['warden_ms']:8.1f} ms "
      f"({r['ratio']:.2f}x the contestant's time; Warden's includes the undo snapshot and two flushes)   no goal")
PY
fi

echo
echo "== a 50,000-file git repository, clean work tree ($big_repo)"
RUNS="${RUNS:-20}" "$bin/checkpoint_bench" --big-repo "$big_repo" | tee "$out/checkpoint-big-repo.json"
python3 - "$out/checkpoint-big-repo.json" <<'PY' || misses=$((misses + 1))
import json, sys
r = json.load(open(sys.argv[1]))
t = r["ms"]
statuses = {"tuned": t["git_status_tuned"]}
if "git_status_fsmonitor" in t:
    statuses["tuned + fsmonitor"] = t["git_status_fsmonitor"]
best = min(statuses, key=statuses.get)
status = statuses[best]
w = t["warden_first"]
fast, near = w <= 1500, w <= 2 * status
print()
print(f"{r['files']:,} files{' (made now)' if r['made_now'] else ''}; git's settings for status: "
      f"{', '.join(r['status_settings'])}; {r['fsmonitor']}")
print(f"first snapshot     Warden {w / 1000:6.2f} s   goal <= 1.5 s: {'PASS' if fast else 'MISS'}")
print(f"   vs git status --porcelain {status:.1f} ms (git {best}; "
      + ", ".join(f"{k} {v:.1f} ms" for k, v in statuses.items())
      + f"): Warden takes {w / status:.1f}x its time   goal <= 2x: {'PASS' if near else 'MISS'}")
print(f"   vs git add -A && commit into an empty repository (tuned): {t['git_add_empty'] / 1000:.2f} s "
      f"({t['git_add_empty'] / w:.1f}x Warden's time)")
print("   Warden: a fresh store; clean files' blob ids taken from the project's git index where it can vouch, the rest read")
print("   git status: the index and (with the monitor) Watchman's changes since its token, untracked cache, index.threads")
print("   git add: every file read, hashed, compressed and written as a loose object; trees and a commit")
print(f"   information: Warden's first snapshot reading every file (without the index): "
      f"{t['warden_first_without_borrowing'] / 1000:.2f} s")
print(f"   work tree still clean after the run: {r['clean_after']}")
sys.exit(0 if fast and near and r["clean_after"] else 1)
PY

echo
if [ "$misses" -gt 0 ]; then
  echo "RESULT: goals missed in $misses case(s) (see MISS above)"
  exit 1
fi
echo "RESULT: every goal met"

#!/usr/bin/env bash
# Checkpoints on a slow file system, against git in the same run. A generated tree (FILES, default
# 5,000 small source files in nested folders) is served by a read-only FUSE passthrough that adds
# a latency to every lookup, getattr, open, opendir, read, readdir and readlink (LATENCIES_US,
# default 0,100,500; the kernel caches entries and attributes for TTL_MS, default 1000, and drops a
# file's pages at each open), as a network or cloud-synced folder would. At each latency, RUNS
# rounds (default 3, medians) take in turn Warden's first snapshot of the project through the
# mount (a fresh store each time) and `git add -A` of the same files into an empty repository, over
# a plain folder and over a clean git repository (SOURCES, default plain,git; Warden may take blob
# ids from a clean repository's index, so there it only looks at the files' stat data).
#
# Goal: Warden's first snapshot no slower than git's `add -A` at each latency on the plain folder
# (median against median): there both read and store every file. On the repository the row is
# information only (INFO): Warden borrows ids from the repository's own index and only looks at
# stat data, while git here reads every file into an empty repository — not the same work (Warden
# against git's own index is bench/checkpoint/run.sh --big-repo-only). Prints PASS or MISS; exits 1
# on a MISS, or when the two did not store the same tree (on either source).
#
# Needs root and /dev/fuse (the example mounts with mount(2) itself; elsewhere it would need
# fusermount3, from Debian's fuse3). The mount is made and removed by the example; if the run is
# killed, this script unmounts it on exit.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="$repo/bench/out"
mkdir -p "$out"

if [ ! -c /dev/fuse ]; then
  echo "slow_fs.sh: /dev/fuse is missing: this machine cannot mount a FUSE file system" >&2
  exit 2
fi
if [ "$(id -u)" != 0 ] && ! command -v fusermount3 > /dev/null; then
  echo "slow_fs.sh: not root and no fusermount3: run as root, or install Debian's fuse3" >&2
  exit 2
fi

(cd "$repo/src-tauri" && cargo build --release -p warden-core --example slow_fs_bench)

# The mount, and the example's temporary files, in a folder of this run's own; the source trees and
# the stores in memory where there is some (the disk the stores are written to is not measured).
work="$(mktemp -d "${TMPDIR:-/tmp}/warden-slowfs.XXXXXX")"
mnt="$work/mnt"
mkdir "$mnt"
scratch_parent=/dev/shm
[ -d "$scratch_parent" ] && [ -w "$scratch_parent" ] || scratch_parent="$work"
scratch="$(mktemp -d "$scratch_parent/warden-slowfs.XXXXXX")"
cleanup() {
  if grep -qs " $mnt fuse" /proc/self/mounts; then
    umount "$mnt" 2> /dev/null || umount -l "$mnt" || true
  fi
  # Never delete through a mount still there.
  if ! grep -qs " $mnt fuse" /proc/self/mounts; then
    rm -rf "$scratch" "$work"
  fi
}
trap cleanup EXIT

TMPDIR="$work" "$repo/src-tauri/target/release/examples/slow_fs_bench" \
  --mountpoint "$mnt" \
  --scratch "$scratch" \
  --files "${FILES:-5000}" \
  --latencies-us "${LATENCIES_US:-0,100,500}" \
  --runs "${RUNS:-3}" \
  --ttl-ms "${TTL_MS:-1000}" \
  --sources "${SOURCES:-plain,git}" | tee "$out/slow_fs.txt"

python3 - "$out/slow_fs.txt" <<'PY'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1]) if line.startswith("{")]
if not rows:
    sys.exit("slow_fs.sh: the benchmark printed no result")
print()
print("goal: Warden's first snapshot no slower than git's `add -A` at each latency, on the plain folder")
print("(on the repository Warden borrows the index's ids while git reads every file: INFO, not a verdict)")
print(f"{'source':<15}{'latency':>9}{'files':>7}{'Warden s':>10}{'git s':>9}{'Warden/git':>12}"
      f"{'req. Warden':>13}{'req. git':>10}  verdict")
missed = []
for r in rows:
    kind = "clean git repo" if r["source"] == "git" else "plain folder"
    like_for_like = r["source"] != "git"
    ok = (r["pass"] or not like_for_like) and r["same_tree"]
    note = "" if r["same_tree"] else " (the two stored different trees)"
    verdict = ("PASS" if ok else "MISS") if like_for_like or not r["same_tree"] else "INFO"
    print(f"{kind:<15}{r['latency_us']:>6} µs{r['files']:>7}{r['warden_s']:>10.3f}{r['git_s']:>9.3f}"
          f"{r['ratio']:>12.2f}{r['warden_ops']['total']:>13}{r['git_ops']['total']:>10}  "
          f"{verdict}{note}")
    if like_for_like and not r["pass"]:
        missed.append(f"slower than git on the {kind} at {r['latency_us']} µs ({r['ratio']:.2f}x git's time)")
    if not r["same_tree"]:
        missed.append(f"not the tree git stored on the {kind} at {r['latency_us']} µs")
if missed:
    print(f"verdict: MISS: Warden's first snapshot was {'; '.join(missed)}")
    sys.exit(1)
plain = sum(1 for r in rows if r["source"] != "git")
print(f"verdict: PASS: Warden's first snapshot no slower than git's add -A at every latency ({plain} like-for-like cases)")
PY

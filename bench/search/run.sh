#!/usr/bin/env bash
# search_in_files vs ripgrep on the same corpus of real source code, in one run.
#
# Corpus (bench/out/corpus, gitignored): the crate sources in ~/.cargo/registry/src plus an npm install
# of a few big packages. Both tools get the same rules: .gitignore honoured also outside a git repo
# (rg --no-require-git), hidden and binary files skipped, and the file names Warden's sandbox never
# reads (docs/SECRETS.md; the hidden ones rg skips anyway) excluded from rg too.
# Checks the match counts are identical, then times both on a warm cache, alternating (rg, warden,
# rg, warden, ...; RUNS each, default 7) so that load from elsewhere on the machine falls on both
# alike. The verdict is the ratio of the medians, against the target search_in_files <= TARGET x rg
# (default 1.0): PASS, or MISS and exit status 1.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="$repo/bench/out"
corpus="$out/corpus"
query="${QUERY:-fn |function }"
mkdir -p "$out"

# shellcheck source=../corpus.sh
source "$here/../corpus.sh"
make_corpus "$corpus"

echo "corpus: $(du -sh --apparent-size "$corpus" | cut -f1), $(find "$corpus" -type f -not -path '*/.git/*' | wc -l) files"

(cd "$repo/src-tauri" && cargo build --release -q -p warden-core --example search_bench)
warden="$repo/src-tauri/target/release/examples/search_bench"

rg_args=(-c --no-require-git --no-config
  --iglob '!*secret*' --iglob '!*credential*' --iglob '!*.pem' --iglob '!*.key' --iglob '!id_rsa*'
  --iglob '!id_dsa*' --iglob '!id_ecdsa*' --iglob '!id_ed25519*' --iglob '!.env*'
  --iglob '!*.p12' --iglob '!*.pfx' --iglob '!*.tfstate*' --iglob '!_netrc')

rg_total=$(rg "${rg_args[@]}" "$query" "$corpus" | awk -F: '{s += $NF} END {print s + 0}')
warden_line=$("$warden" "$corpus" "$query")
warden_total=$(echo "$warden_line" | sed -E 's/^matches=([0-9]+).*/\1/')
echo "rg:     $rg_total matching lines"
echo "warden: $warden_line"
if [ "$rg_total" != "$warden_total" ]; then
  echo "MISMATCH: rg counted $rg_total, search_in_files $warden_total" >&2
  exit 1
fi
echo "match counts identical"

# Warm the cache for both, then alternate; each run's output is discarded.
runs="${RUNS:-7}"
target="${TARGET:-1.0}"
python3 - "$runs" "$target" "$out/search.json" "$warden" "$corpus" "$query" -- rg "${rg_args[@]}" "$query" "$corpus" <<'PY'
import json, resource, statistics, subprocess, sys, time

runs, target, json_out, warden, corpus, query = sys.argv[1:7]
runs, target = int(runs), float(target)
commands = {"rg": sys.argv[8:], "search_in_files": [warden, corpus, query]}

def timed(argv):
    """Wall and CPU (user + system) seconds of one run of argv."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu

for argv in commands.values():
    timed(argv)
times = {name: [] for name in commands}
for i in range(runs):
    for name, argv in commands.items():
        times[name].append(timed(argv))
    print(f"run {i + 1}/{runs}: " + ", ".join(f"{n} {t[-1][0]:.3f} s" for n, t in times.items()), flush=True)

def median(name, which):
    return statistics.median(t[which] for t in times[name])

rg, warden = median("rg", 0), median("search_in_files", 0)
ratio = warden / rg
cpu_ratio = median("search_in_files", 1) / median("rg", 1)
json.dump({"runs": runs, "target": target, "ratio": ratio, "cpu_ratio": cpu_ratio,
           "times": {n: [{"wall": w, "cpu": c} for w, c in t] for n, t in times.items()}},
          open(json_out, "w"), indent=1)
print(f"median of {runs} alternating runs: rg {rg:.3f} s, search_in_files {warden:.3f} s")
print(f"(CPU time, user + system, medians: rg {median('rg', 1):.3f} s, "
      f"search_in_files {median('search_in_files', 1):.3f} s: {cpu_ratio:.2f}x)")
verdict = "PASS" if ratio <= target else "MISS"
print(f"{verdict}  search_in_files takes {ratio:.2f}x rg's time (target <= {target:.1f}x rg)")
sys.exit(0 if verdict == "PASS" else 1)
PY

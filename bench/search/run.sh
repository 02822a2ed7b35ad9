#!/usr/bin/env bash
# search_in_files vs ripgrep on the same corpus of real source code, in one run.
#
# Corpus (bench/out/corpus, gitignored): the crate sources in ~/.cargo/registry/src plus an npm install
# of a few big packages. Both tools get the same rules: .gitignore honoured also outside a git repo
# (rg --no-require-git), hidden and binary files skipped, and the file names Warden's sandbox never
# reads (docs/SECRETS.md; the hidden ones rg skips anyway) excluded from rg too.
# Checks the match counts are identical, then times both with hyperfine and prints the ratio.
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

rg_cmd="rg $(printf '%q ' "${rg_args[@]}" "$query" "$corpus")"
warden_cmd="$(printf '%q ' "$warden" "$corpus" "$query")"
hyperfine --warmup 1 --runs "${RUNS:-10}" --export-json "$out/search.json" \
  -n rg "$rg_cmd > /dev/null" -n search_in_files "$warden_cmd > /dev/null"

python3 - "$out/search.json" <<'PY'
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
rg, warden = results["rg"]["mean"], results["search_in_files"]["mean"]
ratio = warden / rg
print(f"rg {rg:.3f} s, search_in_files {warden:.3f} s: {ratio:.2f}x rg (target <= 1.5x)")
PY

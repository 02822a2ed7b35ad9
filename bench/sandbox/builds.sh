#!/usr/bin/env bash
# Real builds in the box against the same builds outside it, in the same run: the box issue's goal
# is ≤ 1.1× for a Rust project with about 50 dependencies built from the user's warm registry
# (`cargo build --offline`, a fresh target folder each time) and for `npm ci` from a warm cache
# (`npm ci --offline`: Warden's own front-end dependencies).
#
#   bench/sandbox/builds.sh         ROUNDS (default 2) interleaved rounds: outside, boxed, …
#
# Needs what a developer of Warden has after `scripts/setup.sh` and one build of Warden: the
# crates of src-tauri/Cargo.lock in ~/.cargo/registry and the packages of package-lock.json in
# ~/.npm. The box is `warden sandbox` (the box the agent's commands run in, network off).
# Exits 1 when a ratio is over the goal.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
rounds="${ROUNDS:-2}"
goal=1.10
target_dir="${CARGO_TARGET_DIR:-$repo/src-tauri/target}"
warden="$target_dir/debug/warden"
echo "== building warden (debug: the box's start is noise against a build)"
(cd "$repo/src-tauri" && cargo build --locked -q -p warden-cli --bin warden && cargo build --locked -q -p warden-box)

work=$(mktemp -d "$HOME/.warden-bench-builds.XXXXXX")
trap 'rm -rf "$work"' EXIT

# A Rust project of common crates Warden itself uses, pinned by Warden's own lockfile so that
# every version is in the registry already.
rust="$work/rust"
mkdir -p "$rust/src"
cat >"$rust/Cargo.toml" <<'EOF'
[package]
name = "bench-build"
version = "0.1.0"
edition = "2021"

[dependencies]
anyhow = "1"
chrono = "0.4"
clap = { version = "4", features = ["derive"] }
regex = "1"
serde = { version = "1", features = ["derive"] }
serde_json = "1"
sha2 = "0.10"
tempfile = "3"
thiserror = "1"
tracing = "0.1"
tracing-subscriber = { version = "0.3", features = ["env-filter"] }
uuid = { version = "1", features = ["v4"] }
walkdir = "2"
EOF
echo 'fn main() { println!("{}", serde_json::json!({"ok": regex::Regex::new("a+").is_ok()})); }' >"$rust/src/main.rs"
cp "$repo/src-tauri/Cargo.lock" "$rust/Cargo.lock"
host=$(rustc -vV | sed -n 's/^host: //p')
crates=$(cd "$rust" && cargo tree --offline --target "$host" -e normal,build --prefix none | sort -u | wc -l) ||
  { echo "the bench project does not resolve offline: build Warden once first (its crates fill the registry)" >&2; exit 1; }

# Warden's own front-end dependencies, from the npm cache.
npm_project="$work/npm"
mkdir -p "$npm_project"
cp "$repo/package.json" "$repo/package-lock.json" "$npm_project/"
packages=$(node -e 'console.log(Object.keys(require(process.argv[1]).packages).length - 1)' "$npm_project/package-lock.json")

seconds() { local start end; start=$(date +%s.%N); "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }; end=$(date +%s.%N); echo "$end - $start" | bc; }
cargo_build() { rm -rf "$rust/target"; (cd "$rust" && "$@" cargo build --offline -q); }
npm_install() { rm -rf "$npm_project/node_modules"; (cd "$npm_project" && "$@" npm ci --offline --ignore-scripts --no-audit --no-fund -q); }
boxed() { "$warden" sandbox --project "$PWD" -- "$@"; }

declare -A total=([cargo-outside]=0 [cargo-boxed]=0 [npm-outside]=0 [npm-boxed]=0)
echo "== $crates crates, $packages npm packages; $rounds interleaved rounds"
for round in $(seq "$rounds"); do
  for kind in cargo npm; do
    for where in outside boxed; do
      runner=env
      [ "$where" = boxed ] && runner=boxed
      if [ "$kind" = cargo ]; then t=$(seconds cargo_build "$runner"); else t=$(seconds npm_install "$runner"); fi
      total[$kind-$where]=$(echo "${total[$kind-$where]} + $t" | bc)
      printf 'round %d  %-5s %-7s %7.2f s\n' "$round" "$kind" "$where" "$t"
    done
  done
done
status=0
for kind in cargo npm; do
  ratio=$(echo "scale=3; ${total[$kind-boxed]} / ${total[$kind-outside]}" | bc)
  verdict=ok
  if [ "$(echo "$ratio > $goal" | bc)" = 1 ]; then verdict="over the goal of ${goal}x"; status=1; fi
  printf '%-5s boxed/outside %.3fx (%s)  [outside %.1f s, boxed %.1f s in all]\n' \
    "$kind" "$ratio" "$verdict" "${total[$kind-outside]}" "${total[$kind-boxed]}"
done
exit "$status"

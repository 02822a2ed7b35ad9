#!/usr/bin/env bash
# Runs every fuzz target of src-tauri/fuzz for a fixed time each (default 60 s) and prints the
# executions per target. Needs the nightly toolchain (`rustup toolchain install nightly --profile
# minimal`; scripts/setup.sh installs it) and installs cargo-fuzz when missing; fails, never skips,
# when either cannot be had. A crash or a hang stops the script with the failing input saved under
# src-tauri/fuzz/artifacts/<target>/. What a run finds is kept in corpus/<target>/ (not in git);
# the hand-written starting inputs in seeds/<target>/ (in git) are read, never written.
# Built as a dev build (4.4 minutes cold on two cores, against 19.5 for an optimised one; see
# src-tauri/fuzz/Cargo.toml): enough for the suite's 30 s per target. FUZZ_RELEASE=1 builds
# optimised, 9 to 24 times more executions a second, for long runs.
#   scripts/fuzz.sh [SECONDS] [TARGET…]
set -euo pipefail
cd "$(dirname "$0")/../src-tauri/fuzz"
[ -f "$HOME/.cargo/env" ] && . "$HOME/.cargo/env"

seconds="${1:-60}"
shift || true
targets=("$@")
((${#targets[@]})) || targets=(sse ndjson text_tools apply_patch shell_command)

if ! rustup toolchain list | grep -q '^nightly'; then
  echo "fuzz: the nightly toolchain is missing: rustup toolchain install nightly --profile minimal" >&2
  exit 1
fi
if ! command -v cargo-fuzz >/dev/null; then
  cargo install cargo-fuzz --locked
fi

build=(--dev)
[ "${FUZZ_RELEASE:-}" = 1 ] && build=(-O)
cargo +nightly fuzz build "${build[@]}"
summary=()
for target in "${targets[@]}"; do
  mkdir -p "corpus/$target"
  seeds=()
  [ -d "seeds/$target" ] && seeds=("seeds/$target")
  log=$(mktemp)
  # -timeout: one input taking over 10 s is a hang; -rss_limit_mb: a blow-up is a crash.
  if ! cargo +nightly fuzz run "${build[@]}" "$target" "corpus/$target" "${seeds[@]}" -- \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1; then
    tail -40 "$log"
    echo "fuzz: $target FAILED (input saved under src-tauri/fuzz/artifacts/$target/)" >&2
    exit 1
  fi
  runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || true)
  if [ -z "$runs" ] || [ "$runs" -eq 0 ]; then
    tail -40 "$log"
    echo "fuzz: $target ran no input (no execution count in libFuzzer's final stats)" >&2
    exit 1
  fi
  summary+=("$target: $runs executions in ${seconds}s, no crash, no hang")
  rm -f "$log"
done
printf 'fuzz: %s\n' "${summary[@]}"

#!/usr/bin/env bash
# Runs every Warden test: Rust (unit, integration, the real keychain under D-Bus, the live tests
# against a real local model server), the generated
# bindings check, formatting and lints, the UI (typecheck + vitest), the end-to-end specs in
# the real window under Xvfb, and the installed app (its .deb installed, updated and removed).
# Installs what it needs first (scripts/setup.sh). Stops at the first
# failure; ends with one summary line of all tests run.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

# Each step's wall time, printed when the next starts and listed at the end: the suite must stay
# well inside CI's limit, and the list shows where the minutes go.
SUITE_START=$(date +%s) STEP_NAME="" STEP_START=$SUITE_START TIMES=()
step() {
  local now
  now=$(date +%s)
  [ -n "$STEP_NAME" ] && TIMES+=("$(printf '%5d s  %s' $((now - STEP_START)) "$STEP_NAME")")
  STEP_NAME=$* STEP_START=$now
  printf '\n\033[1;34m### %s\033[0m\n' "$*"
  # CI's disk is small, and a run that fills it fails wherever it happens to be: say what is left.
  [ "${CI:-}" = true ] && df -Ph "$ROOT" | awk 'NR == 2 {print "(disk: " $4 " free of " $2 ")"}'
  return 0
}

# Build outputs no later step reads, removed on CI (a clean clone, a small disk) as soon as the
# last step that reads them is done; a developer's machine keeps them for incremental builds.
free_on_ci() {
  [ "${CI:-}" = true ] || return 0
  local dir
  for dir in "$@"; do
    [ -e "$dir" ] || continue
    echo "freeing $(du -sh "$dir" | cut -f1) of $dir: no later step reads it"
    rm -rf "$dir"
  done
}

step "set-up: packages, toolchains, npm dependencies (scripts/setup.sh)"
bash scripts/setup.sh
[ -f "$HOME/.cargo/env" ] && . "$HOME/.cargo/env"

# A clean clone's build needs about 8 GB (the debug build ≈ 4.5 GB, the release packages ≈ 2.7 GB);
# with less free, say so now instead of a linker's "Bus error" half an hour in.
free_kb=$(df -Pk "$ROOT" | awk 'NR == 2 {print $4}')
if [ "${free_kb:-0}" -lt $((8 * 1024 * 1024)) ]; then
  echo "warning: $((free_kb / 1024 / 1024)) GB free on the disk holding $ROOT; a clean build needs about 8 GB" >&2
fi

LOG=$(mktemp /tmp/warden-test.XXXXXX.log)
# The step times are printed on a failure too (CI shows the end of the output): where the minutes
# went matters most on a run that failed late.
finish() {
  local status=$? now
  rm -f "$LOG"
  if [ "$status" -ne 0 ]; then
    now=$(date +%s)
    TIMES+=("$(printf '%5d s  %s (failed)' $((now - STEP_START)) "$STEP_NAME")")
    printf '\nsteps:\n' && printf '%s\n' "${TIMES[@]}"
    echo "suite: failed after $((now - SUITE_START)) s"
  fi
}
trap finish EXIT
# Run a step, keeping its output in the log for the summary; fail on its status, not tee's.
run() { "$@" 2>&1 | tee -a "$LOG"; return "${PIPESTATUS[0]}"; }
export CARGO_TERM_COLOR=never RUST_BACKTRACE=0 NO_AT_BRIDGE=1
# A clean clone builds once: incremental state would only take disk (gigabytes of it).
[ "${CI:-}" = true ] && export CARGO_INCREMENTAL=0

# The app embeds the built UI (custom-protocol), so dist/ must exist before Rust compiles it.
step "UI: typecheck and build (dist/ is embedded by the app)"
npm run --silent build

cd "$ROOT/src-tauri"
step "cargo fmt --check"
cargo fmt --all -- --check

# Before the main build: its own target folder (ASan, another toolchain) is done with and freed
# on CI before the debug build takes its gigabytes.
cd "$ROOT"
step "fuzz targets, 30 s each (src-tauri/fuzz: nightly and cargo-fuzz, from scripts/setup.sh)"
# Fails, never skips, when the nightly toolchain or cargo-fuzz is missing.
bash scripts/fuzz.sh 30
free_on_ci src-tauri/fuzz/target
cd "$ROOT/src-tauri"

# One feature set for everything (the e2e build needs custom-protocol), so tauri compiles once.
FEATURES=(--features warden-desktop/custom-protocol)

step "cargo clippy -D warnings (functions over 80 lines are errors: src-tauri/clippy.toml)"
cargo clippy --workspace --all-targets --locked "${FEATURES[@]}" -- -D warnings

step "sizes: UI functions over 80 lines fail (scripts/ts-sizes.mjs); files over 600 lines (a warning each)"
(cd "$ROOT" && node scripts/ts-sizes.mjs)
# The generated bindings are left out; a long file is a hint to split it, not a failure.
(cd "$ROOT" && git ls-files -- 'src-tauri/*.rs' 'src/*.ts' 'src/*.tsx' ':!src/bindings.ts' |
  xargs wc -l | awk '$2 != "total" && $1 > 600 { print "warning: " $2 " has " $1 " lines (over 600)" }')

step "cargo test (workspace)"
run cargo test --workspace --locked "${FEATURES[@]}"

step "keychain tests against the real Secret Service (gnome-keyring under dbus-run-session)"
# A fresh data dir per run: gnome-keyring creates its login keyring with the first password.
KEYRING_HOME=$(mktemp -d)
run env XDG_DATA_HOME="$KEYRING_HOME" dbus-run-session -- sh -c '
  echo -n warden-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  cargo test --workspace --locked --features warden-desktop/custom-protocol -- --ignored keychain --test-threads=1'
rm -rf "$KEYRING_HOME"

step "live: warden exec against a real local model server (llama-cpp-python + SmolLM2-135M)"
# Built once outside the repository (~/.cache/warden-test), reused after; the same cargo flags as
# above, so the test binary is not compiled again.
run env LOCAL_LLM_CARGO="cargo test --workspace --locked ${FEATURES[*]}" bash "$ROOT/tests/local-llm/run.sh"

cd "$ROOT"
step "MCP conformance suite, client scenarios (known gaps in tests/mcp/conformance-baseline.yml)"
# Not in the summary count: the suite's own totals include the scenarios the baseline expects to fail.
bash tests/mcp/conformance.sh


if [ -f src/bindings.ts ]; then
  step "generated bindings are committed as generated"
  git diff --exit-code -- src/bindings.ts
fi
if [ -f package.json ]; then
  step "UI: vitest"
  # Plain output, so the summary can read vitest's own "Tests  N passed" line.
  run env NO_COLOR=1 FORCE_COLOR=0 npx vitest run --reporter=default
fi

# Started with bash, not through their executable bit, which a checkout can lose: a step is never
# dropped silently, and a missing script fails the run.
for script in tests/e2e/run.sh tests/install/run.sh; do
  [ -f "$script" ] || { echo "$script is missing: its step cannot run" >&2; exit 1; }
done
step "end to end: the real window under Xvfb through WebDriver"
run bash tests/e2e/run.sh
step "the installed app: release packages built, installed with apt, started, updated, removed"
# The release build that follows needs room; the debug build's last reader was the window's e2e.
free_on_ci "${CARGO_TARGET_DIR:-src-tauri/target}/debug"
run bash tests/install/run.sh

# One line for all runners: cargo's "test result: ok. N passed; M failed", vitest's
# "Tests  N passed (N)", the e2e runner's "e2e: N passed, M failed" and the install test's
# "install: N passed, M failed".
count() { grep -hE "$1" "$LOG" | grep -oE "[0-9]+ $2" | awk '{s+=$1} END {print s+0}'; }
RESULT_LINES='^(test result:|[[:space:]]*Tests[[:space:]]|(e2e|install): [0-9]+ passed)'
passed=$(count "$RESULT_LINES" passed)
failed=$(count "$RESULT_LINES" failed)
step "done"
printf '%s\n' "${TIMES[@]}"
echo "suite: $(($(date +%s) - SUITE_START)) s in all"
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/usr/bin/env bash
# Runs every Warden test: Rust (unit, integration, the real keychain under D-Bus), the generated
# bindings check, formatting and lints, the UI (typecheck + vitest), and the end-to-end specs in
# the real window under Xvfb. Installs what it needs first (scripts/setup.sh). Exits non-zero on
# the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

bash scripts/setup.sh
[ -f "$HOME/.cargo/env" ] && . "$HOME/.cargo/env"

step() { printf '\n\033[1;34m### %s\033[0m\n' "$*"; }
export CARGO_TERM_COLOR=never RUST_BACKTRACE=0 NO_AT_BRIDGE=1

cd "$ROOT/src-tauri"
step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy -D warnings"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "cargo test (workspace)"
cargo test --workspace --locked

step "keychain tests against the real Secret Service (gnome-keyring under dbus-run-session)"
# A fresh data dir per run: gnome-keyring creates its login keyring with the first password.
KEYRING_HOME=$(mktemp -d)
XDG_DATA_HOME="$KEYRING_HOME" dbus-run-session -- sh -c '
  echo -n warden-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  cargo test --workspace --locked -- --ignored keychain --test-threads=1'
rm -rf "$KEYRING_HOME"

cd "$ROOT"
if [ -f src/bindings.ts ]; then
  step "generated bindings are committed as generated"
  git diff --exit-code -- src/bindings.ts
fi
if [ -f package.json ]; then
  step "UI: typecheck"
  npm run --silent typecheck
  step "UI: vitest"
  npm test --silent
fi
if [ -x tests/e2e/run.sh ]; then
  step "end to end: the real window under Xvfb through WebDriver"
  tests/e2e/run.sh
fi
step "all tests passed"

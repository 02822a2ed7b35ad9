#!/usr/bin/env bash
# End-to-end: build the self-contained app, then drive the real window through WebDriver
# (tauri-driver + WebKitWebDriver) under Xvfb, with a real Secret Service keychain
# (gnome-keyring under dbus-run-session) and a loopback Anthropic stand-in.
#
#   tests/e2e/run.sh            build + run every spec in tests/e2e/specs
#   E2E_SKIP_BUILD=1 tests/e2e/run.sh   reuse the last build
#   E2E_SPECS=chat tests/e2e/run.sh     only specs whose file name contains "chat"
#
# Exits non-zero when a spec fails. Screenshots: tests/e2e/screenshots/ (gitignored).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
export ROOT
# Where cargo puts the build (CARGO_TARGET_DIR when set, as for the cargo build below).
APP="${CARGO_TARGET_DIR:-$ROOT/src-tauri/target}/debug/warden-desktop"
export APP

need() { command -v "$1" >/dev/null 2>&1 || { echo "e2e: missing $1 ($2)" >&2; exit 2; }; }
need Xvfb "apt-get install xvfb"
need WebKitWebDriver "apt-get install webkit2gtk-driver"
need dbus-run-session "apt-get install dbus"
need gnome-keyring-daemon "apt-get install gnome-keyring"
need secret-tool "apt-get install libsecret-tools"
need import "apt-get install imagemagick"
need dunst "apt-get install dunst"
need xprop "apt-get install x11-utils"
need xclip "apt-get install xclip"
need dbus-send "apt-get install dbus"
need node "Node 20"

if [[ "${E2E_SKIP_BUILD:-0}" != 1 ]]; then
  echo "e2e: building the web UI and the app (one feature set: custom-protocol)"
  cd "$ROOT"
  [[ -d node_modules ]] || npm ci --no-audit --no-fund
  npm run build
  cd "$ROOT/src-tauri"
  cargo build -p warden-desktop --features custom-protocol
  # The launcher of boxes with the network, found beside the app.
  cargo build -p warden-box
  # The engine the remote spec copies to its other user (warden, warden-engine).
  cargo build -p warden-cli
fi
[[ -x "$APP" ]] || { echo "e2e: $APP not built" >&2; exit 2; }

if ! command -v tauri-driver >/dev/null 2>&1; then
  echo "e2e: installing tauri-driver 2.1.0"
  cargo install tauri-driver --locked --version 2.1.0
fi
export PATH="$HOME/.cargo/bin:$PATH"

mkdir -p "$ROOT/tests/e2e/screenshots"
# A fresh keychain and Warden home per run: gnome-keyring creates its login keyring on first unlock.
RUN_DIR="$(mktemp -d /tmp/warden-e2e.XXXXXX)"
export RUN_DIR
trap 'rm -rf "$RUN_DIR"' EXIT

NO_AT_BRIDGE=1 XDG_DATA_HOME="$RUN_DIR/data" XDG_CONFIG_HOME="$RUN_DIR/config" \
  WARDEN_HOME="$RUN_DIR/warden-home" RUST_BACKTRACE=0 \
  WARDEN_SSH_COMMAND="ssh -F $RUN_DIR/remote/ssh_config" \
  dbus-run-session -- bash "$ROOT/tests/e2e/session.sh" \
  2> >(grep --line-buffered -v -E 'dbus-daemon|xdg-desktop-portal|Gtk-WARNING|SpiRegistry|^$' >&2)

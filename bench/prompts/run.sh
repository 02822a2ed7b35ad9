#!/usr/bin/env bash
# bench/prompts with a keychain of its own: a session bus and an unlocked gnome-keyring in a fresh
# data folder (as scripts/test.sh runs the keychain tests), so that what the scripted user allows
# is sealed and kept as on a desktop. Arguments and environment go to run.mjs (WARDEN, RUNS,
# SHOW_ASKS=1 to list what still asks).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
keyring="$(mktemp -d)"
trap 'rm -rf "$keyring"' EXIT
XDG_DATA_HOME="$keyring" dbus-run-session -- sh -c '
  echo -n warden-bench | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  exec node "$0/run.mjs" "$@"' "$here" "$@"

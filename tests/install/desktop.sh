# Run by tests/install/run.sh inside dbus-run-session: a display, a keyring and tauri-driver for
# the installed app, then the checks of desktop.mjs. Needs WORK, ROOT and the XDG_*_HOME of the
# test's user.
set -euo pipefail
RUN_DIR="$WORK/desktop"
mkdir -p "$RUN_DIR"
. "$ROOT/tests/e2e/lib/desktop.sh"
unlock_keyring warden-install-test
start_display 93
start_driver
node "$ROOT/tests/install/desktop.mjs"

#!/usr/bin/env bash
# Runs inside dbus-run-session (see run.sh): unlocks a fresh gnome-keyring, starts Xvfb, the
# loopback provider and tauri-driver (in its own process group), then the specs. Everything it
# started is stopped on exit, by pid / process group.
set -euo pipefail

source "$ROOT/tests/e2e/lib/desktop.sh"
mkdir -p "$WARDEN_HOME" "$RUN_DIR/project"
unlock_keyring "e2e-keyring-pw"
start_display "${E2E_DISPLAY:-$(( 90 + RANDOM % 400 ))}"

# The project the agent works in: a README to read.
printf '# Demo project\n\nThis file is read by the e2e spec.\n' >"$RUN_DIR/project/README.md"
export E2E_PROJECT="$RUN_DIR/project"

# Loopback Anthropic stand-in.
start_provider
export E2E_PROVIDER_URL="$PROVIDER_URL"

# Settings as a user would have them after choosing the project folder (a native dialog the
# driver cannot click): the loopback provider, the project, and file_write in scope. The key is
# entered through the settings panel by the spec.
cat >"$WARDEN_HOME/settings.json" <<JSON
{
  "trustLevel": "guided",
  "activeProvider": "anthropic",
  "providers": { "anthropic": { "baseUrl": "$E2E_PROVIDER_URL", "model": "claude-test" } },
  "projectDir": "$E2E_PROJECT",
  "toolPermissions": {
    "$E2E_PROJECT": {
      "allowedTools": ["file_read", "file_write", "list_dir", "file_info", "search_files", "search_in_files"],
      "writeGlobs": [],
      "bashTimeoutSecs": 60
    }
  }
}
JSON

# The "browser" the app opens pages in (a sign-in page, a link): it notes the address and fetches
# it, following redirects, as a browser would once the user approved.
cat >"$RUN_DIR/browser.sh" <<SH
#!/bin/sh
echo "\$1" >>"$RUN_DIR/opened.txt"
exec curl -sfL -o /dev/null "\$1"
SH
chmod +x "$RUN_DIR/browser.sh"
export WARDEN_OPENER="$RUN_DIR/browser.sh" E2E_OPENED="$RUN_DIR/opened.txt"

start_driver
export E2E_DRIVER_URL="$DRIVER_URL"

status=0
node "$ROOT/tests/e2e/run.mjs" || status=$?
if [[ $status -ne 0 ]]; then
  echo "--- driver log (tail)"; tail -20 "$RUN_DIR/driver.log" || true
  echo "--- provider stderr"; tail -20 "$RUN_DIR/provider.err" || true
fi
exit $status

#!/usr/bin/env bash
# Runs inside dbus-run-session (see run.sh): unlocks a fresh gnome-keyring, starts Xvfb, the
# loopback provider and tauri-driver (in its own process group), then the specs. Everything it
# started is stopped on exit, by pid / process group.
set -euo pipefail

mkdir -p "$XDG_DATA_HOME" "$XDG_CONFIG_HOME" "$WARDEN_HOME" "$RUN_DIR/project"
echo -n "e2e-keyring-pw" | gnome-keyring-daemon --unlock --components=secrets >/dev/null

PIDS=()
GROUPS_TO_KILL=()
cleanup() {
  for g in "${GROUPS_TO_KILL[@]}"; do kill -TERM -- "-$g" 2>/dev/null || true; done
  for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  sleep 0.3
  for g in "${GROUPS_TO_KILL[@]}"; do kill -KILL -- "-$g" 2>/dev/null || true; done
}
trap cleanup EXIT

# A display nobody else uses.
DISPLAY_NUM="${E2E_DISPLAY:-$(( 90 + RANDOM % 400 ))}"
Xvfb ":$DISPLAY_NUM" -screen 0 1280x800x24 -nolisten tcp >"$RUN_DIR/xvfb.log" 2>&1 &
PIDS+=($!)
export DISPLAY=":$DISPLAY_NUM"
for _ in $(seq 50); do [[ -e "/tmp/.X11-unix/X$DISPLAY_NUM" ]] && break; sleep 0.1; done

# The project the agent works in: a README to read.
printf '# Demo project\n\nThis file is read by the e2e spec.\n' >"$RUN_DIR/project/README.md"
export E2E_PROJECT="$RUN_DIR/project"

# Loopback Anthropic stand-in.
node "$ROOT/tests/e2e/lib/provider.mjs" >"$RUN_DIR/provider.out" 2>"$RUN_DIR/provider.err" &
PIDS+=($!)
for _ in $(seq 50); do grep -q '^PORT ' "$RUN_DIR/provider.out" 2>/dev/null && break; sleep 0.1; done
E2E_PROVIDER_URL="http://127.0.0.1:$(awk '/^PORT /{print $2}' "$RUN_DIR/provider.out")"
export E2E_PROVIDER_URL

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

# tauri-driver in its own process group: killing only the driver would leave the app running.
DRIVER_PORT="${E2E_DRIVER_PORT:-$(( 20000 + RANDOM % 20000 ))}"
export E2E_DRIVER_URL="http://127.0.0.1:$DRIVER_PORT"
setsid tauri-driver --port "$DRIVER_PORT" --native-port "$(( DRIVER_PORT + 1 ))" >"$RUN_DIR/driver.log" 2>&1 &
GROUPS_TO_KILL+=($!)
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$DRIVER_PORT") 2>/dev/null && break; sleep 0.1; done

status=0
node "$ROOT/tests/e2e/run.mjs" || status=$?
if [[ $status -ne 0 ]]; then
  echo "--- driver log (tail)"; tail -20 "$RUN_DIR/driver.log" || true
  echo "--- provider stderr"; tail -20 "$RUN_DIR/provider.err" || true
fi
exit $status

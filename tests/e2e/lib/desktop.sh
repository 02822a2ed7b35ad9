# Sourced by tests/e2e/session.sh and bench/app/session.sh, inside dbus-run-session: what both need
# to drive the real app — a keyring, a display, the loopback provider, tauri-driver — and a cleanup
# that stops everything started here, by pid or process group. Needs RUN_DIR, ROOT, XDG_*_HOME.

PIDS=()
GROUPS_TO_KILL=()
cleanup() {
  for g in "${GROUPS_TO_KILL[@]}"; do kill -TERM -- "-$g" 2>/dev/null || true; done
  for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  sleep 0.3
  for g in "${GROUPS_TO_KILL[@]}"; do kill -KILL -- "-$g" 2>/dev/null || true; done
}
trap cleanup EXIT

# A fresh gnome-keyring, unlocked (it creates its login keyring on first unlock).
unlock_keyring() {
  mkdir -p "$XDG_DATA_HOME" "$XDG_CONFIG_HOME"
  echo -n "$1" | gnome-keyring-daemon --unlock --components=secrets >/dev/null
}

# Xvfb on display number $1 (pick one nobody else uses); exports DISPLAY once it listens.
start_display() {
  Xvfb ":$1" -screen 0 1280x800x24 -nolisten tcp >"$RUN_DIR/xvfb.log" 2>&1 &
  PIDS+=($!)
  export DISPLAY=":$1"
  for _ in $(seq 50); do [[ -e "/tmp/.X11-unix/X$1" ]] && break; sleep 0.1; done
}

# The loopback Anthropic stand-in (extra environment "$@"); exports PROVIDER_URL.
start_provider() {
  env "$@" node "$ROOT/tests/e2e/lib/provider.mjs" >"$RUN_DIR/provider.out" 2>"$RUN_DIR/provider.err" &
  PIDS+=($!)
  for _ in $(seq 50); do grep -q '^PORT ' "$RUN_DIR/provider.out" 2>/dev/null && break; sleep 0.1; done
  export PROVIDER_URL="http://127.0.0.1:$(awk '/^PORT /{print $2}' "$RUN_DIR/provider.out")"
}

# tauri-driver in its own process group (killing only the driver would leave the app running),
# with extra environment "$@" that the apps it starts inherit; exports DRIVER_URL, sets DRIVER_PGID.
start_driver() {
  local port=$(( 20000 + RANDOM % 20000 ))
  export DRIVER_URL="http://127.0.0.1:$port"
  env "$@" setsid tauri-driver --port "$port" --native-port "$(( port + 1 ))" >>"$RUN_DIR/driver.log" 2>&1 &
  DRIVER_PGID=$!
  GROUPS_TO_KILL+=("$DRIVER_PGID")
  for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
}

#!/usr/bin/env bash
# Inside dbus-run-session (see run.sh): keyring, Xvfb, then the measurements. Stops everything it
# started, by pid / process group.
set -euo pipefail
source "$ROOT/bench/app/measure.sh"

mkdir -p "$XDG_DATA_HOME" "$XDG_CONFIG_HOME"
echo -n "bench-keyring-pw" | gnome-keyring-daemon --unlock --components=secrets >/dev/null

PIDS=()
GROUPS_TO_KILL=()
cleanup() {
  for g in "${GROUPS_TO_KILL[@]}"; do kill -TERM -- "-$g" 2>/dev/null || true; done
  for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
}
trap cleanup EXIT

DISPLAY_NUM="${BENCH_DISPLAY:-$(( 500 + RANDOM % 400 ))}"
Xvfb ":$DISPLAY_NUM" -screen 0 1280x800x24 -nolisten tcp >"$RUN_DIR/xvfb.log" 2>&1 &
PIDS+=($!)
export DISPLAY=":$DISPLAY_NUM"
for _ in $(seq 50); do [[ -e "/tmp/.X11-unix/X$DISPLAY_NUM" ]] && break; sleep 0.1; done

# Without a GPU render node Warden draws without GL compositing (src-tauri/src/rendering.rs). The
# targets compare it with hello-world drawing the same way ("hello"); hello-world with WebKit's
# default (GL compositing, here on Mesa's software rasterizer) is measured too, for reference.
SAME_PATH=()
compgen -G "/dev/dri/renderD*" >/dev/null || SAME_PATH=(WEBKIT_DISABLE_COMPOSITING_MODE=1)
declare -A WIN=([hello]=NaN [hello-default]=NaN [warden]=NaN) PSS=([hello]=NaN [hello-default]=NaN [warden]=NaN)
declare -A PAINT=([hello]=NaN [hello-default]=NaN [warden]=NaN)

# Starts tauri-driver with extra environment "$@" (its apps inherit it); sets DRIVER_URL, DRIVER_PGID.
start_driver() {
  local port=$(( 20000 + RANDOM % 20000 ))
  export DRIVER_URL="http://127.0.0.1:$port"
  env "$@" setsid tauri-driver --port "$port" --native-port "$(( port + 1 ))" >>"$RUN_DIR/driver.log" 2>&1 &
  DRIVER_PGID=$!
  GROUPS_TO_KILL+=("$DRIVER_PGID")
  for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
}
APPS=(hello hello-default warden); [[ "${BENCH_ONLY:-}" == drive ]] && APPS=()
for app in "${APPS[@]}"; do
  bin="$HELLO_APP"; title="Hello"; vars=("${SAME_PATH[@]}")
  [[ $app == hello-default ]] && vars=()
  [[ $app == warden ]] && bin="$WARDEN_APP" && title="Warden" && vars=()
  times=()
  # One launch first, not counted: the first start after Xvfb and the keyring come up (and with a
  # cold page cache) is far slower than any later one, for every app.
  env "${vars[@]}" bash -c "source '$ROOT/bench/app/measure.sh'; launch_to_window '$bin' '$title'" >/dev/null
  for i in $(seq "$BENCH_RUNS"); do
    export WARDEN_HOME="$RUN_DIR/home-$app-$i"
    times+=("$(env "${vars[@]}" bash -c "source '$ROOT/bench/app/measure.sh'; launch_to_window '$bin' '$title'")")
  done
  WIN[$app]="$(median "${times[@]}")"
  export WARDEN_HOME="$RUN_DIR/home-$app-idle"
  PSS[$app]="$(env "${vars[@]}" bash -c "source '$ROOT/bench/app/measure.sh'; idle_pss '$bin' '$title'")"
  export WARDEN_HOME="$RUN_DIR/home-$app-paint"
  start_driver "${vars[@]}"
  PAINT[$app]="$(node "$ROOT/bench/app/paint.mjs" "$bin" "$BENCH_RUNS" || echo NaN)"
  kill -TERM -- "-$DRIVER_PGID" 2>/dev/null || true
  echo "bench: $app window ${WIN[$app]} ms (runs: ${times[*]}), first paint ${PAINT[$app]} ms, idle PSS ${PSS[$app]} KiB ${vars[*]}" >&2
done

failed=$(grep -c "panicked" "$RUN_DIR/launch.log" 2>/dev/null || true)
(( ${failed:-0} > 0 )) && echo "bench: $failed launches failed: $(grep -m1 panicked "$RUN_DIR/launch.log" | cut -c1-200)" >&2
[[ "${BENCH_ONLY:-}" == start ]] && exit 0

# Conversation memory and frame times: Warden driven through WebDriver and the loopback provider.
export WARDEN_HOME="$RUN_DIR/home-warden-drive" PROJECT="$RUN_DIR/project"
mkdir -p "$PROJECT" && printf '# Bench project\n' >"$PROJECT/README.md"
PROVIDER_DELTA_DELAY_MS=0 node "$ROOT/tests/e2e/lib/provider.mjs" >"$RUN_DIR/provider.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do grep -q '^PORT ' "$RUN_DIR/provider.out" 2>/dev/null && break; sleep 0.1; done
export PROVIDER_URL="http://127.0.0.1:$(awk '/^PORT /{print $2}' "$RUN_DIR/provider.out")"
start_driver
DRIVE_JSON="$(node "$ROOT/bench/app/drive.mjs" || echo '{"error":"drive failed"}')"

node "$ROOT/bench/app/report.mjs" "${WIN[hello]}" "${WIN[warden]}" "${PSS[hello]}" "${PSS[warden]}" "$DRIVE_JSON" \
  "${WIN[hello-default]}" "${PSS[hello-default]}" "${PAINT[hello]}" "${PAINT[warden]}" "${PAINT[hello-default]}"

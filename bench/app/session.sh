#!/usr/bin/env bash
# Inside dbus-run-session (see run.sh): keyring, Xvfb, then the measurements. Stops everything it
# started, by pid / process group.
set -euo pipefail
source "$ROOT/bench/app/measure.sh"

source "$ROOT/tests/e2e/lib/desktop.sh"
unlock_keyring "bench-keyring-pw"
start_display "${BENCH_DISPLAY:-$(( 500 + RANDOM % 400 ))}"

# Without a GPU render node Warden draws without GL compositing (src-tauri/src/rendering.rs). The
# targets compare it with hello-world drawing the same way ("hello"); hello-world with WebKit's
# default (GL compositing, here on Mesa's software rasterizer) is measured too, for reference.
SAME_PATH=()
compgen -G "/dev/dri/renderD*" >/dev/null || SAME_PATH=(WEBKIT_DISABLE_COMPOSITING_MODE=1)
declare -A WIN=([hello]=NaN [hello-default]=NaN [warden]=NaN) PSS=([hello]=NaN [hello-default]=NaN [warden]=NaN)
declare -A PAINT=([hello]=NaN [hello-default]=NaN [warden]=NaN)

# Runs a measure.sh function with the current app's extra environment, "${vars[@]}".
measure() { env "${vars[@]}" bash -c "source '$ROOT/bench/app/measure.sh'; \"\$@\"" _ "$@"; }

APPS=(hello hello-default warden); [[ "${BENCH_ONLY:-}" == drive ]] && APPS=()
for app in "${APPS[@]}"; do
  bin="$HELLO_APP"; title="Hello"; vars=("${SAME_PATH[@]}")
  [[ $app == hello-default ]] && vars=()
  [[ $app == warden ]] && bin="$WARDEN_APP" && title="Warden" && vars=()
  times=()
  # One launch first, not counted: the first start after Xvfb and the keyring come up (and with a
  # cold page cache) is far slower than any later one, for every app.
  measure launch_to_window "$bin" "$title" >/dev/null
  for i in $(seq "$BENCH_RUNS"); do
    export WARDEN_HOME="$RUN_DIR/home-$app-$i"
    times+=("$(measure launch_to_window "$bin" "$title")")
  done
  WIN[$app]="$(median "${times[@]}")"
  export WARDEN_HOME="$RUN_DIR/home-$app-idle"
  PSS[$app]="$(measure idle_pss "$bin" "$title")"
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
start_provider PROVIDER_DELTA_DELAY_MS=0
start_driver
DRIVE_JSON="$(node "$ROOT/bench/app/drive.mjs" || echo '{"error":"drive failed"}')"

node "$ROOT/bench/app/report.mjs" "${WIN[hello]}" "${WIN[warden]}" "${PSS[hello]}" "${PSS[warden]}" "$DRIVE_JSON" \
  "${WIN[hello-default]}" "${PSS[hello-default]}" "${PAINT[hello]}" "${PAINT[warden]}" "${PAINT[hello-default]}"

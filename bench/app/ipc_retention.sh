#!/usr/bin/env bash
# What the WebKit web process keeps for each message a Tauri app sends its page: the probe app
# (bench/app/ipc_probe, same tauri version and release profile as Warden) sends N messages each
# way and prints the web process's PSS growth per message.
#
#   bash bench/app/ipc_retention.sh        N=10000 messages per way (default)
#
# Ways: a script per message with its payload in the source (how Tauri delivers every event,
# Warden's conversation events among them), the same script every time (the reference), one
# script per ten messages, and a command's answer read by the page (the IPC protocol).
# Verdict: PASS when ten messages per script keep at most half per message of what one per script
# keeps — the reason Warden's window should get a frame's events together. It prints the figures
# either way; they are WebKitGTK's, not Warden's.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT="$ROOT/bench/out/ipc_probe"
export N="${N:-10000}" CARGO_TARGET_DIR="$ROOT/src-tauri/target"

rm -rf "$OUT" && mkdir -p "$OUT/dist" "$OUT/icons"
cp -r "$ROOT/bench/app/ipc_probe/." "$OUT/"
printf '<!doctype html><html><head><meta charset="utf-8"><title>IpcProbe</title></head><body>probe</body></html>\n' >"$OUT/dist/index.html"
cp "$ROOT/src-tauri/icons/"{32x32.png,128x128.png,icon.png} "$OUT/icons/"
cp "$ROOT/src-tauri/Cargo.lock" "$OUT/Cargo.lock"
(cd "$OUT" && cargo build --release --features custom-protocol 2>&1 | tail -1 >&2)

RUN_DIR="$(mktemp -d /tmp/warden-ipc.XXXXXX)"
xvfb=""
trap '[[ -n "$xvfb" ]] && kill "$xvfb" 2>/dev/null; rm -rf "$RUN_DIR"' EXIT
display=$(( 500 + RANDOM % 400 ))
Xvfb ":$display" -screen 0 1280x800x24 -nolisten tcp >"$RUN_DIR/xvfb.log" 2>&1 &
xvfb=$!
for _ in $(seq 50); do [[ -e "/tmp/.X11-unix/X$display" ]] && break; sleep 0.1; done

declare -A PER
for mode in distinct same batch10 invoke; do
  line="$(DISPLAY=":$display" MODE="$mode" NO_AT_BRIDGE=1 WEBKIT_DISABLE_COMPOSITING_MODE=1 \
    XDG_DATA_HOME="$RUN_DIR/data" XDG_CONFIG_HOME="$RUN_DIR/config" \
    timeout 180 dbus-run-session -- "$CARGO_TARGET_DIR/release/ipc-probe" 2>/dev/null | tail -1)"
  [[ "$line" == "$mode "* ]] || { echo "ipc-probe ($mode): ${line:-no answer}" >&2; exit 1; }
  read -r _ n before after per <<<"$line"
  PER[$mode]="$per"
  [[ "$mode" == batch10 ]] && unit="script of ten" || unit="message"
  printf '%-9s %6s messages: web process PSS %s → %s KiB, %s KiB per %s\n' "$mode" "$n" "$before" "$after" "$per" "$unit"
done
verdict="$(node -e '
  const [one, ten] = process.argv.slice(1).map(Number);
  const perItem = ten / 10;
  console.log(`${perItem <= 0.5 * one ? "PASS" : "MISS"}  ten messages per script keep ${perItem.toFixed(2)} KiB per message against ${one.toFixed(2)} KiB for one per script (${(perItem / one).toFixed(2)}×; target ≤ 0.5×)`);
' "${PER[distinct]}" "${PER[batch10]}")"
echo "$verdict"
[[ "$verdict" == PASS* ]]

#!/usr/bin/env bash
# The installed app's figures, against hello-world packaged the same way in the same run (same
# tauri, same release profile, same target folder):
#   - the .deb's size and its installed size (dpkg's Installed-Size);
#   - launch → first contentful paint and idle PSS of both release builds (bench/app/run.sh's
#     start part, BENCH_RUNS launches each, medians).
# Goals: .deb ≤ 15 MB; first paint ≤ 1.3× hello-world's; idle PSS ≤ hello-world + 60 MiB.
#
#   bench/app/package.sh        (BENCH_RUNS=5 by default)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT="$ROOT/bench/out"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/src-tauri/target}"
mkdir -p "$OUT"
cd "$ROOT"

echo "bench: Warden's packages (scripts/package.sh, release)" >&2
WARDEN_SKIP_SETUP=1 WARDEN_PACKAGE_OUT="$OUT/packages" bash scripts/package.sh >"$OUT/package-warden.log" 2>&1 ||
  { tail -30 "$OUT/package-warden.log" >&2; exit 1; }
WARDEN_DEB=$(ls "$OUT"/packages/warden_*.deb | head -1)

echo "bench: hello-world's package (the same tauri and profile)" >&2
HELLO="$OUT/hello-package"
rm -rf "$HELLO" && cp -r "$ROOT/bench/app/hello" "$HELLO"
mkdir -p "$HELLO/dist" "$HELLO/icons"
printf '<!doctype html><html><head><meta charset="utf-8"><title>Hello</title></head><body><h1>Hello, world</h1></body></html>\n' \
  >"$HELLO/dist/index.html"
cp "$ROOT/src-tauri/icons/"{32x32.png,128x128.png,icon.png} "$HELLO/icons/"
cp "$ROOT/src-tauri/Cargo.lock" "$HELLO/Cargo.lock"
python3 - "$HELLO/tauri.conf.json" <<'EOF'
import json, sys
path = sys.argv[1]
config = json.load(open(path))
config["bundle"].update({"active": True, "targets": ["deb"]})
json.dump(config, open(path, "w"), indent=2)
EOF
rm -rf "$CARGO_TARGET_DIR/release/bundle/deb"
(cd "$HELLO" && "$ROOT/node_modules/.bin/tauri" build --ci --bundles deb) >"$OUT/package-hello.log" 2>&1 ||
  { tail -30 "$OUT/package-hello.log" >&2; exit 1; }
HELLO_DEB=$(ls "$CARGO_TARGET_DIR"/release/bundle/deb/Hello_*.deb | head -1)

echo "bench: launch to first paint and idle memory, release builds" >&2
BENCH_PROFILE=release BENCH_ONLY=start bash "$ROOT/bench/app/run.sh" 2>&1 | tee "$OUT/app-start.log" >&2

figure() { # figure APP FIELD: from run.sh's "bench: APP window W ms (...), first paint P ms, idle PSS K KiB"
  local line
  line=$(grep -E "^bench: $1 window " "$OUT/app-start.log" | tail -1)
  case $2 in
    paint) sed -E 's/.*first paint ([0-9.]+|NaN) ms.*/\1/' <<<"$line" ;;
    pss) sed -E 's/.*idle PSS ([0-9.]+|NaN) KiB.*/\1/' <<<"$line" ;;
  esac
}
node - "$WARDEN_DEB" "$HELLO_DEB" "$(figure warden paint)" "$(figure hello paint)" "$(figure warden pss)" "$(figure hello pss)" <<'EOF'
const { statSync } = require("node:fs");
const { execFileSync } = require("node:child_process");
const [wardenDeb, helloDeb, wardenPaint, helloPaint, wardenPss, helloPss] = process.argv.slice(2);
const installedKiB = (deb) => Number(execFileSync("dpkg-deb", ["-f", deb, "Installed-Size"], { encoding: "utf8" }).trim());
const mb = (bytes) => (bytes / 1e6).toFixed(2);
const mib = (kib) => (kib / 1024).toFixed(1);
const rows = [];
const row = (name, value, target, ok) => rows.push(`${ok === null ? "INFO" : ok ? "PASS" : "MISS"}  ${name.padEnd(22)} ${value}${target ? `   [target ${target}]` : ""}`);
const wSize = statSync(wardenDeb).size, hSize = statSync(helloDeb).size;
row(".deb size", `${mb(wSize)} MB vs hello-world ${mb(hSize)} MB`, "≤ 15 MB", wSize <= 15e6);
const wInst = installedKiB(wardenDeb), hInst = installedKiB(helloDeb);
row("installed size", `${mib(wInst)} MiB vs hello-world ${mib(hInst)} MiB`, "", null);
const wp = Number(wardenPaint), hp = Number(helloPaint);
row("first paint", `${wp} ms vs hello-world ${hp} ms (×${(wp / hp).toFixed(2)})`, "≤ 1.3× hello-world", wp <= 1.3 * hp);
const ws = Number(wardenPss), hs = Number(helloPss);
row("idle PSS", `${mib(ws)} MiB vs hello-world ${mib(hs)} MiB (+${mib(ws - hs)} MiB)`, "≤ hello-world + 60 MiB", ws - hs <= 60 * 1024);
console.log(rows.join("\n"));
console.log(JSON.stringify({ wardenDebBytes: wSize, helloDebBytes: hSize, wardenInstalledKiB: wInst, helloInstalledKiB: hInst, wardenPaintMs: wp, helloPaintMs: hp, wardenPssKiB: ws, helloPssKiB: hs }));
EOF

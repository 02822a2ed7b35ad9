#!/usr/bin/env bash
# The installed app, tested as a user meets it (run as root: it installs with apt):
#
#   1. build two release packages with scripts/package.sh, signed with a key made here: the
#      version in the tree, and the same tree with the app one patch version up (the update);
#   2. apt-get install ./warden_<version>_<arch>.deb; check `warden --version`, the menu entry,
#      the icons, the licence and the dependencies;
#   3. start /usr/bin/warden-desktop under Xvfb and see its window (a screenshot, not blank);
#      start it again and see the first window focused and no second process;
#   4. updates (tests/install/update.mjs): a loopback update server offers the newer package with
#      a signature that does not match — refused, version unchanged — then with its own signature —
#      installed, the app restarts and reports the new version;
#   5. quit from the menu's shortcut; apt-get purge; nothing of the package is left in /usr, the
#      user's data is.
#
# A Warden package already installed on the machine is purged first and at the end: run it where
# that is wanted (CI, a test machine). Prints "install: N passed, M failed". Env: WARDEN_INSTALL_KEEP=1 keeps the work folder (packages,
# screenshots, logs); INSTALL_FAST=0 builds with the full release profile (LTO, one codegen unit,
# opt-level 3) instead of the quicker one the suite uses: the same code, features and release
# settings, optimised at level 1 without LTO, which halves the compile time of each crate (the
# test checks what is installed and how it starts and updates, not its speed).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
[ -f "$HOME/.cargo/env" ] && . "$HOME/.cargo/env"

[ "$(id -u)" -eq 0 ] || { echo "tests/install/run.sh installs packages: run it as root" >&2; exit 1; }

WORK=$(mktemp -d /tmp/warden-install.XXXXXX)
export WORK
passed=0 failed=0
ok() { passed=$((passed + 1)); printf '  \033[32mok\033[0m   %s\n' "$*"; }
bad() { failed=$((failed + 1)); printf '  \033[31mFAIL\033[0m %s\n' "$*"; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }
log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

cleanup() {
  set +e
  pkill -x warden-desktop 2>/dev/null
  dpkg-query -W -f='${Status}' warden 2>/dev/null | grep -q "ok installed" && apt-get purge -y -qq warden >/dev/null 2>&1
  [ "${WARDEN_INSTALL_KEEP:-}" = 1 ] && echo "install: work folder kept at $WORK" || rm -rf "$WORK"
}
trap cleanup EXIT

if [ "${INSTALL_FAST:-1}" = 1 ]; then
  export CARGO_PROFILE_RELEASE_LTO=off CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_OPT_LEVEL=1
fi
ARCH=$(dpkg --print-architecture)
VERSION=$(cd src-tauri && cargo metadata --no-deps --format-version 1 --locked |
  python3 -c 'import json,sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "warden-desktop"))')
NEXT=$(python3 -c 'import sys; a,b,c=sys.argv[1].split("-")[0].split("."); print(f"{a}.{b}.{int(c)+1}")' "$VERSION")

# A signing key of the test's own; the builds trust it instead of Warden's release key, and look
# for updates on the loopback server below (plain http is allowed for these builds only).
log "a signing key for the test's builds"
KEY_DIR="$WORK/key"
mkdir -p "$KEY_DIR"
npx --no-install tauri signer generate --ci -p "" -w "$KEY_DIR/test.key" -f >/dev/null
export TAURI_SIGNING_PRIVATE_KEY="$KEY_DIR/test.key" TAURI_SIGNING_PRIVATE_KEY_PASSWORD=""
export UPDATE_PORT=${UPDATE_PORT:-18471}
WARDEN_PACKAGE_CONFIG=$(PUB=$(cat "$KEY_DIR/test.key.pub") python3 -c '
import json, os
print(json.dumps({"plugins": {"updater": {
    "pubkey": os.environ["PUB"],
    "endpoints": ["http://127.0.0.1:%s/latest.json" % os.environ["UPDATE_PORT"]],
    "dangerousInsecureTransportProtocol": True}}}))')
export WARDEN_PACKAGE_CONFIG WARDEN_SKIP_SETUP=1

# Both packages are built from one copy of the tree at a fixed place (a second run rebuilds only
# what changed), sharing the cargo target folder: first as it is, then with the app's two crates
# (the window, warden-desktop, and the command line, warden-cli) one patch version up — the update.
# The library crates keep their version, so the update's build compiles only those two crates again,
# not the whole workspace (half of this test's build time): an update is told by the app's version,
# which is what the package, `warden --version` and the running app report.
TREE="${CARGO_TARGET_DIR:-$ROOT/src-tauri/target}/install-test-tree"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/src-tauri/target}"
rm -rf "$TREE" && mkdir -p "$TREE"
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$TREE"
ln -s "$ROOT/node_modules" "$TREE/node_modules"

log "package $VERSION (the installed one)"
WARDEN_PACKAGE_OUT="$WORK/old" bash "$TREE/scripts/package.sh" >"$WORK/package-old.log" 2>&1 ||
  { tail -40 "$WORK/package-old.log"; exit 1; }

log "package $NEXT (the update): the app's crates one patch version up"
for manifest in "$TREE/src-tauri/Cargo.toml" "$TREE/src-tauri/crates/warden-cli/Cargo.toml"; do
  grep -q '^version.workspace = true$' "$manifest" || { echo "no workspace version to replace in $manifest" >&2; exit 1; }
  sed -i "0,/^version.workspace = true$/s//version = \"$NEXT\"/" "$manifest"
done
(cd "$TREE/src-tauri" && cargo update --workspace --offline -q)
WARDEN_PACKAGE_OUT="$WORK/new" bash "$TREE/scripts/package.sh" >"$WORK/package-new.log" 2>&1 ||
  { tail -40 "$WORK/package-new.log"; exit 1; }

OLD_DEB="$WORK/old/warden_${VERSION}_${ARCH}.deb"
NEW_DEB="$WORK/new/warden_${NEXT}_${ARCH}.deb"
check "the packages are built: .deb and .rpm of $VERSION, .deb of $NEXT, each with its signature" \
  test -s "$OLD_DEB" -a -s "$OLD_DEB.sig" -a -s "$WORK/old/warden-${VERSION}-1.$(uname -m).rpm" -a -s "$NEW_DEB" -a -s "$NEW_DEB.sig"
ls -l "$WORK/old" "$WORK/new" | sed 's/^/       /'

log "install"
if dpkg-query -W -f='${Status}' warden 2>/dev/null | grep -q "ok installed"; then apt-get purge -y -qq warden >/dev/null; fi
(cd "$WORK/old" && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "./$(basename "$OLD_DEB")" >"$WORK/apt-install.log" 2>&1) ||
  { tail -20 "$WORK/apt-install.log"; exit 1; }
dpkg -L warden | sort >"$WORK/files.txt"
check "apt installed warden $VERSION" test "$(dpkg-query -W -f='${Version}' warden)" = "$VERSION"
check "warden --version says $VERSION" test "$(/usr/bin/warden --version)" = "warden $VERSION"
check "warden is on the PATH" test "$(command -v warden)" = /usr/bin/warden
check "the engine the warden front hands commands to is /usr/lib/warden/warden-engine" \
  test -x /usr/lib/warden/warden-engine -a "$(/usr/lib/warden/warden-engine --version)" = "warden $VERSION"
check "the warden front is linked statically (no shared library to load for each box)" \
  bash -c '! readelf -d /usr/bin/warden | grep -q "(NEEDED)"'
BOXED=$(mktemp -d "$WORK/boxed.XXXXXX")
check "warden sandbox runs a command in the box: the project writable, its exit status passed through" \
  bash -c '/usr/bin/warden sandbox --project "$1" -- sh -c "echo made > \"$1/made\"; exit 3"; [ $? -eq 3 ] && [ -s "$1/made" ]' _ "$BOXED"
check "warden sandbox refuses a write outside the project (/usr is read-only in the box)" \
  bash -c '! /usr/bin/warden sandbox --project "$1" -- sh -c "echo x > /usr/warden-install-canary" 2>/dev/null && [ ! -e /usr/warden-install-canary ]' _ "$BOXED"
check "a write to the box's own /tmp does not reach the disk" \
  bash -c '/usr/bin/warden sandbox --project "$1" -- sh -c "echo x > \"$2/outside\""; [ ! -e "$2/outside" ]' _ "$BOXED" "$WORK"
check "a box with the network starts with its launcher (/usr/lib/warden/warden-box), Warden's proxy named in it" \
  bash -c '[ "$(/usr/bin/warden sandbox --project "$1" --network -- sh -c "echo \$HTTPS_PROXY")" = http://127.0.0.1:39281 ]' _ "$BOXED"
check "the desktop app is /usr/bin/warden-desktop" test -x /usr/bin/warden-desktop
DESKTOP=$(grep -E '^/usr/share/applications/.*\.desktop$' "$WORK/files.txt" | head -1)
check "a menu entry that starts warden-desktop with its icon" \
  grep -qx 'Exec=warden-desktop' "$DESKTOP" -a -n "$(grep -x 'Icon=warden-desktop' "$DESKTOP")"
check "the menu entry files Warden under development tools" grep -q '^Categories=Development;' "$DESKTOP"
for size in 32x32 128x128 256x256@2; do
  check "a $size icon" grep -q "/usr/share/icons/hicolor/$size/apps/warden-desktop.png" "$WORK/files.txt"
done
check "the licence is installed" grep -q -i 'MIT' "/usr/share/doc/warden/copyright"
DEPENDS=$(dpkg-query -W -f='${Depends}' warden)
check "depends on WebKitGTK and bubblewrap ($DEPENDS)" \
  bash -c '[[ "$1" == *libwebkit2gtk-4.1-0* && "$1" == *bubblewrap* ]]' _ "$DEPENDS"

# The installed app under Xvfb, with a user of its own (fresh settings, data, logs and keyring),
# driven through WebDriver; a key in its environment must never reach its log.
log "start the installed app"
USER_HOME="$WORK/home"
mkdir -p "$USER_HOME"
set +e
HOME="$USER_HOME" XDG_CONFIG_HOME="$USER_HOME/.config" XDG_DATA_HOME="$USER_HOME/.local/share" \
  XDG_STATE_HOME="$USER_HOME/.local/state" NO_AT_BRIDGE=1 ROOT="$ROOT" \
  NEW_DEB="$NEW_DEB" OLD_DEB="$OLD_DEB" VERSION="$VERSION" NEXT="$NEXT" \
  ANTHROPIC_API_KEY="sk-ant-install-test-0123456789" TEST_KEY_MARK="sk-ant-install-test-0123456789" \
  dbus-run-session -- bash "$ROOT/tests/install/desktop.sh" 2> >(grep --line-buffered -v -E 'dbus-daemon|Gtk-WARNING|^$' >&2)
desktop_status=$?
set -e
# desktop.mjs printed its own ok/FAIL lines; its totals are in desktop-checks.
read -r p f < <(awk '/^checks: /{print $2, $3}' "$WORK/desktop-checks" 2>/dev/null || echo "0 1")
passed=$((passed + ${p:-0}))
failed=$((failed + ${f:-1}))
[ "$desktop_status" -eq 0 ] || [ "${f:-1}" -gt 0 ] || bad "the desktop checks ended cleanly (exit $desktop_status)"
pkill -x warden-desktop 2>/dev/null || true

log "remove"
DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq warden >"$WORK/apt-purge.log" 2>&1
check "apt-get purge removed the package" bash -c '! dpkg-query -W -f="\${Status}" warden 2>/dev/null | grep -q installed'
left=$(grep -E '^/usr/' "$WORK/files.txt" | while read -r f; do if [ -f "$f" ] || [ -L "$f" ]; then echo "$f"; fi; done)
check "nothing the package installed is left in /usr${left:+: $left}" test -z "$left"
check "no file named warden is left in /usr" test -z "$(find /usr -iname '*warden*' -not -path '*/node_modules/*' 2>/dev/null | head -3)"
check "the user's data stays (conversations, logs)" \
  test -s "$USER_HOME/.local/share/warden/conversations.db" -a -n "$(ls "$USER_HOME/.local/state/warden/logs" 2>/dev/null)"

echo "install: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

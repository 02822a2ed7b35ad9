#!/usr/bin/env bash
# Builds Warden's release packages: a .deb and an .rpm, each holding the desktop app
# (/usr/bin/warden-desktop, its menu entry and icons), the `warden` command line (/usr/bin/warden
# and the engine it hands commands to, /usr/lib/warden/warden-engine) and the licence. Release
# profile (LTO); the version is the workspace's (src-tauri/Cargo.toml).
#
#   scripts/package.sh                      packages in src-tauri/target/packages/
#
# Environment (all optional):
#   TAURI_SIGNING_PRIVATE_KEY[_PASSWORD]    sign the packages for the updater (a .sig beside each;
#                                           `npx tauri signer generate` makes a key). Without a key the
#                                           packages install fine but cannot be offered as updates.
#   WARDEN_UPDATE_URL                       the update manifest (latest.json) this build checks
#   WARDEN_PACKAGE_CONFIG                   JSON merged over tauri.conf.json (the update test gives its
#                                           own public key this way)
#   WARDEN_PACKAGE_OUT                      where the packages go
#   WARDEN_SKIP_SETUP=1                     skip scripts/setup.sh (already run by the caller)
#
# AppImage is not built: its tools (linuxdeploy) download from outside the package registries.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

[ "${WARDEN_SKIP_SETUP:-}" = 1 ] || bash scripts/setup.sh
[ -f "$HOME/.cargo/env" ] && . "$HOME/.cargo/env"
log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/src-tauri/target}
OUT=${WARDEN_PACKAGE_OUT:-$TARGET_DIR/packages}
VERSION=$(cd src-tauri && cargo metadata --no-deps --format-version 1 --locked |
  python3 -c 'import json,sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "warden-desktop"))')

log "building the warden command line $VERSION (release)"
bash scripts/build_cli.sh

# What this build adds to tauri.conf.json: the command line (the small `warden` front in /usr/bin and
# the engine it hands commands to, where the front looks for it), the launcher of boxes with the
# network (`warden-box`, where the window and the engine look for it), and the update settings.
# The packages are signed below, once recompressed: not by the bundler.
CONFIG=$(
  CLI="$TARGET_DIR/release/warden" ENGINE="$TARGET_DIR/release/warden-engine" BOX="$TARGET_DIR/release/warden-box" \
    LICENCE="$ROOT/LICENSE" python3 - <<'EOF'
import json, os
files = {
    "/usr/bin/warden": os.environ["CLI"],
    "/usr/lib/warden/warden-engine": os.environ["ENGINE"],
    "/usr/lib/warden/warden-box": os.environ["BOX"],
    "/usr/share/doc/warden/copyright": os.environ["LICENCE"],
}
config = {
    "bundle": {
        "createUpdaterArtifacts": False,
        "linux": {"deb": {"files": files}, "rpm": {"files": files}},
    }
}
if os.environ.get("WARDEN_UPDATE_URL"):
    config["plugins"] = {"updater": {"endpoints": [os.environ["WARDEN_UPDATE_URL"]]}}

def merge(base, extra):
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            merge(base[key], value)
        else:
            base[key] = value

merge(config, json.loads(os.environ.get("WARDEN_PACKAGE_CONFIG") or "{}"))
print(json.dumps(config))
EOF
)
[ -n "${TAURI_SIGNING_PRIVATE_KEY:-}" ] || log "no TAURI_SIGNING_PRIVATE_KEY: the packages will not be signed for updates"

log "building the desktop app and its packages (release; the first build takes several minutes)"
BUNDLE_DIR="$TARGET_DIR/release/bundle"
rm -rf "$BUNDLE_DIR/deb" "$BUNDLE_DIR/rpm"
npx --no-install tauri build --ci --bundles deb,rpm --config "$CONFIG"

# Debian's and Fedora's file names, whatever the product name's case.
shopt -s nullglob
debs=("$BUNDLE_DIR"/deb/*_"$VERSION"_*.deb)
rpms=("$BUNDLE_DIR"/rpm/*-"$VERSION"-*.rpm)
((${#debs[@]} == 1 && ${#rpms[@]} == 1)) || { echo "package.sh: expected one .deb and one .rpm of $VERSION in $BUNDLE_DIR" >&2; exit 1; }
mkdir -p "$OUT"
DEB="$OUT/warden_${VERSION}_$(dpkg --print-architecture).deb"
RPM="$OUT/warden-${VERSION}-1.$(uname -m).rpm"
rm -f "$DEB" "$DEB.sig" "$RPM" "$RPM.sig"

# The bundler's .deb is gzip; Debian's own packages are xz, which halves this one.
log "recompressing the .deb with xz"
REPACK=$(mktemp -d)
trap 'rm -rf "$REPACK"' EXIT
dpkg-deb -R "${debs[0]}" "$REPACK/root"
dpkg-deb --root-owner-group -Zxz -z9 -b "$REPACK/root" "$DEB" >/dev/null
cp "${rpms[0]}" "$RPM"

# Signatures for the updater, bound to the version (the app requires that: requireSignedVersion).
if [ -n "${TAURI_SIGNING_PRIVATE_KEY:-}" ]; then
  log "signing the packages for the updater"
  if [ -f "$TAURI_SIGNING_PRIVATE_KEY" ]; then key=(-f "$TAURI_SIGNING_PRIVATE_KEY"); else key=(-k "$TAURI_SIGNING_PRIVATE_KEY"); fi
  for package in "$DEB" "$RPM"; do
    env -u TAURI_SIGNING_PRIVATE_KEY npx --no-install tauri signer sign "${key[@]}" \
      -p "${TAURI_SIGNING_PRIVATE_KEY_PASSWORD:-}" --app-version "$VERSION" "$package" >/dev/null
  done
fi
ls -l "$OUT" >&2
echo "$DEB"
echo "$RPM"

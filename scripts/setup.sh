#!/usr/bin/env bash
# Installs everything Warden needs on Debian 12, idempotently: system packages (only the missing
# ones), the npm dependencies, and tauri-driver for the end-to-end tests. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

APT_PACKAGES=(
  # build
  build-essential pkg-config curl file libssl-dev libdbus-1-dev
  libwebkit2gtk-4.1-dev libgtk-3-dev libayatana-appindicator3-dev librsvg2-dev libsoup-3.0-dev libxdo-dev
  # run and test: a window under Xvfb, WebDriver, the real keychain, screenshots
  xvfb xauth webkit2gtk-driver dbus dbus-x11 gnome-keyring libsecret-tools imagemagick xdotool
  # the system clipboard the image-paste test fills
  xclip
  # a real notification daemon for the approval notifications, and xprop to read a window's hints
  dunst x11-utils
  # the install test: packages rebuilt with xz, processes found by name
  xz-utils procps
  # the box every command runs in, and what its escape tests drive
  bubblewrap python3
  # the live tests' local model server: llama-cpp-python built from PyPI's source package
  # (tests/local-llm/prepare.sh; the C++ compiler comes with build-essential)
  cmake python3-venv
  # benchmarks
  ripgrep hyperfine time
)

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || missing+=("$pkg")
done
if ((${#missing[@]})); then
  log "installing ${#missing[@]} Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  log "Debian packages: all present"
fi

# The Rust toolchain comes from rustup (~/.cargo/bin); Debian's cargo is too old for Tauri 2.
[ -f "$HOME/.cargo/env" ] && . "$HOME/.cargo/env"
if ! command -v cargo >/dev/null; then
  echo "cargo not found: install Rust >= 1.85 with rustup (https://rustup.rs) and run this again" >&2
  exit 1
fi
if ! command -v npm >/dev/null; then
  echo "npm not found: install Node.js >= 20.19 and run this again" >&2
  exit 1
fi

# npm ci wipes node_modules: skip it when the installed tree was made from the lockfile. The app's
# own dependencies, then the real MCP servers the tests and bench/mcp run against (tests/mcp).
npm_ci() {
  local dir=$1
  [ -f "$dir/package-lock.json" ] || return 0
  if [ ! -f "$dir/node_modules/.package-lock.json" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    log "npm ci in $dir"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  else
    log "npm dependencies in $dir: up to date"
  fi
}
npm_ci .
npm_ci tests/mcp

# The fuzz targets (scripts/fuzz.sh, which scripts/test.sh runs) build with the nightly toolchain
# through cargo-fuzz.
if ! rustup toolchain list | grep -q '^nightly'; then
  log "installing the nightly Rust toolchain (the fuzz targets)"
  rustup toolchain install nightly --profile minimal
fi
if ! command -v cargo-fuzz >/dev/null; then
  log "installing cargo-fuzz"
  cargo install cargo-fuzz --locked
fi

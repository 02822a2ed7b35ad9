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
  # the remote tests: a real sshd each test starts on loopback with its own config (never the
  # system's service, which stays stopped and disabled, below), and runuser's user switch
  openssh-server openssh-client util-linux
)

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || missing+=("$pkg")
done
if ((${#missing[@]})); then
  log "installing ${#missing[@]} Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  # No package may start a system service while it installs (openssh-server would start sshd on
  # port 22): invoke-rc.d asks policy-rc.d, and 101 means "not now".
  policy=/usr/sbin/policy-rc.d own_policy=""
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null && $SUDO chmod 755 "$policy" && own_policy=1
  fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  if [ -n "$own_policy" ]; then $SUDO rm -f "$policy"; fi
else
  log "Debian packages: all present"
fi
# The system's sshd stays off where systemd runs: the tests start their own on loopback.
if [ -d /run/systemd/system ] && systemctl is-enabled ssh >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO systemctl disable --now ssh ssh.socket >/dev/null 2>&1 || true
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

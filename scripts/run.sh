#!/usr/bin/env bash
# Installs everything (scripts/setup.sh) and starts Warden, built as users get it (release): the
# desktop window when there is a display; otherwise `warden exec` in the terminal.
# (scripts/package.sh makes the .deb and .rpm to install instead.)
#
#   scripts/run.sh                      the app (or, headless, a first `warden exec` turn)
#   scripts/run.sh -- [EXEC OPTIONS] PROMPT   `warden exec` with these arguments
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

bash scripts/setup.sh
[ -f "$HOME/.cargo/env" ] && . "$HOME/.cargo/env"
log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

exec_cli() {
  log "building warden (the command line)"
  (cd src-tauri && cargo build --release --locked -q -p warden-cli -p warden-box)
  exec "${CARGO_TARGET_DIR:-$ROOT/src-tauri/target}/release/warden" exec "$@"
}

if [ "${1:-}" = "--" ]; then
  shift
  exec_cli "$@"
fi

if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  # What users run: the release build (the debug build is the end-to-end tests').
  log "building the web UI"
  npm run --silent build
  log "building the app, release (the first build takes several minutes)"
  (cd src-tauri && cargo build --release --locked -p warden-desktop --features custom-protocol &&
    cargo build --release --locked -q -p warden-box)
  log "starting Warden"
  exec "${CARGO_TARGET_DIR:-$ROOT/src-tauri/target}/release/warden-desktop"
fi

# No display: one turn of `warden exec` on its defaults, with the first provider that can answer.
log "no display: running warden exec instead of the window (pass your own with: scripts/run.sh -- [OPTIONS] PROMPT)"
PROMPT="Say hello, then list the files in this project and say in one sentence what it is."
if curl -fsS -m 2 http://localhost:11434/api/tags >/dev/null 2>&1; then
  exec_cli --provider ollama "$PROMPT"
elif [ -n "${OPENAI_API_KEY:-}" ] && [ -z "${ANTHROPIC_API_KEY:-}" ]; then
  exec_cli --provider openai "$PROMPT"
else
  # Anthropic is the default provider; without ANTHROPIC_API_KEY (or a key saved by the app)
  # warden says exactly which key to set.
  exec_cli "$PROMPT"
fi

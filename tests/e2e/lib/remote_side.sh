#!/usr/bin/env bash
# The other machine of the remote e2e spec, on this one: the user `warden-remote` (made when
# missing) with this build's warden, warden-engine and warden-box copied to its
# ~/.local/share/warden/bin, a project folder of its, and a real sshd on 127.0.0.1 (its own port,
# host key and configuration) that lets it in with a key of the test's. The ssh configuration is
# written where the app's WARDEN_SSH_COMMAND points ($RUN_DIR/remote/ssh_config, from run.sh), as
# host `warden-test`; its known_hosts ($RUN_DIR/remote/known_hosts) starts empty and ssh asks
# about a key it does not know (the window shows the question); the host key's SHA256 fingerprint
# is in $RUN_DIR/remote/fingerprint. A second user, `warden-fresh` (made anew each run, as host
# `warden-fresh`), has no Warden at all: the window offers to copy this one there.
#
#   remote_side.sh start BIN_DIR   → prints the project's path (warden-fresh's is $RUN_DIR/remote/fresh_project)
#   remote_side.sh stop
set -euo pipefail
USER_NAME=warden-remote
D="$RUN_DIR/remote"

if [ "$1" = stop ]; then
  if [ -f "$D/public" ]; then
    P=$(cat "$D/public")
    [ -f "$P/sshd.pid" ] && kill "$(cat "$P/sshd.pid")" 2>/dev/null || true
    rm -rf "$P"
  fi
  exit 0
fi

BIN_DIR=$2
id "$USER_NAME" >/dev/null 2>&1 || useradd --create-home --shell /bin/sh "$USER_NAME"
usermod -p '*' "$USER_NAME"
HOME_DIR=$(getent passwd "$USER_NAME" | cut -d: -f6)
BIN="$HOME_DIR/.local/share/warden/bin"
install -d -o "$USER_NAME" -g "$USER_NAME" "$HOME_DIR/.local" "$HOME_DIR/.local/share" "$HOME_DIR/.local/share/warden" "$BIN"
for name in warden warden-engine warden-box; do
  install -o "$USER_NAME" -g "$USER_NAME" -m 755 "$BIN_DIR/$name" "$BIN/.$name.new"
  mv -f "$BIN/.$name.new" "$BIN/$name"
done
PROJECT="$HOME_DIR/e2e-project-$$"
# The projects of earlier runs (the restart spec uses the one window_remote left minutes ago).
find "$HOME_DIR" -maxdepth 1 -name 'e2e-project-*' -mmin +120 -exec rm -rf {} + 2>/dev/null || true
FRESH=warden-fresh
userdel --remove --force "$FRESH" >/dev/null 2>&1 || true
useradd --create-home --shell /bin/sh "$FRESH"
usermod -p '*' "$FRESH"
FRESH_PROJECT="$(getent passwd "$FRESH" | cut -d: -f6)/project"
install -d -o "$FRESH" -g "$FRESH" "$FRESH_PROJECT"
install -d -o "$USER_NAME" -g "$USER_NAME" "$PROJECT"
# A package cache of that home: the box there gives the project a layer over it (cleared from the window).
install -d -o "$USER_NAME" -g "$USER_NAME" "$HOME_DIR/.npm"
rm -f "$HOME_DIR/.npm/e2e-from-the-box"
echo "a project on the other machine" >"$PROJECT/README.md"
echo "Run the checks there before you finish." >"$PROJECT/AGENTS.md"
chown "$USER_NAME:$USER_NAME" "$PROJECT/README.md" "$PROJECT/AGENTS.md"
# Hooks of the project's own: offered in the window, run there once approved.
install -d -o "$USER_NAME" -g "$USER_NAME" "$PROJECT/.claude"
cat >"$PROJECT/.claude/settings.json" <<'JSON'
{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "id -u > \"$CLAUDE_PROJECT_DIR/hooked\""}]}]}}
JSON
chown "$USER_NAME:$USER_NAME" "$PROJECT/.claude/settings.json"

# sshd reads the authorized keys as the user, who cannot enter $RUN_DIR (mode 0700): the server's
# files go in a folder others may enter; only the client's configuration stays in $D.
mkdir -p "$D" /run/sshd
echo "$FRESH_PROJECT" >"$D/fresh_project"
P=$(mktemp -d /tmp/warden-e2e-remote.XXXXXX)
chmod 755 "$P"
echo "$P" >"$D/public"
ssh-keygen -q -t ed25519 -N "" -f "$P/host_key"
# Started again in the same run (window_remote_restart): new keys, not a question about the old.
rm -f "$D/client_key" "$D/client_key.pub"
ssh-keygen -q -t ed25519 -N "" -f "$D/client_key"
cp "$D/client_key.pub" "$P/authorized_keys"
chmod 644 "$P/authorized_keys"
# Its engine's runtime folder, leaving 5 s after its last link.
RUN="$P/run"
install -d -m 700 -o "$USER_NAME" -g "$USER_NAME" "$RUN"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat >"$P/sshd_config" <<CONF
Port $PORT
ListenAddress 127.0.0.1
HostKey $P/host_key
AuthorizedKeysFile $P/authorized_keys
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin no
AllowUsers $USER_NAME $FRESH
PidFile $P/sshd.pid
SetEnv XDG_RUNTIME_DIR=$RUN WARDEN_ENGINE_IDLE_SECS=5
CONF
/usr/sbin/sshd -e -f "$P/sshd_config" 2>"$D/sshd.log"
for _ in $(seq 100); do (echo >/dev/tcp/127.0.0.1/"$PORT") 2>/dev/null && break; sleep 0.05; done
: >"$D/known_hosts"
ssh-keygen -l -E sha256 -f "$P/host_key.pub" | cut -d' ' -f2 >"$D/fingerprint"
# One host per user, the same sshd; the rest is said once for both.
cat >"$D/ssh_config" <<CONF
Host warden-test
  User $USER_NAME
Host warden-fresh
  User $FRESH
Host warden-test warden-fresh
  HostName 127.0.0.1
  Port $PORT
  IdentityFile $D/client_key
  IdentitiesOnly yes
  UserKnownHostsFile $D/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking ask
  HashKnownHosts no
CONF
echo "$PROJECT"

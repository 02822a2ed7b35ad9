# Helpers for session.sh: window timing and PSS of a process tree.

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# Median of the numeric arguments; NaN (a launch whose window never showed) is left out.
median() { printf '%s\n' "$@" | grep -v NaN | sort -n | awk '{a[NR]=$1} END {print (NR ? a[int((NR+1)/2)] : "NaN")}'; }

# Every descendant of $1 (WebKit's web and network processes), then $1.
tree_pids() {
  local pid=$1 child
  for child in $(ps -o pid= --ppid "$pid" 2>/dev/null); do tree_pids "$child"; done
  echo "$pid"
}

# PSS of a process and all its descendants, KiB.
tree_pss_kib() {
  local total=0 p v
  for p in $(tree_pids "$1"); do
    v=$(awk '/^Pss:/{print $2}' "/proc/$p/smaps_rollup" 2>/dev/null || echo 0)
    total=$(( total + ${v:-0} ))
  done
  echo "$total"
}

# Stops a process and its descendants (TERM to all at once) and waits until all are gone, up to
# 5 s: a GTK app still on the session bus makes the next launch of the same app id hand over to
# it and exit without a window.
stop_tree() {
  local pids p
  pids=$(tree_pids "$1")
  kill -TERM $pids 2>/dev/null || true
  for _ in $(seq 100); do
    local alive=0
    for p in $pids; do running "$p" && alive=1; done
    (( alive )) || return 0
    sleep 0.05
  done
  kill -KILL $pids 2>/dev/null || true
}

# Whether process $1 is running (not gone, not a zombie).
running() { [[ -d /proc/$1 ]] && [[ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != Z ]]; }

# Launches $1 and prints the ms until a visible window titled $2 is mapped; then stops it.
# Polled every 20 ms: each xdotool call is a new X connection, and at 5 ms the churn made about
# one launch in five fail to open the display. A launch that dies before showing a window (GTK
# could not open the display: the harness, not the app) is logged and tried again, up to 3 times.
launch_to_window() {
  local bin=$1 title=$2 start pid elapsed="" attempt
  for attempt in 1 2 3; do
    start=$(now_ms)
    "$bin" >>"$RUN_DIR/launch.log" 2>&1 &
    pid=$!
    for _ in $(seq 1000); do
      if xdotool search --onlyvisible --name "^${title}\$" >/dev/null 2>&1; then elapsed=$(( $(now_ms) - start )); break; fi
      running "$pid" || break
      sleep 0.02
    done
    stop_tree "$pid"
    wait "$pid" 2>/dev/null || true
    sleep 0.3
    [[ -n "$elapsed" ]] && break
    echo "bench: $title exited before showing a window (attempt $attempt), see launch.log" >&2
  done
  echo "${elapsed:-NaN}"
}

# Launches $1, waits for its window and 5 s of idle, prints the PSS (KiB) of its process tree.
idle_pss() {
  local bin=$1 title=$2 pid pss
  "$bin" >>"$RUN_DIR/launch.log" 2>&1 &
  pid=$!
  for _ in $(seq 1000); do xdotool search --onlyvisible --name "^${title}\$" >/dev/null 2>&1 && break; sleep 0.02; done
  sleep 5
  pss=$(tree_pss_kib "$pid")
  [[ -d /proc/$pid ]] || pss=NaN
  stop_tree "$pid"
  wait "$pid" 2>/dev/null || true
  sleep 0.3
  echo "$pss"
}

# Helpers for session.sh: window timing and PSS of a process tree.

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

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

# Stops a process and its descendants (by pid, children first is not needed: TERM to all at once).
stop_tree() {
  kill -TERM $(tree_pids "$1") 2>/dev/null || true
}

# Launches $1 and prints the ms until a visible window titled $2 is mapped; then stops it.
launch_to_window() {
  local bin=$1 title=$2 start pid elapsed=""
  start=$(now_ms)
  "$bin" >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 3000); do
    if xdotool search --onlyvisible --name "^${title}\$" >/dev/null 2>&1; then elapsed=$(( $(now_ms) - start )); break; fi
    sleep 0.005
  done
  stop_tree "$pid"
  wait "$pid" 2>/dev/null || true
  sleep 0.3
  echo "${elapsed:-NaN}"
}

# Launches $1, waits for its window and 5 s of idle, prints the PSS (KiB) of its process tree.
idle_pss() {
  local bin=$1 title=$2 pid pss
  "$bin" >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 3000); do xdotool search --onlyvisible --name "^${title}\$" >/dev/null 2>&1 && break; sleep 0.01; done
  sleep 5
  pss=$(tree_pss_kib "$pid")
  [[ -d /proc/$pid ]] || pss=NaN
  stop_tree "$pid"
  wait "$pid" 2>/dev/null || true
  sleep 0.3
  echo "$pss"
}

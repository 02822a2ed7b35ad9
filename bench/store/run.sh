#!/usr/bin/env bash
# The conversation store (SQLite, WAL, FTS5) against the JSON files of earlier builds, on the same
# seeded corpus in the same run: CONVERSATIONS conversations, MESSAGES messages in all (one
# conversation of exactly 5,000, the rest ~100 each; user text, assistant text with tool calls,
# tool results, from a Zipf vocabulary), written through the store's own write path (put_message,
# one call per message) and as `conversations/<id>.json` files in the old format.
#
#   bench/store/run.sh [CONVERSATIONS] [MESSAGES]     (defaults 10000 1000000)
#
# Times (p50 and p95, warm page cache): the list's first page (50), a search (50 hits) for a rare
# word (in one message) and for two common words (each in a third to a half of the messages; one
# in titles too), opening the 5,000-message conversation and appending a message to it. The JSON side
# does what the old code did: the list stats every file and reads the page's; opening reads and
# parses the file; an append reads and parses it, then rewrites it whole atomically (fsync and
# rename). The old code had no search: its reference reads and parses every file.
# Goals (store p95): list and search <= 50 ms, open <= 200 ms, append <= 1 ms.
# Repetitions: REPS (store, 200), JSON_REPS (JSON list/open/append, 50), JSON_SEARCH_REPS (5).
#
# The corpus (about 2 GB at the full size) goes to a temporary folder under /tmp, deleted at the
# end; the figures to bench/out/store.json (gitignored). The full size takes a while: most of it is
# the million put_message calls.
set -euo pipefail

CONVERSATIONS=${1:-10000}
MESSAGES=${2:-1000000}
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="$repo/bench/out"
target_dir=${CARGO_TARGET_DIR:-$repo/src-tauri/target}
mkdir -p "$out"

echo "== building the benchmark (release)"
(cd "$repo/src-tauri" && cargo build --release -q -p warden-core --example store_bench)

work=$(mktemp -d "${TMPDIR:-/tmp}/warden-store-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "== corpus in $work ($(df -h --output=avail "$work" | tail -1 | tr -d ' ') free)"
SUMMARY="$out/store.json" "$target_dir/release/examples/store_bench" "$work/corpus" "$CONVERSATIONS" "$MESSAGES"
echo "== figures written to bench/out/store.json"

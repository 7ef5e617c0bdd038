#!/usr/bin/env bash
# setup-onnxruntime.sh - installs ONNX Runtime's CPU library for Node.js (onnxruntime-node from
# the npm registry) where bench/model_bench finds it, for its ONNX Runtime column. Benchmarks
# only: the build and the tests never use it.
#
#   bench/setup-onnxruntime.sh [DIR]   (default ~/.cache/tunefarm/onnxruntime-node;
#                                       model_bench reads TUNEFARM_ORT_DIR, the same default)
#
# --ignore-scripts: the package's install script downloads GPU binaries, which fails here; the
# CPU library ships in the package itself.
set -euo pipefail
dir="${1:-${TUNEFARM_ORT_DIR:-$HOME/.cache/tunefarm/onnxruntime-node}}"
mkdir -p "$dir"
cd "$dir"
[[ -f package.json ]] || echo '{"private": true}' > package.json
npm install --ignore-scripts --no-audit --no-fund onnxruntime-node >/dev/null
node -e "require('onnxruntime-node'); console.log('onnxruntime-node ' + require('onnxruntime-node/package.json').version + ' in $dir')"

#!/usr/bin/env bash
# demo.sh - sets up a fresh Debian 12 machine and runs the main job.
#
# Installs the Debian packages, builds `tunefarm` into build/, then runs the main job: a farm on
# this machine (`tunefarm demo`: a tracker with its SQLite database and two workers) tunes a matmul
# and a conv2d, prints the best configs against the untuned defaults, and leaves build/demo.db,
# which `tunefarm best` then queries; the matmul's best and default are then built and re-timed in
# turns with `tunefarm time --compare`. Finally the compiler on its own: lower, run and time the
# tiled matmul example. Environment: JOBS (default 2); CCACHE_DIR (default ~/.cache/ccache).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

JOBS="${JOBS:-2}"
export CCACHE_DIR="${CCACHE_DIR:-${HOME:-/tmp}/.cache/ccache}"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
mkdir -p "$CCACHE_DIR"

step() { printf '\n==> %s\n' "$*"; }
run() { printf '\n$ %s\n' "$*"; "$@"; }

step "installing dependencies (scripts/install-deps.sh)"
bash scripts/install-deps.sh

# The same configuration as scripts/test.sh: the demo's objects are the tests' (one build/, one
# set of ccache entries), so running one after the other compiles nothing twice.
step "configuring build/ (Ninja, TUNEFARM_WERROR=ON, as scripts/test.sh)"
cmake -S . -B build -G Ninja -DTUNEFARM_WERROR=ON

step "building tunefarm (-j$JOBS)"
cmake --build build --target tunefarm tunefarm-measure tunefarm-rpc-server --parallel "$JOBS"

step "main job: a farm on this machine tunes a matmul and a conv2d (tunefarm demo)"
rm -f build/demo.db build/demo.db-wal build/demo.db-shm
run ./build/tunefarm demo --db build/demo.db
run ./build/tunefarm best --db build/demo.db --workload matmul:512,512,512

step "re-time the demo's matmul as a user would: its best and its default built, timed in turns"
key=$(./build/tunefarm best --db build/demo.db --workload matmul:512,512,512 --json |
  sed -n 's/.*"device_key":"\([^"]*\)".*/\1/p' | head -1)
run ./build/tunefarm build --workload matmul:512,512,512 --db build/demo.db --device-key "$key" \
  -o build/demo-best.so
run ./build/tunefarm build --workload matmul:512,512,512 -o build/demo-default.so
run ./build/tunefarm time build/demo-default.so --compare build/demo-best.so --threads 1

step "the compiler on its own: lower, run and time examples/matmul_tiled.te"
run ./build/tunefarm lower examples/matmul_tiled.te
run ./build/tunefarm run examples/matmul_tiled.te --bind n=67 --target interp
run ./build/tunefarm run examples/matmul_tiled.te --bind n=256 --target llvm --time

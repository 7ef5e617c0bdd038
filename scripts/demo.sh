#!/usr/bin/env bash
# demo.sh - sets up a fresh Debian 12 machine and runs the main job.
#
# Installs the Debian packages, builds the `tunefarm` binary into build/, then lowers and runs the
# tiled matmul example on the reference interpreter and through LLVM (timed), then tunes a matmul
# into build/demo.db and builds its best config. (The service demo replaces this job once the
# tracker exists.) Environment: JOBS (default 2); CCACHE_DIR (default ~/.cache/ccache).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

JOBS="${JOBS:-2}"
export CCACHE_DIR="${CCACHE_DIR:-${HOME:-/tmp}/.cache/ccache}"
mkdir -p "$CCACHE_DIR"

step() { printf '\n==> %s\n' "$*"; }
run() { printf '\n$ %s\n' "$*"; "$@"; }

step "installing dependencies (scripts/install-deps.sh)"
bash scripts/install-deps.sh

step "configuring build/ (Ninja)"
cmake -S . -B build -G Ninja

step "building tunefarm (-j$JOBS)"
cmake --build build --target tunefarm tunefarm-measure --parallel "$JOBS"

step "main job: lower, run and time examples/matmul_tiled.te"
run ./build/tunefarm lower examples/matmul_tiled.te
run ./build/tunefarm run examples/matmul_tiled.te --bind n=67 --target interp
run ./build/tunefarm run examples/matmul_tiled.te --bind n=256 --target llvm --time

step "main job, part 2: tune a 256^3 matmul (64 trials, model-based), then use the best config"
rm -f build/demo.db build/demo.db-wal build/demo.db-shm
run ./build/tunefarm tune --workload matmul:256,256,256 --target llvm --trials 64 --db build/demo.db
run ./build/tunefarm best --db build/demo.db --workload matmul:256,256,256
run ./build/tunefarm build --workload matmul:256,256,256 --db build/demo.db -o build/demo_matmul.so

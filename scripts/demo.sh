#!/usr/bin/env bash
# demo.sh - sets up a fresh Debian 12 machine and runs the main job.
#
# Installs the Debian packages, builds the `tunefarm` binary into build/, then lowers and runs the
# tiled matmul example on the reference interpreter and through LLVM (timed). (The service demo
# replaces this job once the tracker exists.) Environment: JOBS (default 2); CCACHE_DIR (default ~/.cache/ccache).
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
cmake --build build --target tunefarm --parallel "$JOBS"

step "main job: lower, run and time examples/matmul_tiled.te"
run ./build/tunefarm lower examples/matmul_tiled.te
run ./build/tunefarm run examples/matmul_tiled.te --bind n=67 --target interp
run ./build/tunefarm run examples/matmul_tiled.te --bind n=256 --target llvm --time

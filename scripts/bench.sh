#!/usr/bin/env bash
# bench.sh - builds the benchmarks in build-bench/ (Release) and prints every table in one run:
# operators against OpenBLAS/oneDNN at 1 and 2 threads, compile time, lowering time, runtime size.
# Environment: JOBS (default 2); BENCH_QUICK=1 for fewer shapes (a smoke run, not for numbers).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

JOBS="${JOBS:-2}"
bash scripts/install-deps.sh >/dev/null
cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DTUNEFARM_BUILD_TESTS=OFF >/dev/null
cmake --build build-bench --parallel "$JOBS" --target operator_bench compile_time_bench \
  lower_bench runtime_size

for b in operator_bench compile_time_bench lower_bench runtime_size; do
  printf '\n==> %s\n' "$b"
  "./build-bench/$b"
done

#!/usr/bin/env bash
# bench.sh - builds the benchmarks in build-bench/ (Release) and prints every table in one run:
# operators against OpenBLAS/oneDNN at 1 and 2 threads, int8 dense and conv2d against our fp32 and
# oneDNN's int8, compile time, lowering time, runtime size,
# then the tuner: candidates measured per second, tuned kernels against OpenBLAS/oneDNN (tens of
# minutes; BENCH_TRIALS sets trials per workload) and search efficiency (model vs random).
# Environment: JOBS (default 2); BENCH_QUICK=1 for fewer shapes (a smoke run, not for numbers).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

JOBS="${JOBS:-2}"
bash scripts/install-deps.sh >/dev/null
cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DTUNEFARM_BUILD_TESTS=OFF >/dev/null
BENCHES=(operator_bench int8_bench compile_time_bench lower_bench runtime_size
  measure_throughput_bench tune_bench search_efficiency_bench farm_scaling_bench
  tracker_capacity_bench)
cmake --build build-bench --parallel "$JOBS" --target "${BENCHES[@]}" tunefarm-measure tf_python

for b in "${BENCHES[@]}"; do
  printf '\n==> %s\n' "$b"
  "./build-bench/$b"
done

# What Python adds to a model run (ctypes and the copies), against the CLI in the same run.
printf '\n==> python_overhead_bench\n'
PYTHONPATH=build-bench/python /usr/bin/python3 bench/python_overhead_bench.py

#!/usr/bin/env bash
# gpu_session.sh - everything tunefarm checks and measures on a GPU machine, in one go (the
# `device` tool's machines have a driver, CUDA 13 and PyTorch but none of our packages):
#   1. the GPU tests of the bundle (runtime_gpu_tests, the CUDA measure tests);
#   2. every GPU example under `tunefarm run --target cuda`, checked against the reference;
#   3. a tuning run of the tutorial conv2d (3x3, 256 channels, 14x14, batch 256) and of a matmul
#      on this GPU, each against cuDNN / cuBLAS timed in the same run;
#   4. a farm on loopback: a tracker and a `tunefarm worker` with this GPU, one cuda job.
# Usage: bench/gpu/gpu_session.sh BUNDLE_DIR [OUT_DIR]   (scripts/gpu-bundle.sh fills it)
# Environment: STEPS (default "tests examples tune farm"), TUNE_OPS ("conv2d matmul"),
# CONV_TRIALS (200), MM_TRIALS (100).
set -uo pipefail
bundle=${1:?the folder scripts/gpu-bundle.sh wrote}
out=${2:-${OUT:-/tmp/tunefarm-gpu-out}}
steps=${STEPS:-tests examples tune farm}
mkdir -p "$out"
work=$(mktemp -d)
for t in "$bundle/tunefarm-gpu-libs.tar.xz" "$bundle/tunefarm-gpu.tar.xz"; do
  # Python's tarfile where the machine has no xz.
  tar -C "$work" -xJf "$t" 2>/dev/null ||
    python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$t" "$work" ||
    { echo "cannot unpack $t" >&2; exit 1; }
done
tf="$work/tunefarm-gpu/bin/tunefarm"
bin="$work/tunefarm-gpu/bin"
examples="$work/tunefarm-gpu/examples"
vendor="$work/tunefarm-gpu/bench/gpu/vendor_reference.py"
section() { printf '\n=== %s\n' "$*"; }
status=0

section "machine"
nvidia-smi -L; echo "glibc $(getconf GNU_LIBC_VERSION); bundle needs $(cat "$work/tunefarm-gpu/GLIBC_NEEDED")"
ls /usr/local/cuda/lib64/libnvrtc.so* 2>/dev/null | head -2

if [[ " $steps " == *" tests "* ]]; then
  section "GPU tests"
  "$bin/runtime_gpu_tests" --gtest_brief=1 || status=1
  "$bin/tuner_measure_tests" --gtest_filter='CudaMeasure*' --gtest_brief=1 || status=1
fi

if [[ " $steps " == *" examples "* ]]; then
  section "GPU examples (tunefarm run --target cuda, checked against the reference)"
  for f in "$examples"/*.te; do
    if ! grep -q 'blockIdx\|threadIdx' "$f"; then continue; fi
    # Symbolic sizes (te.var("n")) get an odd value, so tails are exercised.
    binds=$(grep -o 'var("[a-z_]*")' "$f" | sed 's/var("\(.*\)")/\1=100003/' | paste -sd, -)
    echo "--- $(basename "$f") ${binds:+--bind $binds}"
    "$tf" run "$f" --target cuda --time ${binds:+--bind "$binds"} || status=1
  done
fi

# tune KEY TRIALS OP SHAPE: our best against the vendor library on the same shape.
tune() {
  local key=$1 trials=$2 op=$3 shape=$4
  local log="$out/tune-${op}.log"
  section "tune $key on cuda ($trials trials, xgb) against the vendor library"
  local start=$SECONDS
  "$tf" tune --workload "$key" --target cuda --trials "$trials" --tuner xgb --no-progress \
    --db "$out/gpu.db" --run-timeout 30 2>&1 | tee "$log" || status=1
  echo "tuning took $((SECONDS - start)) s"
  python3 "$vendor" "$op" "$shape" --tf32 2>&1 | tee -a "$log" || status=1
  local ours vend
  ours=$(sed -n 's/^best .* median_ms=\([0-9.]*\) .*/\1/p' "$log" | tail -1)
  vend=$(sed -n 's/^vendor=.* mode=fp32 median_ms=\([0-9.]*\) .*/\1/p' "$log" | tail -1)
  if [[ -n "$ours" && -n "$vend" ]]; then
    awk -v o="$ours" -v v="$vend" -v k="$key" \
      'BEGIN { printf "RESULT %s: tunefarm %.4f ms, vendor fp32 %.4f ms, vendor/ours %.3f\n", k, o, v, v / o }' |
      tee -a "$out/summary.txt"
  fi
}

if [[ " $steps " == *" tune "* ]]; then
  for op in ${TUNE_OPS:-conv2d matmul}; do
    case $op in
      conv2d) tune conv2d:256,256,14,14,256,3,3,1,1 "${CONV_TRIALS:-200}" conv2d 256,256,14,14,256,3,3,1,1 ;;
      matmul) tune matmul:2048,2048,2048 "${MM_TRIALS:-100}" matmul 2048,2048,2048 ;;
    esac
  done
fi

if [[ " $steps " == *" farm "* ]]; then
  section "farm on loopback: tracker + one GPU worker, a cuda job"
  port=$((20000 + RANDOM % 20000))
  "$tf" tracker --listen "127.0.0.1:$port" --db "$out/farm.db" >"$out/tracker.log" 2>&1 &
  tracker=$!
  sleep 1
  "$tf" worker --tracker "127.0.0.1:$port" --key h100 --target cuda >"$out/worker.log" 2>&1 &
  worker=$!
  sleep 1
  timeout 300 "$tf" tune --tracker "127.0.0.1:$port" --key h100 --target cuda \
    --workload depthwise_conv2d:64,128,56,56,3,3,1,1 --trials 32 --no-progress || status=1
  "$tf" workers --tracker "127.0.0.1:$port" || true
  kill "$worker" "$tracker" 2>/dev/null
  wait 2>/dev/null
  tail -5 "$out/worker.log"
fi
section "summary"
cat "$out/summary.txt" 2>/dev/null
exit $status

#!/usr/bin/env bash
# sanitize.sh - the tests under sanitizers, each in its own build folder (ccache shared with
# build/).
#
#   scripts/sanitize.sh address   build-asan/: AddressSanitizer + UndefinedBehaviorSanitizer, the
#                                 whole ctest suite (fuzz corpus replays included)
#   scripts/sanitize.sh thread    build-tsan/: ThreadSanitizer, the concurrent parts: tracker,
#                                 rpc_server, the runtime (thread pool, measure child), the farm's
#                                 integration tests, the demo and the tuning commands (tools_tests
#                                 without its one-thread model commands: TSAN_SKIP_SUITES)
#
# Every report halts its test (halt_on_error); suppressions name third-party frames only, each
# with its reason, in scripts/sanitizers/. CI (scripts/test.sh) runs both. Debian's gRPC and absl
# are not instrumented, so tsan.supp names their frames (and what that leaves unchecked).
# Environment: JOBS (default 2), CCACHE_DIR.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

kind="${1:-}"
JOBS="${JOBS:-2}"
export CCACHE_DIR="${CCACHE_DIR:-${HOME:-/tmp}/.cache/ccache}"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
supp="$PWD/scripts/sanitizers"

# The binaries whose tests the TSan build runs (ctest labels are the binary names).
TSAN_TESTS=(runtime_tests tuner_measure_tests tracker_tests tracker_service_tests rpc_server_tests
  tools_tests farm_tests)
# tools_tests' suites that start no thread of ours: one command building, running or printing a
# model or kernel on this thread. The runtime's thread pool they run kernels on is runtime_tests'
# subject (and generated code is not instrumented). The demo, the tuning commands, the algorithm
# race and CancelOnStop stay, as does any suite not named here.
TSAN_SKIP_SUITES=(ModelCommandsTest ModelConvTransposeTest ModelEinsumTest ModelGatherNdTest
  ModelInfoCommandTest ModelIntegerOpsTest ModelLossTest ModelPassesCommandTest
  ModelQuantizeCommandTest ModelRecordsTest LayoutPlanTest LowerCommandTest BuildCommandTest
  BestCommandTest RecordsCommandTest RunCommandTest CudaCommandsTest ScriptFileTest)

case "$kind" in
  address)
    dir=build-asan
    san="address,undefined"
    targets=(all)
    labels=""
    skip=""
    export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=0"
    export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
    export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$supp/ubsan.supp"
    ;;
  thread)
    dir=build-tsan
    san="thread"
    targets=("${TSAN_TESTS[@]}" tunefarm tunefarm-measure tunefarm-rpc-server)
    labels="$(IFS='|'; echo "^(${TSAN_TESTS[*]})\$")"
    skip="$(IFS='|'; echo "(^|/)(${TSAN_SKIP_SUITES[*]})\\.")"
    # die_after_fork=0: the thread pool's own test forks a process that has threads, which TSan
    # otherwise refuses outright.
    export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:die_after_fork=0:suppressions=$supp/tsan.supp"
    ;;
  *)
    echo "usage: scripts/sanitize.sh address|thread" >&2
    exit 2
    ;;
esac

printf '\n==> configuring %s (-fsanitize=%s)\n' "$dir" "$san"
# -O1: a sanitized build runs its checks on every access; full optimization only slows the build.
cmake -S . -B "$dir" -G Ninja -DTUNEFARM_WERROR=ON -DTUNEFARM_SANITIZE="$san" \
  -DTUNEFARM_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" >/dev/null

printf '\n==> building %s (-j%s): %s\n' "$dir" "$JOBS" "${targets[*]}"
started=$SECONDS
cmake --build "$dir" --parallel "$JOBS" --target "${targets[@]}"
printf '==> [phase] building %s took %d s\n' "$dir" $((SECONDS - started))

printf '\n==> running the tests of %s\n' "$dir"
started=$SECONDS
trap 'printf "==> [phase] the tests of %s took %d s\n" "$dir" $((SECONDS - started))' EXIT
args=(--test-dir "$dir" --output-on-failure --no-tests=error -j"$JOBS")
[[ -n "$labels" ]] && args+=(-L "$labels")
[[ -n "$skip" ]] && args+=(-E "$skip")
ctest "${args[@]}"

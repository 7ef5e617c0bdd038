#!/usr/bin/env bash
# test.sh - the one command that sets up and runs all tests (what CI runs through .ci/run).
#
# Installs the Debian packages (scripts/install-deps.sh), configures build/ with CMake + Ninja and
# -DTUNEFARM_WERROR=ON (ccache is used when present), builds, runs scripts/size_report and
# scripts/format-check, then runs ctest; ctest's closing summary line is printed as usual. Then the
# whole suite again under ASan+UBSan in build-asan/ (scripts/sanitize.sh address), and the
# concurrent parts (tracker, rpc_server, runtime, measure, the farm and the demo) under
# ThreadSanitizer in build-tsan/ (scripts/sanitize.sh thread). Exits non-zero on any failure.
#
# Environment: JOBS (default 2) build and test parallelism; CCACHE_DIR (default ~/.cache/ccache);
# SANITIZERS=0 skips the sanitizer build (a quick local run; CI runs it); KEEP_BUILDS=1 keeps
# build-asan/ and build-tsan/ after their tests (by default each is removed once its tests ran).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

JOBS="${JOBS:-2}"
export CCACHE_DIR="${CCACHE_DIR:-${HOME:-/tmp}/.cache/ccache}"
# Paths relative to the checkout, so a fresh clone elsewhere (as CI makes) still hits the cache.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
mkdir -p "$CCACHE_DIR"

# Each step is a phase whose time is printed when the next begins ("==> [phase] NAME took S s",
# what scripts/build-report --phases reads) and again in a table at the end.
phase_name=""
phase_start=$SECONDS
phase_lines=()
end_phase() {
  if [[ -n "$phase_name" ]]; then
    local took=$((SECONDS - phase_start))
    printf '==> [phase] %s took %d s\n' "$phase_name" "$took"
    phase_lines+=("$(printf '%6d s  %s' "$took" "$phase_name")")
    phase_name=""
  fi
}
step() {
  end_phase
  phase_name="$*"
  phase_start=$SECONDS
  printf '\n==> %s\n' "$*"
}

# A sanitizer build folder is a few GB that nothing after its tests reads: removed once they ran
# (its objects stay in ccache), so that the disk holds one sanitizer build at a time.
# KEEP_BUILDS=1 keeps them.
prune_build() {
  if [[ "${KEEP_BUILDS:-0}" != "1" ]]; then
    rm -rf "$1"
    df -h . | tail -1
  fi
}

# The three build folders and the ccache need several GB; say what there is, so that a run that
# fails for want of disk says so up front.
step "disk space here"
df -h . "$CCACHE_DIR" || true

step "installing dependencies (scripts/install-deps.sh)"
bash scripts/install-deps.sh

step "configuring build/ (Ninja, TUNEFARM_WERROR=ON, CCACHE_DIR=$CCACHE_DIR)"
cmake -S . -B build -G Ninja -DTUNEFARM_WERROR=ON

step "building (-j$JOBS)"
cmake --build build --parallel "$JOBS"

# Size limits first but without stopping, so the test results below are still shown.
step "checking file sizes (scripts/size_report)"
size_status=0
bash scripts/size_report || size_status=$?

step "checking formatting (scripts/format-check)"
format_status=0
bash scripts/format-check || format_status=$?

step "running tests (ctest -j$JOBS)"
test_status=0
ctest --test-dir build --output-on-failure --no-tests=error -j"$JOBS" || test_status=$?

sanitize_status=0
if [[ "${SANITIZERS:-1}" != "0" ]]; then
  step "the suite under AddressSanitizer + UndefinedBehaviorSanitizer (scripts/sanitize.sh address)"
  bash scripts/sanitize.sh address || sanitize_status=$?
  prune_build build-asan
  step "the concurrent parts under ThreadSanitizer (scripts/sanitize.sh thread)"
  bash scripts/sanitize.sh thread || sanitize_status=$?
  prune_build build-tsan
fi

end_phase
printf '\n==> phases\n'
printf '%s\n' "${phase_lines[@]}"
printf '%6d s  in all\n' "$SECONDS"

if ((size_status != 0)); then
  echo "test.sh: FAILED: scripts/size_report (a file is over the limit; see above)" >&2
fi
if ((format_status != 0)); then
  echo "test.sh: FAILED: scripts/format-check (run clang-format-14 -i on the files above)" >&2
fi
if ((test_status != 0)); then
  echo "test.sh: FAILED: ctest exited with $test_status" >&2
fi
if ((sanitize_status != 0)); then
  echo "test.sh: FAILED: a sanitizer build or its tests (scripts/sanitize.sh; see above)" >&2
fi
if ((size_status != 0 || format_status != 0 || test_status != 0 || sanitize_status != 0)); then
  exit 1
fi
echo "test.sh: all passed"

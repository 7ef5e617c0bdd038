#!/usr/bin/env bash
# fuzz.sh - builds the libFuzzer harnesses of tests/fuzz with clang (+ASan/UBSan) in build-fuzz/
# and fuzzes each for SECONDS, starting from its seed corpus in tests/fuzz/corpus/NAME (new
# inputs go to build-fuzz/corpus/NAME, not into the repository). A crash stops the run with the
# input in build-fuzz/crashes/; copy it into the seed corpus and it replays in CI from then on.
#
#   scripts/fuzz.sh SECONDS [NAME...]    (default: every harness)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

seconds="${1:-}"
if [[ ! "$seconds" =~ ^[0-9]+$ ]]; then
  echo "usage: scripts/fuzz.sh SECONDS [NAME...]" >&2
  exit 2
fi
shift
names=("$@")
if ((${#names[@]} == 0)); then
  for f in tests/fuzz/*_fuzz.cc; do
    n="$(basename "$f" _fuzz.cc)"
    names+=("$n")
  done
fi
CLANG="${CLANG:-clang-14}"
export CCACHE_DIR="${CCACHE_DIR:-${HOME:-/tmp}/.cache/ccache}"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"

cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER="${CLANG/clang/clang++}" \
  -DTUNEFARM_FUZZ=ON -DTUNEFARM_SANITIZE=address,undefined -DTUNEFARM_BUILD_TESTS=OFF \
  -DTUNEFARM_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" >/dev/null
targets=()
for n in "${names[@]}"; do targets+=("${n}_fuzz"); done
cmake --build build-fuzz --parallel "${JOBS:-2}" --target "${targets[@]}"

mkdir -p build-fuzz/crashes
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
for n in "${names[@]}"; do
  mkdir -p "build-fuzz/corpus/$n"
  printf '\n==> fuzzing %s for %s s\n' "$n" "$seconds"
  # -rss_limit_mb: a harness may not need more, so a claimed-size allocation counts as a crash.
  "build-fuzz/${n}_fuzz" -max_total_time="$seconds" -rss_limit_mb=1024 -max_len=65536 \
    -artifact_prefix="build-fuzz/crashes/${n}-" "build-fuzz/corpus/$n" "tests/fuzz/corpus/$n" \
    2>&1 | grep -E '^(#[0-9]+ +(DONE|INITED)|==[0-9]+==|SUMMARY|artifact_prefix|Done)' || true
  if compgen -G "build-fuzz/crashes/${n}-*" >/dev/null; then
    echo "fuzz.sh: $n crashed; inputs in build-fuzz/crashes/" >&2
    exit 1
  fi
done
echo "fuzz.sh: no crash in ${names[*]}"

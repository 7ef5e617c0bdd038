#!/usr/bin/env bash
# install-deps.sh - install the Debian 12 (bookworm) packages the project builds against.
#
# Idempotent: safe to run again; when every package is already installed it skips apt
# entirely (a few dpkg-query calls, well under a second) and only re-runs the sanity checks.
#
# Environment:
#   DEPS_SKIP_OPTIONAL=1  skip the optional parts (aarch64 cross g++ + qemu-user; CUDA check is
#                         informational only either way)
#   DEPS_FORCE_APT=1      run apt-get update + install even when everything is already present
#   DEPS_DRY_RUN=1        print the package list that would be installed and exit
#   DEPS_LLVM_VERSION=NN  LLVM major to install (default 19, from bookworm main; 16 also
#                         passed the same probe). CMake: find_package(LLVM 19.1 CONFIG)
#
# CUDA is NOT installed here (not in Debian's archive); the machine image ships CUDA 13 at
# /usr/local/cuda. The build must work without it (find_package(CUDAToolkit) is optional).
# Which CMake find_package() call and target goes with each package: CMakeLists.txt.
set -euo pipefail

LLVM_VER="${DEPS_LLVM_VERSION:-19}"
if [[ ! "$LLVM_VER" =~ ^[0-9]+$ ]]; then
  echo "install-deps.sh: DEPS_LLVM_VERSION must be a major version number, got '$LLVM_VER'" >&2
  exit 2
fi

# Build tooling (already on the cpp image, listed so a bare bookworm works too).
TOOL_PKGS=(g++ make cmake ninja-build pkgconf ccache clang-format)

# Required libraries.
REQUIRED_PKGS=(
  # gRPC 1.51 + protobuf 3.21 + abseil 20220623 (one consistent Debian set).
  # protobuf-compiler-grpc is REQUIRED for find_package(gRPC CONFIG): gRPCTargets.cmake checks
  # that /usr/bin/grpc_{cpp,php,python,ruby}_plugin all exist.
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler libabsl-dev libssl-dev
  # LLVM (ORC LLJIT, all targets incl. AArch64/X86) + lld, as a program and as the library that
  # links kernel libraries in-process (liblld-N-dev). libzstd-dev: LLVMSupport's and lld's
  # exported link interfaces name zstd (needed when linking static LLVM component libraries;
  # llvm-16-dev does not depend on it).
  "llvm-${LLVM_VER}-dev" "lld-${LLVM_VER}" "liblld-${LLVM_VER}-dev" libzstd-dev
  # XGBoost 1.7.4 C API. 'xgboost' (the CLI) is needed only because Debian's
  # XGBoostTargets.cmake imports /usr/bin/xgboost; without it find_package(xgboost CONFIG)
  # is a FATAL_ERROR even with QUIET.
  libxgboost-dev xgboost
  libsqlite3-dev
  libspdlog-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libcli11-dev nlohmann-json3-dev libcpp-httplib-dev libdlpack-dev
  # Vendor libraries the benchmarks compare against (bench/vendor_*).
  libopenblas-dev libdnnl-dev
  # The dashboard's browser tests drive headless Chromium (--dump-dom, --screenshot).
  chromium
  # Models: ONNX 1.12 (CMake config ONNX, targets onnx/onnx_proto, ONNX_ML=1, on the same
  # protobuf 3.21 as gRPC) and ONNX's own backend test cases (/usr/share/libonnx-testdata/data).
  libonnx-dev libonnx-testdata
  # Reference models, outputs and latencies: PyTorch 1.13 + torchvision exporting to ONNX
  # (run with /usr/bin/python3; a pyenv python3 on PATH does not see Debian's packages).
  python3-torch python3-torchvision python3-onnx python3-numpy
  # The Python client (python/tunefarm, PYTHONPATH=build/python): gRPC 1.51 as the C++ side, and
  # its tests.
  python3-grpcio python3-protobuf python3-pytest
  # OpenCL: the Khronos headers and the ICD loader (runtime/opencl dlopen()s libOpenCL.so.1), and
  # PoCL, an OpenCL 3.0 device on the CPU, so the OpenCL tests and an OpenCL worker run here;
  # clinfo lists what a machine has.
  ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd clinfo
)

# Optional: run aarch64 binaries under user-mode emulation.
# clang-14 with its runtime (libFuzzer, sanitizers): scripts/fuzz.sh.
OPTIONAL_PKGS=(qemu-user g++-aarch64-linux-gnu clang-14 libclang-rt-14-dev)
# Optional: the slim worker for AArch64 boards (scripts/build-aarch64.sh, the farm's board tests):
# Debian's arm64 multiarch libraries beside the amd64 ones, and the cross pkg-config wrapper.
# Installed in a step of their own (the arm64 architecture is added first); where that fails,
# the board tests skip with the reason and everything else still installs.
BOARD_PKGS=(libgrpc++-dev:arm64 libprotobuf-dev:arm64 libabsl-dev:arm64 libssl-dev:arm64
  pkgconf:arm64
  # The container images (docker/, scripts/docker-check.sh): Debian roots and podman, no registry.
  podman mmdebstrap podman-compose)

pkgs=("${TOOL_PKGS[@]}" "${REQUIRED_PKGS[@]}")
if [[ "${DEPS_SKIP_OPTIONAL:-0}" != "1" ]]; then
  pkgs+=("${OPTIONAL_PKGS[@]}")
fi

if [[ "${DEPS_DRY_RUN:-0}" == "1" ]]; then
  printf '%s\n' "${pkgs[@]}"
  [[ "${DEPS_SKIP_OPTIONAL:-0}" == "1" ]] || printf '%s\n' "${BOARD_PKGS[@]}"
  exit 0
fi

# A name without ":arch" means this machine's architecture (or an "all" package): with arm64
# added, dpkg-query lists a package once per installed architecture.
NATIVE_ARCH="$(dpkg --print-architecture)"
is_installed() {
  local name=$1 want
  if [[ "$name" == *:* ]]; then want="${name#*:}"; name="${name%%:*}"; else want="$NATIVE_ARCH"; fi
  dpkg-query -W -f='${Architecture} ${Status}\n' "$name" 2>/dev/null |
    grep -Eq "^($want|all) install ok installed$"
}

missing=()
for p in "${pkgs[@]}"; do
  is_installed "$p" || missing+=("$p")
done

if [[ ${#missing[@]} -eq 0 && "${DEPS_FORCE_APT:-0}" != "1" ]]; then
  echo "install-deps.sh: all ${#pkgs[@]} packages already installed; skipping apt-get"
else
  echo "install-deps.sh: missing: ${missing[*]:-(none, forced)}"
  # Root is needed only to install: a non-root user on a prepared machine never gets here.
  SUDO=()
  if [[ "$(id -u)" -ne 0 ]]; then
    if command -v sudo >/dev/null 2>&1; then
      SUDO=(sudo)
    else
      echo "install-deps.sh: must run as root (or have sudo) to install packages" >&2
      exit 1
    fi
  fi
  APT=("${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get
       -o DPkg::Lock::Timeout=900 -o Acquire::Retries=3)
  "${APT[@]}" update
  "${APT[@]}" install -y --no-install-recommends "${pkgs[@]}"
fi

board_missing=()
if [[ "${DEPS_SKIP_OPTIONAL:-0}" != "1" ]]; then
  for p in "${BOARD_PKGS[@]}"; do
    is_installed "$p" || board_missing+=("$p")
  done
fi
if [[ ${#board_missing[@]} -gt 0 ]]; then
  echo "install-deps.sh: the boards' and containers' packages: ${board_missing[*]}"
  SUDO=()
  [[ "$(id -u)" -eq 0 ]] || SUDO=(sudo)
  APT=("${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get
       -o DPkg::Lock::Timeout=900 -o Acquire::Retries=3)
  if ! { dpkg --print-foreign-architectures | grep -qx arm64 ||
         "${SUDO[@]}" dpkg --add-architecture arm64; } ||
     ! "${APT[@]}" update || ! "${APT[@]}" install -y --no-install-recommends "${BOARD_PKGS[@]}"; then
    echo "install-deps.sh: WARNING: the arm64 or container packages did not install; the AArch64" \
      "slim worker is not built, the farm's board tests skip, docker-check.sh cannot run" >&2
  fi
fi

# ---- sanity checks: fail loudly if the archive ever moves to incompatible versions ----
fail=0
check() {  # check "what" command...
  local what=$1; shift
  if "$@" >/dev/null 2>&1; then echo "  ok   $what"; else echo "  FAIL $what" >&2; fail=1; fi
}
echo "install-deps.sh: checks"
check "protoc 3.21.x"               bash -c 'protoc --version | grep -q "libprotoc 3\.21\."'
check "grpc_cpp_plugin"             test -x /usr/bin/grpc_cpp_plugin
check "gRPC CMake config 1.51"      bash -c 'grep -q "\"1\.51" /usr/lib/*/cmake/grpc/gRPCConfigVersion.cmake'
LLVM_CFG="/usr/lib/llvm-${LLVM_VER}/bin/llvm-config"
check "LLVM ${LLVM_VER} CMake config"        test -f "/usr/lib/llvm-${LLVM_VER}/lib/cmake/llvm/LLVMConfig.cmake"
check "LLVM ${LLVM_VER} has AArch64+X86"     bash -c "$LLVM_CFG --targets-built | grep -qw AArch64 && $LLVM_CFG --targets-built | grep -qw X86"
check "ld.lld-${LLVM_VER}"                   test -x "/usr/bin/ld.lld-${LLVM_VER}"
check "lld library (liblld-${LLVM_VER}-dev)" test -f "/usr/lib/llvm-${LLVM_VER}/lib/liblldELF.a"
check "xgboost CMake config usable" test -x /usr/bin/xgboost
check "xgboost C API header"        test -f /usr/include/xgboost/c_api.h
check "cpp-httplib pkg-config"      pkg-config --exists 'cpp-httplib >= 0.11'
check "sqlite3 pkg-config"          pkg-config --exists sqlite3
check "chromium (browser tests)"     command -v chromium
if [[ "${DEPS_SKIP_OPTIONAL:-0}" != "1" ]]; then
  check "qemu-aarch64 (optional)"         command -v qemu-aarch64
  check "aarch64-linux-gnu-g++ (optional)" command -v aarch64-linux-gnu-g++
  check "clang++-14 (optional, fuzz.sh)"   command -v clang++-14
  if [[ -f /usr/lib/aarch64-linux-gnu/cmake/grpc/gRPCConfig.cmake ]]; then
    echo "  ok   arm64 gRPC (optional, build-aarch64.sh)"
  else
    echo "  info no arm64 gRPC: the AArch64 slim worker is not built, the board tests skip"
  fi
fi
if [[ -x /usr/local/cuda/bin/nvcc && -e /usr/local/cuda/include/nvrtc.h ]]; then
  echo "  info CUDA toolkit at /usr/local/cuda: $(/usr/local/cuda/bin/nvcc --version | tail -1)"
else
  echo "  info no CUDA toolkit at /usr/local/cuda (optional; NVRTC parts will be skipped)"
fi
if [[ $fail -ne 0 ]]; then
  echo "install-deps.sh: some checks failed" >&2
  exit 1
fi
echo "install-deps.sh: done"

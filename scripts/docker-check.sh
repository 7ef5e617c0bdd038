#!/usr/bin/env bash
# docker-check.sh - the farm's container images (docker/), made from Debian 12 and this
# checkout's builds, and a short tuning job through the compose farm (docker/compose.yaml).
#
#   scripts/docker-check.sh
#
# 1. Base images: mmdebstrap makes a minimal bookworm holding exactly the Debian packages whose
#    shared libraries the binaries load (their ldd, or for AArch64 their NEEDED entries, mapped to
#    packages with dpkg -S); libraries outside Debian (CUDA's NVRTC) are copied in at the path the
#    binary looks for them. No image registry is needed: podman imports the tarballs.
#    tunefarm-base:amd64 (tracker, worker, builder), tunefarm-slim-base:amd64 and :arm64.
# 2. Images: podman builds docker/*.Containerfile: tunefarm-tracker, -worker, -builder (amd64),
#    tunefarm-slim (amd64 and arm64). They have no RUN steps, so building runs nothing inside a
#    container (and works where containers cannot start).
# 3. The farm: podman-compose starts the compose file (tracker, two workers, a builder), a job
#    of 8 trials runs through it from this machine, and the farm is stopped and removed.
#
# A step this machine cannot do (no build-aarch64/, no binfmt_misc to configure an arm64 root,
# containers that cannot start) is reported as SKIP with the reason, and the rest goes on.
# Exit 0 when every step ran or was skipped with its reason; 1 when a step failed.
# Environment: BUILD (default build), BUILD_A64 (default build-aarch64), MIRROR.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD="${BUILD:-build}"
BUILD_A64="${BUILD_A64:-build-aarch64}"
MIRROR="${MIRROR:-http://deb.debian.org/debian}"
work="$(mktemp -d /tmp/tunefarm-docker.XXXXXX)"
trap 'rm -rf "$work"' EXIT
failed=0

step() { echo "==> $*"; }
skip() { echo "SKIP: $*"; }
fail() {
  echo "FAILED: $*" >&2
  failed=1
}

for tool in podman mmdebstrap; do
  if ! command -v "$tool" >/dev/null; then
    echo "docker-check.sh: $tool is missing (apt install podman mmdebstrap podman-compose)" >&2
    exit 1
  fi
done
for bin in tunefarm tunefarm-measure tunefarm-rpc-server; do
  if [[ ! -x "$BUILD/$bin" ]]; then
    echo "docker-check.sh: $BUILD/$bin is not built (cmake --build $BUILD)" >&2
    exit 1
  fi
done

# The Debian packages (host architecture) whose libraries `ldd` finds for the binaries; libraries
# no package owns are listed in $work/unowned-$2.
host_packages() {
  local name=$1
  shift
  : >"$work/unowned-$name"
  for bin in "$@"; do ldd "$bin" | awk '/=>/ {print $3}'; done | sort -u |
    while read -r lib; do
      real="$(readlink -f "$lib")"
      if ! { dpkg -S "$real" 2>/dev/null || dpkg -S "/usr$real" 2>/dev/null ||
             dpkg -S "${real#/usr}" 2>/dev/null; }; then
        echo "$lib" >>"$work/unowned-$name"
      fi
    done | cut -d: -f1 | sort -u | paste -sd, -
}

# The arm64 packages that hold an AArch64 binary's NEEDED libraries (apt adds what they need).
arm64_packages() {
  aarch64-linux-gnu-readelf -d "$1" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' |
    while read -r soname; do
      for dir in /usr/lib/aarch64-linux-gnu /lib/aarch64-linux-gnu; do
        [[ -e "$dir/$soname" ]] && { dpkg -S "$dir/$soname" 2>/dev/null && break; }
      done
    done | cut -d: -f1 | sort -u | sed 's/$/:arm64/' | paste -sd, -
}

# mmdebstrap ARCH VARIANT PACKAGES TAR [copy-in files...]; then podman import as IMAGE.
make_base() {
  local arch=$1 variant=$2 packages=$3 image=$4
  shift 4
  local hooks=()
  for lib in "$@"; do
    hooks+=(--customize-hook="mkdir -p \"\$1$(dirname "$lib")\"")
    hooks+=(--customize-hook="copy-in $lib $(dirname "$lib")")
  done
  if ! mmdebstrap --quiet --architectures="$arch" --variant="$variant" --include="$packages" \
    "${hooks[@]}" bookworm "$work/$arch-$variant.tar" "$MIRROR" >"$work/mmdebstrap.log" 2>&1; then
    tail -5 "$work/mmdebstrap.log" >&2
    return 1
  fi
  podman import --quiet --arch "$arch" "$work/$arch-$variant.tar" "$image" >/dev/null
}

start=$SECONDS
step "base images (mmdebstrap, Debian 12)"
full_packages="$(host_packages full "$BUILD/tunefarm" "$BUILD/tunefarm-measure" \
  "$BUILD/tunefarm-rpc-server"),lld-19,ca-certificates"
mapfile -t full_extra <"$work/unowned-full"
# NVRTC finds its builtins library beside itself at run time; ldd does not list it.
for lib in "${full_extra[@]}"; do
  for builtins in "$(dirname "$(readlink -f "$lib")")"/libnvrtc-builtins.so*; do
    [[ -e "$builtins" ]] && full_extra+=("$builtins")
  done
done
if make_base amd64 minbase "$full_packages" localhost/tunefarm-base:amd64 \
  $(for l in "${full_extra[@]}"; do readlink -f "$l"; printf '%s\n' "$l"; done | sort -u); then
  echo "ok   tunefarm-base:amd64 ($full_packages${full_extra[*]:+; copied in: ${full_extra[*]}})"
else
  fail "tunefarm-base:amd64"
fi
slim_packages="$(host_packages slim "$BUILD/tunefarm-rpc-server")"
if make_base amd64 minbase "$slim_packages" localhost/tunefarm-slim-base:amd64; then
  echo "ok   tunefarm-slim-base:amd64 ($slim_packages)"
else
  fail "tunefarm-slim-base:amd64"
fi
have_a64=0
if [[ ! -x "$BUILD_A64/tunefarm-rpc-server" ]]; then
  skip "tunefarm-slim-base:arm64: $BUILD_A64/tunefarm-rpc-server is not built (scripts/build-aarch64.sh)"
else
  have_a64=1
  a64_packages="$(arm64_packages "$BUILD_A64/tunefarm-rpc-server")"
  # Without binfmt_misc an arm64 root's maintainer scripts cannot run here: its packages are only
  # extracted (the libraries are all the slim worker needs; LD_LIBRARY_PATH finds them).
  variant=minbase
  [[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]] || variant=extract
  if make_base arm64 "$variant" "libc6:arm64,$a64_packages" localhost/tunefarm-slim-base:arm64; then
    echo "ok   tunefarm-slim-base:arm64 ($variant: $a64_packages)"
  else
    fail "tunefarm-slim-base:arm64"
  fi
fi

step "images (podman build docker/*.Containerfile)"
context="$work/context"
mkdir -p "$context"
cp "$BUILD/tunefarm" "$BUILD/tunefarm-measure" "$BUILD/tunefarm-rpc-server" "$context/"
for role in tracker worker builder; do
  if podman build --quiet -f "docker/$role.Containerfile" \
    --build-arg BASE=localhost/tunefarm-base:amd64 -t "localhost/tunefarm-$role:amd64" \
    "$context" >/dev/null; then
    echo "ok   tunefarm-$role:amd64"
  else
    fail "tunefarm-$role:amd64"
  fi
done
if podman build --quiet -f docker/slim.Containerfile --build-arg BASE=localhost/tunefarm-slim-base:amd64 \
  -t localhost/tunefarm-slim:amd64 "$context" >/dev/null; then
  echo "ok   tunefarm-slim:amd64"
else
  fail "tunefarm-slim:amd64"
fi
if [[ $have_a64 -eq 1 ]]; then
  mkdir -p "$work/context-a64"
  cp "$BUILD_A64/tunefarm-rpc-server" "$work/context-a64/"
  if podman build --quiet --arch arm64 -f docker/slim.Containerfile \
    --build-arg BASE=localhost/tunefarm-slim-base:arm64 -t localhost/tunefarm-slim:arm64 \
    "$work/context-a64" >/dev/null; then
    echo "ok   tunefarm-slim:arm64 ($(podman image inspect --format '{{.Architecture}}' \
      localhost/tunefarm-slim:arm64))"
  else
    fail "tunefarm-slim:arm64"
  fi
fi

step "the compose farm (podman-compose, docker/compose.yaml)"
probe="$(podman run --rm localhost/tunefarm-slim:amd64 --help 2>&1)"
if [[ $? -ne 0 ]]; then
  skip "containers cannot start on this machine: ${probe##*Error: }"
  # The next best thing: each image's program starts in the image's own root (chroot, or qemu
  # with the root as its library prefix), so the image holds every library it needs.
  step "each image's program in its root (chroot; qemu-aarch64 for arm64)"
  for image in tracker:amd64 worker:amd64 builder:amd64 slim:amd64 slim:arm64; do
    podman image exists "localhost/tunefarm-$image" || continue
    root="$(podman image mount "localhost/tunefarm-$image")"
    case "$image" in
      slim:arm64)
        command -v qemu-aarch64 >/dev/null || { skip "$image: no qemu-aarch64"; continue; }
        run=(env QEMU_LD_PREFIX="$root" qemu-aarch64 -E
             "LD_LIBRARY_PATH=$root/lib/aarch64-linux-gnu:$root/usr/lib/aarch64-linux-gnu"
             "$root/usr/local/bin/tunefarm-rpc-server" --help) ;;
      slim:*) run=(chroot "$root" /usr/local/bin/tunefarm-rpc-server --help) ;;
      *) run=(chroot "$root" /usr/local/bin/tunefarm --version) ;;
    esac
    if out="$("${run[@]}" 2>&1)"; then
      echo "ok   tunefarm-$image: $(head -1 <<<"$out")"
    else
      fail "tunefarm-$image: its program does not start in its root: $(tail -1 <<<"$out")"
    fi
    podman image unmount "localhost/tunefarm-$image" >/dev/null
  done
elif ! command -v podman-compose >/dev/null; then
  skip "podman-compose is missing (apt install podman-compose)"
else
  cp docker/compose.yaml "$work/"
  head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$work/farm_token"
  compose=(podman-compose -f "$work/compose.yaml" -p tunefarm-check)
  if "${compose[@]}" up -d >"$work/compose.log" 2>&1; then
    ok=0
    for _ in $(seq 1 60); do
      "$BUILD/tunefarm" workers --tracker 127.0.0.1:9190 --token-file "$work/farm_token" \
        --key x86-container 2>/dev/null | grep -q idle && { ok=1; break; }
      sleep 1
    done
    if [[ $ok -eq 1 ]] && "$BUILD/tunefarm" tune --tracker 127.0.0.1:9190 \
      --token-file "$work/farm_token" --key x86-container --workload matmul:64,64,64 \
      --trials 8 --no-verify; then
      echo "ok   a job of 8 trials through the compose farm"
    else
      fail "the job through the compose farm (its log: ${compose[*]} logs)"
    fi
  else
    fail "podman-compose up: $(tail -3 "$work/compose.log")"
  fi
  "${compose[@]}" down -v >/dev/null 2>&1
fi

echo "docker-check.sh: done in $((SECONDS - start)) s"
exit $failed

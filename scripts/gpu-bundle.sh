#!/usr/bin/env bash
# gpu-bundle.sh - packs tunefarm for a GPU machine that has an NVIDIA driver and the CUDA 13
# toolkit (NVRTC) but none of our Debian packages: the binaries, every shared library they load
# from this machine (glibc, the driver and NVRTC stay: the GPU machine has its own), the GPU
# examples and bench/gpu, in two compressed tarballs: tunefarm-gpu-libs.tar.xz (the libraries,
# LLVM's most of all: made once, kept while present) and tunefarm-gpu.tar.xz (the rest: small,
# remade on every call), which unpack into one tunefarm-gpu/ folder.
#
# Usage: scripts/gpu-bundle.sh [BUILD_DIR [DEST_DIR]]   (defaults: build, gpu-bundle)
# On the GPU machine: unpack both, then tunefarm-gpu/bin/tunefarm ... (bin/ holds wrappers that
# set LD_LIBRARY_PATH; the real binaries are in libexec/). bench/gpu/gpu_session.sh does it all.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${1:-build}
dest=${2:-gpu-bundle}
binaries=(tunefarm tunefarm-measure tunefarm-rpc-server runtime_gpu_tests tuner_measure_tests)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root="$stage/tunefarm-gpu"
mkdir -p "$root/bin" "$root/libexec" "$root/lib" "$dest"
libs_tar="$dest/tunefarm-gpu-libs.tar.xz"
for b in "${binaries[@]}"; do
  [ -x "$build/$b" ] || { echo "gpu-bundle: no $build/$b (build it first)" >&2; exit 1; }
  strip -o "$root/libexec/$b" "$build/$b"
done
# Every library the binaries load, except the C library's own and what the GPU machine brings.
for b in "${binaries[@]}"; do ldd "$build/$b"; done | awk '/=> \// {print $3}' | sort -u |
  while read -r lib; do
    case "$(basename "$lib")" in
      libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.* | ld-linux*) ;;
      libcuda.so.* | libnvrtc*) ;;
      *) cp -L "$lib" "$root/lib/" ;;
    esac
  done
strip --strip-unneeded "$root"/lib/*.so* 2>/dev/null || true
if [ ! -s "$libs_tar" ]; then
  tar -C "$stage" -cf - tunefarm-gpu/lib | xz -T0 -6 >"$libs_tar"
fi
for b in "${binaries[@]}"; do
  cat >"$root/bin/$b" <<WRAP
#!/bin/sh
here=\$(cd "\$(dirname "\$0")/.." && pwd)
cuda=\${CUDA_HOME:-/usr/local/cuda}
export LD_LIBRARY_PATH="\$here/lib:\$cuda/lib64\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
exec "\$here/libexec/$b" "\$@"
WRAP
  chmod +x "$root/bin/$b"
done
# tunefarm finds tunefarm-measure beside its own executable.
mkdir -p "$root/examples" "$root/bench"
cp examples/*.te "$root/examples/"
cp -r bench/gpu "$root/bench/"
need=$(objdump -T "$root"/libexec/* "$root"/lib/* 2>/dev/null | grep -o 'GLIBC_[0-9.]*' |
  sort -t. -k2,2n -k3,3n -u | tail -1)
echo "$need" >"$root/GLIBC_NEEDED"
tar -C "$stage" --exclude=tunefarm-gpu/lib -cf - tunefarm-gpu | xz -T0 -6 >"$dest/tunefarm-gpu.tar.xz"
echo "gpu-bundle: $dest/tunefarm-gpu.tar.xz ($(du -h "$dest/tunefarm-gpu.tar.xz" | cut -f1))" \
  "and $libs_tar ($(du -h "$libs_tar" | cut -f1)); needs glibc >= ${need#GLIBC_}, an NVIDIA" \
  "driver and CUDA 13's NVRTC"

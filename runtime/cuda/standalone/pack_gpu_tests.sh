#!/bin/sh
# Packs runtime_cuda_tests with the shared libraries it needs from this machine (abseil,
# libstdc++, libgcc_s; glibc stays: the device machine has its own) into one folder that the
# `device` tool can carry to a GPU machine, which has CUDA and a driver but none of our Debian
# packages. Usage: runtime/cuda/standalone/pack_gpu_tests.sh [BUILD_DIR [DEST]]
# then, on the device machine (carry DEST): DEST/run.sh [gtest flags]
set -eu
build=${1:-build-cudart}
dest=${2:-$build/gpu-tests}
binary="$build/runtime_cuda_tests"
[ -x "$binary" ] || { echo "no $binary: build it first (ninja -C $build runtime_cuda_tests)" >&2; exit 1; }
rm -rf "$dest"
mkdir -p "$dest/lib" "$dest/cxx"
strip -o "$dest/runtime_cuda_tests" "$binary"
ldd "$binary" | awk '/=> \// {print $3}' | while read -r lib; do
  case "$(basename "$lib")" in
    libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.* | ld-linux*) ;;
    # This machine's libstdc++ needs glibc 2.36: used only where the device's glibc has it, else
    # the device's own libstdc++ (it has gcc) is used.
    libstdc++.so.* | libgcc_s.so.*) cp -L "$lib" "$dest/cxx/" ;;
    *) cp -L "$lib" "$dest/lib/" ;;
  esac
done
cat >"$dest/run.sh" <<'RUN'
#!/bin/sh
here=$(cd "$(dirname "$0")" && pwd)
libs="$here/lib"
glibc=$(getconf GNU_LIBC_VERSION | cut -d' ' -f2)
if [ "$(printf '%s\n2.36\n' "$glibc" | sort -V | head -1)" = 2.36 ]; then libs="$libs:$here/cxx"; fi
LD_LIBRARY_PATH="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec "$here/runtime_cuda_tests" "$@"
RUN
chmod +x "$dest/run.sh"
# The newest glibc symbol version the pack needs: the device machine's glibc must be at least it.
need=$(objdump -T "$dest/runtime_cuda_tests" "$dest"/lib/* 2>/dev/null |
  grep -o 'GLIBC_[0-9.]*' | sort -t. -k2,2n -k3,3n -u | tail -1)
cxx=$(objdump -T "$dest/runtime_cuda_tests" "$dest"/lib/* 2>/dev/null |
  grep -o 'GLIBCXX_[0-9.]*' | sort -V -u | tail -1)
echo "packed into $dest ($(du -sh "$dest" | cut -f1)); needs glibc >= ${need#GLIBC_} and, below 2.36, a device libstdc++ with $cxx"

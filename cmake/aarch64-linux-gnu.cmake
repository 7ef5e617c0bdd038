# A CMake toolchain file for 64-bit ARM Linux boards with Debian's cross compiler
# (g++-aarch64-linux-gnu). Libraries come from Debian's arm64 multiarch packages in
# /usr/lib/aarch64-linux-gnu (`dpkg --add-architecture arm64`); programs (protoc, the gRPC
# plugin) are the host's. What it builds runs on the board, or here under qemu-aarch64.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# Host programs stay visible (protoc); libraries and packages are searched for the target only:
# the multiarch folders (lib/aarch64-linux-gnu) under /usr, and the cross toolchain's own root.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu /)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu)
# The host's pkg-config reads the host's .pc files (x86 libraries); Debian's cross wrapper reads
# the arm64 ones.
set(PKG_CONFIG_EXECUTABLE aarch64-linux-gnu-pkg-config CACHE FILEPATH "pkg-config for the target")
# gcc 12 for aarch64 reports maybe-uninitialized inside absl::InlinedVector's storage (a false
# positive the x86 compiler does not make on the same code).
set(CMAKE_CXX_FLAGS_INIT "-Wno-maybe-uninitialized")

// Large buffers that the kernel may back with transparent huge pages: a model's arena is read and
// written by every kernel, and with 4 KiB pages its TLB misses can cost a strided kernel more than
// its arithmetic (a 2.5x slower first ResNet-18 stage, measured, depending only on where the arena
// placed its buffers). Linux's default THP mode, "madvise", only backs memory that asks for it.
#pragma once

#include <cstddef>

namespace tunefarm::runtime {

inline constexpr size_t kHugePageBytes = size_t{2} << 20;

// `bytes` (at least 1) of uninitialized memory aligned to 64 bytes; from 2 MiB up, aligned to and
// rounded up to whole huge pages, advised as huge-page memory where the OS takes the advice. Free
// it with std::free. nullptr when out of memory.
void* AllocateHugePageBuffer(size_t bytes);

}  // namespace tunefarm::runtime

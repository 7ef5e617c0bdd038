#include "runtime/core/huge_page_buffer.h"

#include <cstdint>
#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace tunefarm::runtime {

void* AllocateHugePageBuffer(size_t bytes) {
  constexpr size_t kLineBytes = 64;
  if (bytes < kHugePageBytes) {
    return std::aligned_alloc(kLineBytes, (bytes + kLineBytes - 1) / kLineBytes * kLineBytes +
                                              (bytes == 0 ? kLineBytes : 0));
  }
  if (bytes > SIZE_MAX - kHugePageBytes) return nullptr;
  const size_t rounded = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  void* p = std::aligned_alloc(kHugePageBytes, rounded);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // Advice only: where THP is off or unsupported, the buffer keeps small pages.
  if (p != nullptr) (void)madvise(p, rounded, MADV_HUGEPAGE);
#endif
  return p;
}

}  // namespace tunefarm::runtime

#include "tracker/free_memory.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace tunefarm::tracker {

void LimitAllocatorArenas([[maybe_unused]] int arenas) {
#if defined(__GLIBC__)
  mallopt(M_ARENA_MAX, arenas);
#endif
}

void ReleaseFreeMemory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

}  // namespace tunefarm::tracker

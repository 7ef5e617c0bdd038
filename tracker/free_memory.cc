#include "tracker/free_memory.h"

// glibc's malloc.h; __GLIBC__ is only defined once a libc header is in.
#if __has_include(<malloc.h>)
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

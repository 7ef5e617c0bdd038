// Orderings that ThreadSanitizer cannot see for itself: gRPC hands a reactor from the thread that
// created it to the threads that run its callbacks through locks inside Debian's uninstrumented
// gRPC. Marking each hand-off (before a Start*/Finish call, at each callback's entry) lets TSan
// check our reactor's own fields. Without TSan these compile to nothing.
#pragma once

#if defined(__SANITIZE_THREAD__)
extern "C" void AnnotateHappensBefore(const char* file, int line, const volatile void* address);
extern "C" void AnnotateHappensAfter(const char* file, int line, const volatile void* address);
#endif

namespace tunefarm::tracker {

// Everything this thread did so far happens before what a later HappensAfter(address) follows.
inline void HappensBefore([[maybe_unused]] const void* address) {
#if defined(__SANITIZE_THREAD__)
  AnnotateHappensBefore(__FILE__, __LINE__, address);
#endif
}

inline void HappensAfter([[maybe_unused]] const void* address) {
#if defined(__SANITIZE_THREAD__)
  AnnotateHappensAfter(__FILE__, __LINE__, address);
#endif
}

}  // namespace tunefarm::tracker

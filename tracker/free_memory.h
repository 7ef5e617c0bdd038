// Keeps the tracker's resident memory near what it uses. Its job and build threads allocate in
// bursts (LLVM builds a candidate, then frees it); glibc keeps freed memory in per-thread arenas,
// so a long-running tracker grew to ~40x its live heap in a soak (8 MB in use, 313 MB held).
#pragma once

namespace tunefarm::tracker {

// Caps the allocator's arenas (threads share them beyond that). Call once, early, from the
// tracker process's main thread, before its threads start.
void LimitAllocatorArenas(int arenas);

// Returns free pages in every arena to the system (the ticker calls it every few seconds).
void ReleaseFreeMemory();

}  // namespace tunefarm::tracker

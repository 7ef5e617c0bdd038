// StackGuard: how much of this thread's stack is left, so that recursion over input-controlled
// depth (a script's nested calls) stops before the stack's end whatever its frames cost; a count
// of levels alone does not, since sanitizer and -O0 frames are several times larger.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tunefarm::script {

class StackGuard {
 public:
  // Reads the bounds of the calling thread's stack; use the guard on that thread.
  StackGuard();
  // True while more than `margin` bytes remain below the caller's frame (always true when the
  // bounds could not be read).
  bool HasRoom(size_t margin = 256 * 1024) const;

 private:
  uintptr_t low_ = 0;  // the lowest address of the stack; 0 when unknown
};

}  // namespace tunefarm::script

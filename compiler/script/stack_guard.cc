#include "compiler/script/stack_guard.h"

#include <pthread.h>

namespace tunefarm::script {

StackGuard::StackGuard() {
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
  void* addr = nullptr;
  size_t size = 0;
  if (pthread_attr_getstack(&attr, &addr, &size) == 0) low_ = reinterpret_cast<uintptr_t>(addr);
  pthread_attr_destroy(&attr);
}

bool StackGuard::HasRoom(size_t margin) const {
  if (low_ == 0) return true;
  const auto here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  return here > low_ && here - low_ > margin;
}

}  // namespace tunefarm::script

// The runtime's TFBackendWorkspaceAlloc/Free (c_abi.h): kernels' large scratch buffers, kept per
// thread between calls. Freeing a multi-megabyte buffer with free() gives its pages back to the
// OS (glibc trims the heap or unmaps the chunk), so every call of the kernel faulted them in again
// and zeroed them: measured, a quarter of a ResNet-18's time at one thread went to that for its
// Winograd layers' tiles. TVM's workspace pool keeps them the same way.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tunefarm::runtime {

// What one thread keeps for its next calls: at most this many buffers and bytes (the largest
// model kernels use a few scratch buffers of a few MB each).
inline constexpr int kMaxPooledBuffers = 16;
inline constexpr uint64_t kMaxPooledBytes = uint64_t{512} << 20;

struct WorkspacePoolStats {
  int64_t allocations = 0;  // requests this thread made
  int64_t reused = 0;       // of them, served from its kept buffers
  int pooled_buffers = 0;   // kept now
  uint64_t pooled_bytes = 0;
};

// The calling thread's counts (tests and benchmarks).
WorkspacePoolStats ThisThreadWorkspaceStats();

}  // namespace tunefarm::runtime

// The launch limits a GPU target's kernels are built and tuned within: threads per block
// (work-items per work-group) and shared (__local) memory per block. A target's are its kind's or
// its OpenCL profile's; a farm narrows them to what its devices of a key report.
#pragma once

#include <cstdint>
#include <string>

#include "compiler/target/target.h"

namespace tunefarm::target {

struct GpuLimits {
  int64_t max_threads = 1024;
  int64_t max_shared_bytes = 48 * 1024;

  // The tighter of each limit (a non-positive one in `other` is unknown and ignored).
  GpuLimits Narrowed(const GpuLimits& other) const;
  std::string ToString() const;  // "work-groups of at most 256, 32768 bytes of local memory"
};

// CUDA: 1024 threads and 48 KiB of static shared memory (every sm_75+ GPU). OpenCL: the profile's
// (OpenClTarget::max_threads, max_local_bytes). A CPU target has none: the defaults.
GpuLimits GpuLimitsOf(const Target& target);

}  // namespace tunefarm::target

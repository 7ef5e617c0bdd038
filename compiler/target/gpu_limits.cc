#include "compiler/target/gpu_limits.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace tunefarm::target {

GpuLimits GpuLimits::Narrowed(const GpuLimits& other) const {
  GpuLimits out = *this;
  if (other.max_threads > 0) out.max_threads = std::min(out.max_threads, other.max_threads);
  if (other.max_shared_bytes > 0) {
    out.max_shared_bytes = std::min(out.max_shared_bytes, other.max_shared_bytes);
  }
  return out;
}

std::string GpuLimits::ToString() const {
  return absl::StrCat("work-groups of at most ", max_threads, " threads, ", max_shared_bytes,
                      " bytes of local memory");
}

GpuLimits GpuLimitsOf(const Target& target) {
  GpuLimits limits;
  if (target.is_opencl()) {
    limits.max_threads = target.opencl().max_threads();
    limits.max_shared_bytes = target.opencl().max_local_bytes();
  }
  return limits;
}

}  // namespace tunefarm::target

// Knob helpers the GPU templates share: an output axis's [blocks, vthreads, threads, inner]
// split and a reduction's [outer, inner] split over extents rounded up so that odd and prime
// sizes still tile (the tail is guarded), read back by name or, in constraints, by position.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/space/config.h"
#include "compiler/space/config_space.h"
#include "compiler/topi/gpu_tiling.h"

namespace tunefarm::topi {

// Bounds that keep a GPU axis knob small and its code reasonable.
inline constexpr int64_t kGpuMaxVthreads = 8;
inline constexpr int64_t kGpuMaxInner = 16;
// Accumulators one thread keeps in registers (its inner tile of outputs).
inline constexpr int64_t kGpuMaxAccumulators = 64;

// The extent a GPU split knob cuts: `extent` below 8, else rounded up to a multiple of 4.
int64_t GpuKnobExtent(int64_t extent);

// Declares split knob `name` of GpuKnobExtent(extent) into [blocks, vthreads, threads, inner]
// with vthreads <= kGpuMaxVthreads, inner <= kGpuMaxInner, threads <= kGpuMaxThreadsPerBlock
// (and vthreads = 1 when `vthreads` is false).
absl::Status DefineGpuAxisKnob(space::ConfigSpace& space, const std::string& name, int64_t extent,
                               bool vthreads = true);
// Declares split knob `name` of GpuKnobExtent(extent) into [outer, step], step <= max_step.
absl::Status DefineGpuReduceKnob(space::ConfigSpace& space, const std::string& name, int64_t extent,
                                 int64_t max_step);

// A split knob read by position, for constraints (which must not look knobs up by name).
class SplitView {
 public:
  // NotFound for an unknown knob, InvalidArgument for one that is not a split knob.
  static absl::StatusOr<SplitView> Of(const space::ConfigSpace& space, const std::string& name);
  const std::vector<int64_t>& Factors(const space::Config& config) const;
  // The factors of an axis knob as a tile (block count left to the schedule).
  GpuAxisTile Tile(const space::Config& config) const;

 private:
  int position_ = 0;
  std::shared_ptr<const std::vector<std::vector<int64_t>>> factors_;
};

// The defaults' tiles, chosen so that every default is a point of its space: `threads` and
// `inner` lowered to the largest divisors of GpuKnobExtent(extent) (and of what the threads
// leave) not above them; no virtual threads.
GpuAxisTile DefaultGpuAxisTile(int64_t extent, int64_t threads, int64_t inner);
// The largest divisor of GpuKnobExtent(extent) not above `want` (a reduction step).
int64_t DefaultGpuStep(int64_t extent, int64_t want);

// A knob's wanted value when mapping a schedule config into a space: a tile (for an axis knob),
// a step (for a reduction knob) or an integer (a flag).
struct GpuKnobTarget {
  std::string knob;
  enum class Kind : uint8_t { kTile, kStep, kInt } kind = Kind::kInt;
  GpuAxisTile tile;
  int64_t value = 0;
};

// The point of `space` whose knobs take `targets` (every knob named once). Errors
// (InvalidArgument naming `op` and the knob): an unknown or missing knob, a value the knob lacks
// (a tile whose span does not divide the knob's extent); FailedPrecondition for a point that
// breaks a constraint.
absl::StatusOr<space::Config> GpuKnobPoint(const space::ConfigSpace& space,
                                           const std::vector<GpuKnobTarget>& targets,
                                           const std::string& op);

// Reads a GPU axis knob's tile, or a reduction knob's step, by name.
absl::StatusOr<GpuAxisTile> ReadGpuAxisKnob(const space::Config& config, const std::string& name);
absl::StatusOr<int64_t> ReadGpuReduceKnob(const space::Config& config, const std::string& name);

}  // namespace tunefarm::topi

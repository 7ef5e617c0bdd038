// Places a graph's buffers in one arena, letting buffers whose lifetimes do not meet share bytes:
// computed once when a model is loaded, so running it allocates nothing. runtime/core only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/graph/graph_format.h"

namespace tunefarm::runtime {

// One buffer to place: its size and the steps during which it must keep its bytes, from the first
// step that writes it to the last step that reads it (inclusive). Buffers that must never be
// shared (graph inputs and outputs) span every step.
struct BufferLifetime {
  uint64_t bytes = 0;
  int64_t first_step = 0;
  int64_t last_step = 0;
};

struct MemoryPlanStats {
  uint64_t arena_bytes = 0;      // the arena the plan needs
  uint64_t unplanned_bytes = 0;  // the sum of every buffer's (aligned) size: no sharing at all
  int64_t num_buffers = 0;
};

struct MemoryPlan {
  std::vector<uint64_t> offsets;  // one per buffer, multiples of the plan's alignment
  MemoryPlanStats stats;
};

inline constexpr uint64_t kArenaAlignment = 64;

// Two buffers overlap in time when their [first_step, last_step] ranges intersect.
bool LifetimesIntersect(const BufferLifetime& a, const BufferLifetime& b);

// Greedy best fit by size: buffers are placed largest first (ties: earlier first_step, then
// index), each in the smallest gap between already placed buffers that are live at the same time
// and that it fits in, or above them all. Sizes are rounded up to `alignment` (a multiple of
// kArenaAlignment: an OpenCL device's sub-buffers may need 128 bytes or more), so every offset is
// a multiple of it. Deterministic. Returns false (and sets `*error`) when the arena's size would
// overflow 64 bits or `alignment` is not a multiple of kArenaAlignment.
bool PlanMemory(const std::vector<BufferLifetime>& buffers, MemoryPlan* plan, std::string* error,
                uint64_t alignment = kArenaAlignment);

// The buffers of `graph` that live in the arena (every tensor but params), with their lifetimes;
// `tensor_ids` (when given) gets each buffer's tensor id. Expects a graph ParseGraph accepted.
std::vector<BufferLifetime> ArenaBuffers(const GraphDescription& graph,
                                         std::vector<size_t>* tensor_ids = nullptr);

}  // namespace tunefarm::runtime

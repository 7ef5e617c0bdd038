#include "runtime/graph/memory_plan.h"

#include <algorithm>
#include <limits>

namespace tunefarm::runtime {
namespace {

// Rounds up to kArenaAlignment; false on overflow.
bool AlignUp(uint64_t bytes, uint64_t* out) {
  if (bytes > std::numeric_limits<uint64_t>::max() - (kArenaAlignment - 1)) return false;
  *out = (bytes + kArenaAlignment - 1) / kArenaAlignment * kArenaAlignment;
  return true;
}

struct Placed {
  uint64_t offset;
  uint64_t end;
  size_t index;
};

// The lowest-waste offset for `size` bytes among `live` (buffers live at the same time, sorted
// by offset): the smallest gap that holds it, else the top of them all.
uint64_t BestFit(const std::vector<Placed>& live, uint64_t size) {
  uint64_t cursor = 0;
  uint64_t best = 0;
  uint64_t best_gap = std::numeric_limits<uint64_t>::max();
  for (const Placed& p : live) {
    if (p.offset > cursor) {
      uint64_t gap = p.offset - cursor;
      if (gap >= size && gap < best_gap) {
        best = cursor;
        best_gap = gap;
      }
    }
    cursor = std::max(cursor, p.end);
  }
  return best_gap != std::numeric_limits<uint64_t>::max() ? best : cursor;
}

}  // namespace

bool LifetimesIntersect(const BufferLifetime& a, const BufferLifetime& b) {
  return a.first_step <= b.last_step && b.first_step <= a.last_step;
}

bool PlanMemory(const std::vector<BufferLifetime>& buffers, MemoryPlan* plan, std::string* error) {
  const size_t n = buffers.size();
  std::vector<uint64_t> sizes(n);
  MemoryPlan result;
  result.offsets.assign(n, 0);
  result.stats.num_buffers = static_cast<int64_t>(n);
  for (size_t i = 0; i < n; ++i) {
    if (!AlignUp(buffers[i].bytes, &sizes[i]) ||
        __builtin_add_overflow(result.stats.unplanned_bytes, sizes[i],
                               &result.stats.unplanned_bytes)) {
      *error = "memory plan: the buffers' sizes overflow 64 bits";
      return false;
    }
  }
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (sizes[a] != sizes[b]) return sizes[a] > sizes[b];
    if (buffers[a].first_step != buffers[b].first_step) {
      return buffers[a].first_step < buffers[b].first_step;
    }
    return a < b;
  });
  std::vector<Placed> placed;  // kept sorted by offset
  std::vector<Placed> live;
  placed.reserve(n);
  for (size_t index : order) {
    live.clear();
    for (const Placed& p : placed) {
      if (LifetimesIntersect(buffers[p.index], buffers[index])) live.push_back(p);
    }
    uint64_t offset = BestFit(live, sizes[index]);
    uint64_t end = 0;
    if (__builtin_add_overflow(offset, sizes[index], &end)) {
      *error = "memory plan: the arena's size overflows 64 bits";
      return false;
    }
    result.offsets[index] = offset;
    result.stats.arena_bytes = std::max(result.stats.arena_bytes, end);
    Placed p{offset, end, index};
    placed.insert(
        std::upper_bound(placed.begin(), placed.end(), p,
                         [](const Placed& a, const Placed& b) { return a.offset < b.offset; }),
        p);
  }
  *plan = std::move(result);
  return true;
}

}  // namespace tunefarm::runtime

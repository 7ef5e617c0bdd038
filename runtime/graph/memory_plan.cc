#include "runtime/graph/memory_plan.h"

#include <algorithm>
#include <limits>

namespace tunefarm::runtime {
namespace {

bool IsInputOrOutput(const GraphTensor& t) {
  return t.kind == GraphTensorKind::kInput || t.kind == GraphTensorKind::kOutput;
}

// Rounds up to `alignment`; false on overflow.
bool AlignUp(uint64_t bytes, uint64_t alignment, uint64_t* out) {
  if (bytes > std::numeric_limits<uint64_t>::max() - (alignment - 1)) return false;
  *out = (bytes + alignment - 1) / alignment * alignment;
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

std::vector<BufferLifetime> ArenaBuffers(const GraphDescription& g, std::vector<size_t>* ids) {
  const int64_t last = static_cast<int64_t>(g.steps.size()) - 1;
  std::vector<BufferLifetime> lives(g.tensors.size());
  std::vector<char> seen(g.tensors.size(), 0);
  for (size_t i = 0; i < g.tensors.size(); ++i) {
    lives[i].bytes = g.tensors[i].bytes;
    if (IsInputOrOutput(g.tensors[i])) lives[i] = {g.tensors[i].bytes, 0, last};
  }
  for (int64_t s = 0; s <= last; ++s) {
    for (const StepArg& arg : g.steps[s].args) {
      if (arg.kind != StepArgKind::kIn && arg.kind != StepArgKind::kOut) continue;
      if (IsInputOrOutput(g.tensors[arg.value])) continue;
      BufferLifetime& life = lives[arg.value];
      // The parser guarantees an intermediate's first use is a write.
      if (!seen[arg.value]) life.first_step = s;
      seen[arg.value] = 1;
      life.last_step = s;
    }
  }
  std::vector<BufferLifetime> buffers;
  for (size_t i = 0; i < g.tensors.size(); ++i) {
    if (g.tensors[i].kind == GraphTensorKind::kParam) continue;
    if (ids != nullptr) ids->push_back(i);
    buffers.push_back(lives[i]);
  }
  return buffers;
}

bool LifetimesIntersect(const BufferLifetime& a, const BufferLifetime& b) {
  return a.first_step <= b.last_step && b.first_step <= a.last_step;
}

bool PlanMemory(const std::vector<BufferLifetime>& buffers, MemoryPlan* plan, std::string* error,
                uint64_t alignment) {
  if (alignment == 0 || alignment % kArenaAlignment != 0) {
    *error = "memory plan: the alignment must be a multiple of 64 bytes";
    return false;
  }
  const size_t n = buffers.size();
  std::vector<uint64_t> sizes(n);
  MemoryPlan result;
  result.offsets.assign(n, 0);
  result.stats.num_buffers = static_cast<int64_t>(n);
  for (size_t i = 0; i < n; ++i) {
    if (!AlignUp(buffers[i].bytes, alignment, &sizes[i]) ||
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

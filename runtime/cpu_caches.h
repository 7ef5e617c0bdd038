// What the time evaluator does to the CPU caches before a timed repeat: evict given memory, flush
// every cache, or recreate the caches a layer finds when it runs inside a model.
#pragma once

#include <cstddef>
#include <vector>

namespace tunefarm::runtime {

struct MemoryRegion {
  const void* data = nullptr;
  size_t bytes = 0;
};

// Inside a model a layer streams its weights from memory into caches that the layers before
// filled with their own data, while its input is where the layer before just wrote it.
struct LayerCacheState {
  std::vector<MemoryRegion> weights;  // evicted from every cache level
  std::vector<MemoryRegion> inputs;   // read last, so that they are cached
  // Other memory read after the eviction, in multiples of the weights' bytes (at most
  // CacheFlushBytes()): an eviction leaves free cache lines, and weights streamed into free lines
  // ran faster than into full caches (a 38 MB Winograd kernel: 1.17 ms against 1.64 ms, after a
  // read of 2.5x its weights; 1.7 to 1.9 ms in the model). 0: none.
  double refill_ratio = 4;
};

// Writes back and invalidates `region`'s cache lines in every cache of the coherence domain
// (clflush, or dc civac on AArch64); elsewhere it flushes the whole cache (FlushCaches).
void EvictFromCaches(MemoryRegion region);

// Writes this thread's buffer of `bytes` (kept between calls) so that no earlier data stays cached.
void FlushCaches(size_t bytes);

// The size of the buffer a flush writes: twice the largest CPU cache the system reports (sysfs),
// or 64 MiB when it reports none.
size_t CacheFlushBytes();

// The refill's bytes: refill_ratio times the weights' bytes, at most CacheFlushBytes().
size_t RefillBytes(const LayerCacheState& state);

// Evicts the weights, reads RefillBytes() of this thread's buffer (kept between calls), then reads
// the inputs.
void RecreateLayerCacheState(const LayerCacheState& state);

}  // namespace tunefarm::runtime

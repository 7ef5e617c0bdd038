#include "runtime/cpu_caches.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <unistd.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "absl/strings/str_cat.h"
#include "runtime/core/huge_page_buffer.h"

namespace tunefarm::runtime {
namespace {

// 64 bytes is the smallest line of the CPUs we target: a larger line is touched more than once.
constexpr size_t kLine = 64;

// Parses a sysfs cache size such as "32768K" or "32M".
size_t ParseCacheSize(const std::string& text) {
  size_t value = 0;
  size_t i = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i)
    value = value * 10 + (text[i] - '0');
  if (i < text.size() && text[i] == 'K') value <<= 10;
  if (i < text.size() && text[i] == 'M') value <<= 20;
  return value;
}

size_t LargestCacheBytes() {
  size_t largest = 0;
  for (int index = 0; index < 16; ++index) {
    std::ifstream file(absl::StrCat("/sys/devices/system/cpu/cpu0/cache/index", index, "/size"));
    std::string text;
    if (!(file >> text)) continue;
    largest = std::max(largest, ParseCacheSize(text));
  }
#ifdef _SC_LEVEL3_CACHE_SIZE
  long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (l3 > 0) largest = std::max(largest, static_cast<size_t>(l3));
#endif
  return largest;
}

// This thread's scratch memory, kept between measurements. A persistent measure child times
// thousands of candidates; mapping and faulting in a fresh 64 MB buffer for each (freed back to
// the system after every candidate) took 40 % of a cold-timing child's time, more than the writes.
class ScratchBuffer {
 public:
  // At least `bytes`, every page written once: never-written pages all map the one zero page,
  // and reading them would fill no cache.
  char* Get(size_t bytes) {
    if (bytes > bytes_) {
      data_.reset(static_cast<char*>(AllocateHugePageBuffer(bytes)));
      bytes_ = data_ != nullptr ? bytes : 0;
      if (data_ != nullptr) std::memset(data_.get(), 1, bytes);
    }
    return data_.get();
  }

 private:
  struct Free {
    void operator()(char* p) const { std::free(p); }
  };
  std::unique_ptr<char, Free> data_;
  size_t bytes_ = 0;
};

ScratchBuffer& ThreadScratch() {
  thread_local ScratchBuffer buffer;
  return buffer;
}

// Loads one byte of every line: the lines are cached afterwards, and nothing is written.
void ReadLines(const void* data, size_t bytes) {
  const auto* begin = static_cast<const volatile unsigned char*>(data);
  unsigned sum = 0;
  for (size_t offset = 0; offset < bytes; offset += kLine) sum += begin[offset];
  if (bytes > 0) sum += begin[bytes - 1];
  asm volatile("" : : "r"(sum));
}

}  // namespace

void EvictFromCaches(MemoryRegion region) {
  const auto* begin = static_cast<const char*>(region.data);
  const char* end = begin + region.bytes;
#if defined(__x86_64__)
  for (const char* p = begin; p < end; p += kLine) _mm_clflush(p);
  if (region.bytes > 0) _mm_clflush(end - 1);
  _mm_mfence();
#elif defined(__aarch64__)
  for (const char* p = begin; p < end; p += kLine)
    asm volatile("dc civac, %0" : : "r"(p) : "memory");
  if (region.bytes > 0) asm volatile("dc civac, %0" : : "r"(end - 1) : "memory");
  asm volatile("dsb ish" : : : "memory");
#else
  (void)end;
  FlushCaches(CacheFlushBytes());
#endif
}

void FlushCaches(size_t bytes) {
  static thread_local unsigned char round = 0;
  char* buffer = ThreadScratch().Get(bytes);
  if (buffer == nullptr) return;
  std::memset(buffer, ++round, bytes);
  // The buffer is never read: keep the compiler from dropping the stores.
  asm volatile("" : : "r"(buffer) : "memory");
}

size_t CacheFlushBytes() {
  static const size_t bytes = [] {
    size_t largest = LargestCacheBytes();
    return largest > 0 ? 2 * largest : size_t{64} << 20;
  }();
  return bytes;
}

size_t RefillBytes(const LayerCacheState& state) {
  double weight_bytes = 0;
  for (const MemoryRegion& region : state.weights)
    weight_bytes += static_cast<double>(region.bytes);
  const double wanted = state.refill_ratio * weight_bytes;
  return static_cast<size_t>(std::min(wanted, static_cast<double>(CacheFlushBytes())));
}

void RecreateLayerCacheState(const LayerCacheState& state) {
  for (const MemoryRegion& region : state.weights) EvictFromCaches(region);
  if (const size_t refill = RefillBytes(state); refill > 0) {
    if (const char* buffer = ThreadScratch().Get(refill); buffer != nullptr) {
      ReadLines(buffer, refill);
    }
  }
  for (const MemoryRegion& region : state.inputs) ReadLines(region.data, region.bytes);
}

}  // namespace tunefarm::runtime

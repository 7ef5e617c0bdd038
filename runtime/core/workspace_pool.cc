#include "runtime/core/workspace_pool.h"

#include <cstdlib>
#include <cstring>
#include <vector>

#include "runtime/core/c_abi.h"
#include "runtime/core/huge_page_buffer.h"

namespace tunefarm::runtime {
namespace {

// Right before each pointer handed out: how large its buffer is and where its allocation starts,
// so that a free (from any thread) can keep it.
struct Header {
  uint64_t capacity;  // usable bytes from the pointer on
  uint64_t offset;    // from the allocation's start to the pointer: the alignment, >= 64
};

constexpr uint64_t kMaxAlignment = 4096;

struct Kept {
  unsigned char* pointer;
  Header header;
};

class ThreadWorkspace {
 public:
  ~ThreadWorkspace() {
    for (const Kept& k : kept_) std::free(k.pointer - k.header.offset);
  }

  void* Allocate(uint64_t alignment, uint64_t bytes) {
    ++stats_.allocations;
    // aligned_alloc's contract: a power of two (0 taken as no requirement).
    if ((alignment & (alignment - 1)) != 0 || alignment > kMaxAlignment) return nullptr;
    const uint64_t align = alignment < 64 ? 64 : alignment;
    // The smallest kept buffer that fits, unless it would waste more than it holds.
    int best = -1;
    for (int i = 0; i < static_cast<int>(kept_.size()); ++i) {
      const Header& h = kept_[i].header;
      if (h.offset % align == 0 && h.capacity >= bytes && h.capacity <= 2 * bytes + 4096 &&
          (best < 0 || h.capacity < kept_[best].header.capacity)) {
        best = i;
      }
    }
    if (best >= 0) {
      unsigned char* p = kept_[best].pointer;
      stats_.pooled_bytes -= kept_[best].header.capacity;
      kept_.erase(kept_.begin() + best);
      ++stats_.reused;
      return p;
    }
    if (bytes > UINT64_MAX - 2 * kMaxAlignment) return nullptr;
    const uint64_t total = (align + bytes + align - 1) / align * align;
    // From 2 MiB up: huge-page aligned (so any alignment here), advised as huge pages.
    void* base =
        total >= kHugePageBytes ? AllocateHugePageBuffer(total) : std::aligned_alloc(align, total);
    if (base == nullptr) return nullptr;
    unsigned char* p = static_cast<unsigned char*>(base) + align;
    const Header h{total - align, align};
    std::memcpy(p - sizeof(Header), &h, sizeof h);
    return p;
  }

  void Free(void* pointer) {
    if (pointer == nullptr) return;
    Kept k{static_cast<unsigned char*>(pointer), {}};
    std::memcpy(&k.header, k.pointer - sizeof(Header), sizeof(Header));
    kept_.push_back(k);
    stats_.pooled_bytes += k.header.capacity;
    // Over the caps: the oldest kept go back to the OS.
    while (static_cast<int>(kept_.size()) > kMaxPooledBuffers ||
           stats_.pooled_bytes > kMaxPooledBytes) {
      const Kept& oldest = kept_.front();
      stats_.pooled_bytes -= oldest.header.capacity;
      std::free(oldest.pointer - oldest.header.offset);
      kept_.erase(kept_.begin());
    }
  }

  WorkspacePoolStats stats() const {
    WorkspacePoolStats s = stats_;
    s.pooled_buffers = static_cast<int>(kept_.size());
    return s;
  }

 private:
  std::vector<Kept> kept_;  // oldest first
  WorkspacePoolStats stats_;
};

ThreadWorkspace& ThisThreadWorkspace() {
  thread_local ThreadWorkspace workspace;
  return workspace;
}

}  // namespace

WorkspacePoolStats ThisThreadWorkspaceStats() { return ThisThreadWorkspace().stats(); }

}  // namespace tunefarm::runtime

extern "C" void* TFBackendWorkspaceAlloc(uint64_t alignment, uint64_t bytes) {
  return tunefarm::runtime::ThisThreadWorkspace().Allocate(alignment, bytes);
}

extern "C" void TFBackendWorkspaceFree(void* p) {
  tunefarm::runtime::ThisThreadWorkspace().Free(p);
}

// The kernels' workspace pool: a freed buffer serves the thread's next request of its size, the
// alignment asked for is kept, the pool holds at most its caps, and a buffer freed on another
// thread is kept there.
#include "runtime/core/workspace_pool.h"

#include <cstring>
#include <gtest/gtest.h>
#include <thread>
#include <vector>

#include "runtime/core/c_abi.h"

namespace tunefarm::runtime {
namespace {

TEST(WorkspacePoolTest, AFreedBufferServesTheNextRequestOfItsSize) {
  const WorkspacePoolStats before = ThisThreadWorkspaceStats();
  void* a = TFBackendWorkspaceAlloc(64, 1 << 20);
  ASSERT_NE(a, nullptr);
  std::memset(a, 7, 1 << 20);
  TFBackendWorkspaceFree(a);
  void* b = TFBackendWorkspaceAlloc(64, (1 << 20) - 100);
  EXPECT_EQ(b, a) << "the kept buffer, not new pages";
  // A much smaller request does not take a buffer that would waste most of it.
  void* small = TFBackendWorkspaceAlloc(64, 1000);
  EXPECT_NE(small, a);
  TFBackendWorkspaceFree(small);
  TFBackendWorkspaceFree(b);
  const WorkspacePoolStats after = ThisThreadWorkspaceStats();
  EXPECT_EQ(after.allocations - before.allocations, 3);
  EXPECT_EQ(after.reused - before.reused, 1);
}

TEST(WorkspacePoolTest, AlignmentsUpToAPageAreKeptAndOthersRefused) {
  for (uint64_t alignment : {1, 16, 64, 128, 4096}) {
    for (uint64_t bytes : {uint64_t{1}, uint64_t{100000}, uint64_t{3} << 20}) {
      void* p = TFBackendWorkspaceAlloc(alignment, bytes);
      ASSERT_NE(p, nullptr) << alignment << " " << bytes;
      EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % std::max<uint64_t>(alignment, 64), 0u);
      static_cast<unsigned char*>(p)[bytes - 1] = 1;
      TFBackendWorkspaceFree(p);
    }
  }
  EXPECT_EQ(TFBackendWorkspaceAlloc(3, 64), nullptr);
  EXPECT_EQ(TFBackendWorkspaceAlloc(8192, 64), nullptr);
  EXPECT_EQ(TFBackendWorkspaceAlloc(64, ~uint64_t{0}), nullptr) << "refused, not wrapped";
  TFBackendWorkspaceFree(nullptr);
}

TEST(WorkspacePoolTest, ThePoolKeepsAtMostItsCaps) {
  std::vector<void*> held;
  for (int i = 0; i < kMaxPooledBuffers + 8; ++i) {
    held.push_back(TFBackendWorkspaceAlloc(64, 4096 * (i + 1)));
  }
  for (void* p : held) TFBackendWorkspaceFree(p);
  const WorkspacePoolStats s = ThisThreadWorkspaceStats();
  EXPECT_EQ(s.pooled_buffers, kMaxPooledBuffers);
  EXPECT_LE(s.pooled_bytes, kMaxPooledBytes);
}

TEST(WorkspacePoolTest, ABufferFreedOnAnotherThreadIsKeptThere) {
  void* p = TFBackendWorkspaceAlloc(64, 200000);
  ASSERT_NE(p, nullptr);
  WorkspacePoolStats other;
  std::thread t([&] {
    TFBackendWorkspaceFree(p);
    void* again = TFBackendWorkspaceAlloc(64, 200000);
    EXPECT_EQ(again, p);
    TFBackendWorkspaceFree(again);
    other = ThisThreadWorkspaceStats();
  });
  t.join();
  EXPECT_EQ(other.reused, 1);
  EXPECT_EQ(other.pooled_buffers, 1) << "until the thread ended, which gave it back";
}

}  // namespace
}  // namespace tunefarm::runtime

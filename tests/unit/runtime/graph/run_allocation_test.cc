// Run() allocates nothing: the global operator new is replaced in this binary and counts, on any
// thread, while a window is open; 100 runs of the MLP (kernels on a 2-thread pool) must count 0.
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <new>

#include "runtime/core/thread_pool.h"
#include "runtime/graph/graph_executor.h"
#include "tests/unit/runtime/graph/test_models.h"

namespace {

std::atomic<bool> counting{false};
std::atomic<int64_t> allocations{0};
std::string* probe = nullptr;  // global, so the probe allocation cannot be elided

void* CountedAlloc(std::size_t size) {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}

}  // namespace

void* operator new(std::size_t size) { return CountedAlloc(size); }
void* operator new[](std::size_t size) { return CountedAlloc(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace tunefarm::runtime {
namespace {

TEST(RunAllocationTest, HundredRunsAllocateNothing) {
  const std::string dir = testing::ScratchDir("alloc");
  testing::TestModel m = testing::MakeMlp();
  std::string error;
  std::string path = testing::BuildModelLibrary(m.source, dir + "/mlp", &error);
  ASSERT_FALSE(path.empty()) << error;
  auto exec = GraphExecutor::Load(path, &error);
  ASSERT_NE(exec, nullptr) << error;
  ASSERT_TRUE(SetNumThreads(2, &error)) << error;
  std::vector<float> x = testing::RandomFloats(32, 9);
  ASSERT_TRUE(exec->SetInput("x", x.data(), 128, &error));
  ASSERT_TRUE(exec->Run(&error)) << error;  // starts the pool's workers
  counting = true;
  bool ok = true;
  for (int i = 0; i < 100; ++i) ok = exec->Run() && ok;
  counting = false;
  EXPECT_TRUE(ok);
  EXPECT_EQ(allocations.load(), 0) << "allocations across 100 runs";
  // The counter works: a std::string of this size allocates.
  counting = true;
  probe = new std::string(100, 'x');
  counting = false;
  delete probe;
  EXPECT_GE(allocations.load(), 1);
  SetNumThreads(0);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tunefarm::runtime

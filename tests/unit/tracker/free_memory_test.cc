// The tracker hands memory its threads freed back to the system: a burst of small allocations
// freed on another thread (as a build is) no longer stays resident.
#include "tracker/free_memory.h"

#include <fstream>
#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace tunefarm::tracker {
namespace {

int64_t ResidentKb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoll(line.substr(6));
  }
  return -1;
}

TEST(FreeMemoryTest, FreedMemoryOfAnotherThreadLeavesTheProcess) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "a sanitizer's allocator keeps its own free lists";
#endif
  ResidentKb();
  // 128 MiB in 2 KiB blocks on a thread of its own (its own arena), all freed again, except one
  // block in 64 that stays alive, as a build's results do: the arena cannot shrink from its top.
  std::vector<std::unique_ptr<char[]>> kept;
  std::thread burst([&] {
    std::vector<std::unique_ptr<char[]>> blocks;
    for (int i = 0; i < 65536; ++i) {
      blocks.push_back(std::make_unique<char[]>(2048));
      blocks.back()[0] = 1;  // touched, so resident
    }
    for (size_t i = 0; i < blocks.size(); i += 64) kept.push_back(std::move(blocks[i]));
  });
  burst.join();
  const int64_t before = ResidentKb();
  ReleaseFreeMemory();
  const int64_t after = ResidentKb();
  ASSERT_GT(before, 0);
  EXPECT_LT(after, before - 64 * 1024)
      << "resident " << before << " KB before, " << after << " KB after";
}

}  // namespace
}  // namespace tunefarm::tracker

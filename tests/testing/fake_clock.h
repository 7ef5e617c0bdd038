// A Clock that tests set and advance; reads and writes may come from any thread.
#pragma once

#include <atomic>
#include <cstdint>

#include "runtime/clock.h"

namespace tunefarm::fixtures {

class FakeClock final : public runtime::Clock {
 public:
  explicit FakeClock(int64_t now_ms = 1'700'000'000'000) : now_ms_(now_ms) {}
  int64_t NowMs() const override { return now_ms_.load(); }
  void Set(int64_t now_ms) { now_ms_.store(now_ms); }
  void Advance(int64_t ms) { now_ms_.fetch_add(ms); }

 private:
  std::atomic<int64_t> now_ms_;
};

}  // namespace tunefarm::fixtures

#include "runtime/clock.h"

#include <chrono>

namespace tunefarm::runtime {
namespace {

class SystemWallClock final : public Clock {
 public:
  int64_t NowMs() const override {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
};

}  // namespace

const Clock& SystemClock() {
  static const SystemWallClock clock;
  return clock;
}

}  // namespace tunefarm::runtime

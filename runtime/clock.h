// The wall clock as the farm's parts read it (record timestamps, job times, leases, heartbeats,
// session deadlines): one interface, injected through each part's options so that tests move
// time themselves instead of sleeping.
#pragma once

#include <cstdint>

namespace tunefarm::runtime {

class Clock {
 public:
  virtual ~Clock() = default;
  // Milliseconds since the Unix epoch.
  virtual int64_t NowMs() const = 0;
};

// The system's wall clock; lives for the process.
const Clock& SystemClock();

}  // namespace tunefarm::runtime

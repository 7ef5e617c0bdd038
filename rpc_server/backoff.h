// Backoff: the reconnect schedule of the worker. Delays double from an initial value up to a cap,
// each drawn with jitter so that a fleet that lost its tracker does not reconnect in lockstep.
#pragma once

#include <cstdint>
#include <random>

namespace tunefarm::rpc_server {

class Backoff {
 public:
  // `initial_s` > 0 and `max_s` >= `initial_s` (smaller values are raised to fit).
  Backoff(double initial_s, double max_s, uint64_t seed);

  // The next delay: uniform in [base / 2, base], where base is initial_s * 2^attempt capped at
  // max_s. Each call is one more attempt.
  double NextDelay();
  // After a successful connection: the next delay starts from initial_s again.
  void Reset() { attempt_ = 0; }
  int attempt() const { return attempt_; }

 private:
  double initial_s_;
  double max_s_;
  int attempt_ = 0;
  std::mt19937_64 rng_;
};

}  // namespace tunefarm::rpc_server

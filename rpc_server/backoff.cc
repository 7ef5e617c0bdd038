#include "rpc_server/backoff.h"

#include <algorithm>
#include <cmath>

namespace tunefarm::rpc_server {

Backoff::Backoff(double initial_s, double max_s, uint64_t seed)
    : initial_s_(initial_s > 0 ? initial_s : 0.001),
      max_s_(std::max(max_s, initial_s > 0 ? initial_s : 0.001)),
      rng_(seed) {}

double Backoff::NextDelay() {
  // Cap the exponent first: 2^attempt overflows long before a worker gives up.
  const int exponent = std::min(attempt_, 60);
  const double base = std::min(max_s_, initial_s_ * std::ldexp(1.0, exponent));
  ++attempt_;
  // Half the base is fixed, half random ("equal jitter"): never a zero delay, yet spread out.
  std::uniform_real_distribution<double> jitter(0.5, 1.0);
  return base * jitter(rng_);
}

}  // namespace tunefarm::rpc_server

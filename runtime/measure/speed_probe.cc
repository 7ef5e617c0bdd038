#include "runtime/measure/speed_probe.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "runtime/time_evaluator.h"

namespace tunefarm::runtime::measure {
namespace {

constexpr int kLength = 4096;  // 16 KiB of floats: in L1 everywhere
constexpr int kPasses = 512;

// Eight independent multiply-add chains over the buffer: throughput-bound, as kernels are.
float RunOnce(const std::array<float, kLength>& data) {
  std::array<float, 8> acc{};
  for (int pass = 0; pass < kPasses; ++pass) {
    for (int i = 0; i < kLength; i += 8) {
      for (int lane = 0; lane < 8; ++lane) acc[lane] = acc[lane] * 0.999f + data[i + lane];
    }
  }
  float sum = 0;
  for (float a : acc) sum += a;
  return sum;
}

}  // namespace

double SpeedProbeSeconds() {
  std::array<float, kLength> data;
  for (int i = 0; i < kLength; ++i) data[i] = static_cast<float>(i % 17) * 0.25f;
  double best = 0;
  volatile float sink = 0;  // the result is used, so the work is done
  for (int run = 0; run < 3; ++run) {
    const double start = SteadySeconds();
    sink = sink + RunOnce(data);
    const double seconds = SteadySeconds() - start;
    if (run == 0 || seconds < best) best = seconds;
  }
  return best;
}

double Slowness(double theirs, double ours) {
  if (!std::isfinite(theirs) || !std::isfinite(ours) || theirs <= 0 || ours <= 0) return 1;
  return std::clamp(theirs / ours, 1.0, 100.0);
}

}  // namespace tunefarm::runtime::measure

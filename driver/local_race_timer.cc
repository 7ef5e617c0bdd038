#include "driver/local_race_timer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>

#include "driver/model_executor.h"
#include "runtime/measure/random_fill.h"
#include "runtime/ndarray.h"

namespace tunefarm::driver {
namespace {

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The module loaded, its inputs seeded as a worker's TimeModel seeds them, and run once (page
// faults, the workspace pool's first allocations).
absl::StatusOr<std::unique_ptr<ModelExecutor>> Prepare(const std::string& path) {
  absl::StatusOr<std::unique_ptr<ModelExecutor>> executor = OpenModelModule(path);
  if (!executor.ok()) return executor.status();
  uint64_t seed = 1;
  for (int i = 0; i < static_cast<int>((*executor)->inputs().size()); ++i) {
    const runtime::GraphTensorInfo& in = (*executor)->inputs()[i];
    absl::StatusOr<runtime::NDArray> values = runtime::NDArray::Empty(in.shape, in.dtype);
    if (!values.ok()) return values.status();
    runtime::measure::FillSeededRandom(*values, seed++);
    if (absl::Status s = (*executor)->SetInput(i, values->data(), in.bytes); !s.ok()) return s;
  }
  if (absl::Status s = (*executor)->Run(); !s.ok()) return s;
  return executor;
}

// Mean seconds of `runs` back-to-back runs.
absl::StatusOr<double> Slot(ModelExecutor& executor, int runs) {
  const auto start = std::chrono::steady_clock::now();
  for (int r = 0; r < runs; ++r) {
    if (absl::Status s = executor.Run(); !s.ok()) return s;
  }
  return SecondsSince(start) / runs;
}

}  // namespace

ModuleRaceTimer LocalRaceTimer(int rounds, double slot_ms) {
  return [rounds, slot_ms](const std::string& incumbent,
                           const std::string& challenger) -> absl::StatusOr<RaceTimes> {
    std::unique_ptr<ModelExecutor> executors[2];
    int runs[2] = {1, 1};
    const std::string* paths[2] = {&incumbent, &challenger};
    for (int m = 0; m < 2; ++m) {
      absl::StatusOr<std::unique_ptr<ModelExecutor>> e = Prepare(*paths[m]);
      if (!e.ok()) return e.status();
      executors[m] = *std::move(e);
      absl::StatusOr<double> once = Slot(*executors[m], 1);
      if (!once.ok()) return once.status();
      runs[m] = static_cast<int>(std::clamp(std::ceil(slot_ms * 1e-3 / *once), 1.0, 10000.0));
    }
    RaceTimes times;
    times.timed_by = "local";
    for (int r = 0; r < rounds; ++r) {
      double sum[2] = {0, 0};
      const int order[4] = {r % 2, 1 - r % 2, 1 - r % 2, r % 2};
      for (int m : order) {
        absl::StatusOr<double> seconds = Slot(*executors[m], runs[m]);
        if (!seconds.ok()) return seconds.status();
        sum[m] += *seconds;
      }
      times.incumbent.push_back(sum[0] / 2);
      times.challenger.push_back(sum[1] / 2);
    }
    return times;
  };
}

}  // namespace tunefarm::driver

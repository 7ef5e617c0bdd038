// The local measurement pair (parallel builder + isolated runner) made from one set of options,
// as the tune command, the benchmarks and the tests all set it up.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "tuner/measure.h"
#include "tuner/measure/local_builder.h"
#include "tuner/measure/local_runner.h"

namespace tunefarm::tuner {

struct LocalMeasure {
  std::unique_ptr<LocalBuilder> builder;
  std::unique_ptr<LocalRunner> runner;
};

// `device_key` empty: the runner's default ("local-<cpu>").
absl::StatusOr<LocalMeasure> MakeLocalMeasure(const MeasureOptions& options,
                                              const std::string& device_key = "");

}  // namespace tunefarm::tuner

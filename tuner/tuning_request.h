// What a tuning run is asked for, wherever it runs: `tune` and `model tune` (local or through a
// farm), a farm job (one task) and a model job (its trials spread over the model's tasks) all
// carry this one request.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/measure/measure_options.h"

namespace tunefarm::tuner {

struct TuningRequest {
  std::string target = "llvm";
  // The device key results are filed under: a farm job's is its workers'; a local run's empty
  // key is the local runner's own ("local-<cpu>").
  std::string device_key;
  int trials = 0;             // a model's: over all its tasks
  std::string tuner = "xgb";  // xgb | random | grid | ga
  int batch_size = 16;        // candidates proposed and measured at a time
  int early_stopping = 0;     // trials without a new best before a task stops; 0: never
  uint64_t seed = 1;          // the search's (the measure options seed the generated inputs)
  runtime::measure::MeasureOptions measure;
  int priority = 1;       // a farm job's share of the fleet, 1..100
  bool transfer = false;  // warm the xgb model from records of other shapes of the template
};

}  // namespace tunefarm::tuner

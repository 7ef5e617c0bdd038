// A TuningRequest's fields in the submit messages (SubmitJobRequest and SubmitModelJobRequest
// carry them under the same names), with the documented defaults for unset ones. Each message
// maps what only it has (a job's early stopping, how each says `transfer`) itself.
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "proto/mapping/measure_options_proto.h"
#include "proto/mapping/or_default.h"
#include "tuner/tuning_request.h"

namespace tunefarm::farm_api {

template <typename SubmitRequest>
absl::Status ReadTuningRequestProto(const SubmitRequest& p, tuner::TuningRequest& r) {
  using proto_mapping::OrDefault;
  r.target = p.target().empty() ? "llvm" : p.target();
  r.device_key = p.device_key();
  r.trials = p.trials();
  r.tuner = p.tuner().empty() ? "xgb" : p.tuner();
  r.batch_size = OrDefault(p.batch_size(), 16);
  r.seed = OrDefault<uint64_t>(p.seed(), 1);
  absl::StatusOr<runtime::measure::MeasureOptions> measure =
      proto_mapping::MeasureOptionsFromProto(p.measure());
  if (!measure.ok()) return measure.status();
  r.measure = *measure;
  if (p.measure().seed() == 0) r.measure.seed = r.seed;
  r.priority = OrDefault(p.priority(), 1);
  return absl::OkStatus();
}

template <typename SubmitRequest>
void WriteTuningRequestProto(const tuner::TuningRequest& r, SubmitRequest& p) {
  p.set_target(r.target);
  p.set_device_key(r.device_key);
  p.set_trials(r.trials);
  p.set_tuner(r.tuner);
  p.set_batch_size(r.batch_size);
  p.set_seed(r.seed);
  *p.mutable_measure() = proto_mapping::MeasureOptionsToProto(r.measure);
  p.set_priority(r.priority);
}

}  // namespace tunefarm::farm_api

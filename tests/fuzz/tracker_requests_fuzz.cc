// What a client or a worker sends the tracker, through the same conversions and checks the
// services run at their edge: a SubmitJobRequest or SubmitModelJobRequest (the bytes as
// protobuf) into a validated spec, the stored JSON back into a spec, and a worker's result.
// Validation only: nothing is queued or measured.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "proto/tunefarm/v1/tracker.pb.h"
#include "proto/tunefarm/v1/worker.pb.h"
#include "tracker/job.h"
#include "tracker/job_runner.h"
#include "tracker/model_job.h"
#include "tracker/service/model_job_conversion.h"
#include "tracker/service/proto_conversion.h"

namespace tracker = tunefarm::tracker;
namespace v1 = tunefarm::v1;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  v1::SubmitJobRequest request;
  if (request.ParseFromArray(data, static_cast<int>(size))) {
    absl::StatusOr<tracker::JobSpec> spec = tracker::JobSpecFromProto(request);
    if (spec.ok() && tracker::ValidateJobSpec(*spec, /*max_trials=*/100000).ok()) {
      // A spec the tracker accepts is stored as JSON and read back after a restart.
      absl::StatusOr<tracker::JobSpec> again =
          tracker::JobSpecFromJson(tracker::JobSpecToJson(*spec));
      if (!again.ok()) std::abort();
    }
  }
  v1::SubmitModelJobRequest model_request;
  if (model_request.ParseFromArray(data, static_cast<int>(size))) {
    absl::StatusOr<tracker::ModelJobSpec> spec = tracker::ModelJobSpecFromProto(model_request);
    if (spec.ok() && tracker::ValidateModelJobSpec(*spec, /*max_trials=*/100000).ok()) {
      absl::StatusOr<tracker::ModelJobSpec> again =
          tracker::ModelJobSpecFromJson(tracker::ModelJobSpecToJson(*spec));
      if (!again.ok() || again->tasks.size() != spec->tasks.size()) std::abort();
    }
  }
  v1::LeaseResult result;
  if (result.ParseFromArray(data, static_cast<int>(size))) {
    tracker::WorkOutcome o = tracker::WorkOutcomeFromResult(result, "fuzz-worker");
    // A result is timings or libraries, never both, and an ok one has one of them.
    if (o.built && !o.repeat_seconds.empty()) std::abort();
    if (o.error_kind == tunefarm::tuner::ErrorKind::kOk && !o.unbuilt && !o.built &&
        o.repeat_seconds.empty()) {
      std::abort();
    }
  }
  (void)tracker::JobSpecFromJson(bytes);
  (void)tracker::ModelJobSpecFromJson(bytes);
  return 0;
}

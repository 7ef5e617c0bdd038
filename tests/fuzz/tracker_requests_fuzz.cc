// What a client or a worker sends the tracker, through the same conversions and checks the
// services run at their edge: a SubmitJobRequest or SubmitModelJobRequest (the bytes as
// protobuf) into a validated spec, the stored JSON back into a spec, and a worker's result.
// Validation only: nothing is queued or measured.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "farm_api/job.h"
#include "farm_api/model_job.h"
#include "farm_api/model_job_proto.h"
#include "proto/tunefarm/v1/tracker.pb.h"
#include "proto/tunefarm/v1/worker.pb.h"
#include "tracker/job_runner.h"
#include "tracker/service/proto_conversion.h"

namespace farm_api = tunefarm::farm_api;
namespace tracker = tunefarm::tracker;
namespace v1 = tunefarm::v1;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  v1::SubmitJobRequest request;
  if (request.ParseFromArray(data, static_cast<int>(size))) {
    absl::StatusOr<farm_api::JobSpec> spec = farm_api::JobSpecFromProto(request);
    if (spec.ok() && tracker::ValidateJobSpec(*spec, /*max_trials=*/100000).ok()) {
      // A spec the tracker accepts is stored as JSON and read back after a restart.
      absl::StatusOr<farm_api::JobSpec> again =
          farm_api::JobSpecFromJson(farm_api::JobSpecToJson(*spec));
      if (!again.ok()) std::abort();
    }
  }
  v1::SubmitModelJobRequest model_request;
  if (model_request.ParseFromArray(data, static_cast<int>(size))) {
    absl::StatusOr<farm_api::ModelJobSpec> spec = farm_api::ModelJobSpecFromProto(model_request);
    if (spec.ok() && tracker::ValidateModelJobSpec(*spec, /*max_trials=*/100000).ok()) {
      absl::StatusOr<farm_api::ModelJobSpec> again =
          farm_api::ModelJobSpecFromJson(farm_api::ModelJobSpecToJson(*spec));
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
  (void)farm_api::JobSpecFromJson(bytes);
  (void)farm_api::ModelJobSpecFromJson(bytes);
  return 0;
}

// Conversions between the model job messages of tracker.proto and the tracker's model job types
// (the proto's zeros made the documented defaults here, as proto_conversion.h does for jobs).
#pragma once

#include "absl/status/statusor.h"
#include "farm_api/model_job.h"
#include "proto/tunefarm/v1/tracker.pb.h"

namespace tunefarm::farm_api {

// InvalidArgument for measure options proto_mapping refuses; ModelJobManager::Submit validates
// the rest. Without a measure seed of its own, the model job's seed seeds the inputs.
absl::StatusOr<ModelJobSpec> ModelJobSpecFromProto(const v1::SubmitModelJobRequest& request);
v1::ModelJob ModelJobStatusToProto(const ModelJobStatus& status);

// The client's side.
v1::SubmitModelJobRequest ModelJobSpecToProto(const ModelJobSpec& spec);
ModelJobStatus ModelJobStatusFromProto(const v1::ModelJob& job);

}  // namespace tunefarm::farm_api

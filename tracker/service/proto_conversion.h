// Conversions between the tunefarm.v1 messages and the tracker's C++ types. A proto3 zero means
// "the default" wherever common.proto and tracker.proto say so; that rule lives here only.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "proto/tunefarm/v1/tracker.pb.h"
#include "proto/tunefarm/v1/worker.pb.h"
#include "tracker/dispatcher.h"
#include "tracker/job.h"
#include "tuner/measure.h"
#include "tuner/record.h"

namespace tunefarm::v1 {
class OpenSessionRequest;  // session.proto
}  // namespace tunefarm::v1

namespace tunefarm::tracker {

// Applies the documented defaults; InvalidArgument for what the proto cannot express (both or
// neither of workload and script) and for measure options proto_mapping refuses. Without a
// measure seed of its own, the job's seed also seeds the generated inputs.
// JobManager::Submit validates the rest.
absl::StatusOr<JobSpec> JobSpecFromProto(const v1::SubmitJobRequest& request);

// OpenSession's waits, the proto's zeros made defaults.
struct SessionTimeouts {
  double wait_s = 30;           // for an idle worker
  double idle_timeout_s = 300;  // the session ends after this long without a call
};
// InvalidArgument naming wait_s or idle_timeout_s unless each is finite and in [0, 86400] s.
absl::StatusOr<SessionTimeouts> SessionTimeoutsFromProto(const v1::OpenSessionRequest& request);

v1::JobState JobStateToProto(JobState state);
v1::Job JobStatusToProto(const JobStatus& status);

// `flops` of the record's workload, when known, gives its GFLOPS.
v1::Record RecordToProto(const tuner::Record& record, double flops);

v1::WorkerInfo WorkerSnapshotToProto(const WorkerSnapshot& worker);
WorkerDescription WorkerDescriptionFromRegister(const v1::Register& reg);

// A worker's result: a measurement, a refusal to build (unbuilt), or a builder's libraries
// (hashed here). An unknown error kind, "ok" without sane timings or a library without bytes
// becomes runtime_error with a message saying why: the worker's report is recorded, never dropped.
WorkOutcome WorkOutcomeFromResult(const v1::LeaseResult& result, const std::string& worker_id);

// The client's directions (`tunefarm tune --tracker`, jobs, workers, best).
v1::SubmitJobRequest JobSpecToProto(const JobSpec& spec);
JobState JobStateFromProto(v1::JobState state);
JobStatus JobStatusFromProto(const v1::Job& job);
WorkerSnapshot WorkerSnapshotFromProto(const v1::WorkerInfo& worker);
// An unknown error kind reads as runtime_error.
tuner::Record RecordFromProto(const v1::Record& record);

}  // namespace tunefarm::tracker

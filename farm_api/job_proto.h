// Conversions between the tunefarm.v1 messages and the farm's job, worker and record types, both
// ways: the tracker answers with them, clients read them. A proto3 zero means "the default"
// wherever common.proto and tracker.proto say so; that rule lives here only.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "farm_api/job.h"
#include "farm_api/worker_info.h"
#include "proto/tunefarm/v1/tracker.pb.h"
#include "tuner/record.h"

namespace tunefarm::farm_api {

// Applies the documented defaults; InvalidArgument for what the proto cannot express (both or
// neither of workload and script) and for measure options proto_mapping refuses. Without a
// measure seed of its own, the job's seed also seeds the generated inputs.
// The tracker's JobManager::Submit validates the rest.
absl::StatusOr<JobSpec> JobSpecFromProto(const v1::SubmitJobRequest& request);

v1::JobState JobStateToProto(JobState state);
v1::Job JobStatusToProto(const JobStatus& status);

// `flops` of the record's workload, when known, gives its GFLOPS.
v1::Record RecordToProto(const tuner::Record& record, double flops);

v1::WorkerInfo WorkerSnapshotToProto(const WorkerSnapshot& worker);
v1::GpuLimits GpuDescriptionToProto(const GpuDescription& gpu);
GpuDescription GpuDescriptionFromProto(const v1::GpuLimits& gpu);

// The client's directions (`tunefarm tune --tracker`, jobs, workers, best).
v1::SubmitJobRequest JobSpecToProto(const JobSpec& spec);
JobState JobStateFromProto(v1::JobState state);
JobStatus JobStatusFromProto(const v1::Job& job);
WorkerSnapshot WorkerSnapshotFromProto(const v1::WorkerInfo& worker);
// How a reply says its candidates were timed; a timing this client does not know (a newer
// tracker's) reads as every cache flushed, never as warm.
tuner::CacheFlush CacheFlushOfReply(int cache_flush, const char* field);
// An unknown error kind reads as runtime_error.
tuner::Record RecordFromProto(const v1::Record& record);

}  // namespace tunefarm::farm_api

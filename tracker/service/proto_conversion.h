// Conversions between the tunefarm.v1 messages and the tracker's own C++ types (sessions, worker
// registrations and results); jobs and workers as clients see them are farm_api/job_proto.h.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "farm_api/job_proto.h"
#include "proto/tunefarm/v1/tracker.pb.h"
#include "proto/tunefarm/v1/worker.pb.h"
#include "tracker/dispatcher.h"
#include "tuner/measure.h"
#include "tuner/record.h"

namespace tunefarm::v1 {
class OpenSessionRequest;  // session.proto
}  // namespace tunefarm::v1

namespace tunefarm::tracker {

// OpenSession's waits, the proto's zeros made defaults.
struct SessionTimeouts {
  double wait_s = 30;           // for an idle worker
  double idle_timeout_s = 300;  // the session ends after this long without a call
};
// InvalidArgument naming wait_s or idle_timeout_s unless each is finite and in [0, 86400] s.
absl::StatusOr<SessionTimeouts> SessionTimeoutsFromProto(const v1::OpenSessionRequest& request);

farm_api::WorkerDescription WorkerDescriptionFromRegister(const v1::Register& reg);

// A worker's result: a measurement, a refusal to build (unbuilt), or a builder's libraries
// (hashed here). An unknown error kind, "ok" without sane timings or a library without bytes
// becomes runtime_error with a message saying why: the worker's report is recorded, never dropped.
WorkOutcome WorkOutcomeFromResult(const v1::LeaseResult& result, const std::string& worker_id);

}  // namespace tunefarm::tracker

// A farm job's verified best: its fastest recorded configs and the default, built here for the
// job's target, uploaded to one worker of its key and timed there in alternating rounds (the same
// numbers a local `tune` prints, measured where the job measured).
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "client/farm_client.h"
#include "farm_api/job.h"
#include "tuner/measure/verified_best.h"

namespace tunefarm::client {

// The top 5 records timed on the device (hot, as they were tuned) against the default, at
// `threads` (0: the device's default); `*worker` names the worker that timed them. Unimplemented
// for a GPU target (remote sessions load CPU libraries only); the farm's and the build's errors.
absl::StatusOr<tuner::VerifiedBest> VerifyJobBestOnDevice(FarmClient& client,
                                                          const FarmAddress& farm,
                                                          const farm_api::JobStatus& job,
                                                          int threads, std::string* worker);

}  // namespace tunefarm::client

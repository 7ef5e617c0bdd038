// FarmClient: the command line's connection to a tracker (jobs, workers, best configs, remote
// sessions) over the tunefarm.v1 gRPC API. gRPC types stay in the .cc, so commands and tests
// include this cheaply.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "farm_api/job.h"
#include "farm_api/model_job.h"
#include "farm_api/worker_info.h"
#include "tuner/record.h"

namespace tunefarm::client {

struct FarmClientOptions {
  std::string address = "127.0.0.1:9190";
  std::string token;               // sent as "authorization: Bearer <token>"
  std::string tls_root_cert_file;  // set: TLS, verifying the tracker against this CA
  double call_timeout_s = 60;      // per unary call
};

// How a command reaches the farm (--tracker, --token-file, --tls-root-cert).
struct FarmAddress {
  std::string tracker = "127.0.0.1:9190";
  std::string token_file;
  std::string tls_root_cert;
};

// A best record as the tracker reports it, with what it derived.
struct BestRecord {
  tuner::Record record;
  double median_seconds = 0;
  double gflops = 0;  // 0 when the workload's FLOPs are unknown
};

class FarmClient {
 public:
  static absl::StatusOr<std::unique_ptr<FarmClient>> Connect(FarmClientOptions options);
  ~FarmClient();

  // Errors carry the tracker's status code and message (UNAUTHENTICATED, INVALID_ARGUMENT, ...);
  // an unreachable tracker is Unavailable naming the address.
  absl::StatusOr<farm_api::JobStatus> SubmitJob(const farm_api::JobSpec& spec);
  absl::StatusOr<farm_api::JobStatus> GetJob(const std::string& id);
  absl::StatusOr<farm_api::JobStatus> CancelJob(const std::string& id);
  absl::StatusOr<std::vector<farm_api::JobStatus>> ListJobs(bool include_finished, int limit);
  // Calls `on_event` for each progress event until the job finishes (OK) or `on_event` returns
  // false (Cancelled).
  absl::Status WatchJob(const std::string& id,
                        const std::function<bool(const farm_api::JobStatus&)>& on_event);
  // Model jobs, the same way.
  absl::StatusOr<farm_api::ModelJobStatus> SubmitModelJob(const farm_api::ModelJobSpec& spec);
  absl::StatusOr<farm_api::ModelJobStatus> GetModelJob(const std::string& id);
  absl::StatusOr<farm_api::ModelJobStatus> CancelModelJob(const std::string& id);
  absl::StatusOr<std::vector<farm_api::ModelJobStatus>> ListModelJobs(bool include_finished,
                                                                      int limit);
  absl::StatusOr<farm_api::ModelJobStatus> ReportModelLatency(
      const std::string& id, const farm_api::ModelLatency& latency);
  absl::Status WatchModelJob(const std::string& id,
                             const std::function<bool(const farm_api::ModelJobStatus&)>& on_event);
  absl::StatusOr<std::vector<farm_api::WorkerSnapshot>> ListWorkers(const std::string& device_key);
  absl::StatusOr<std::vector<BestRecord>> QueryBest(const std::string& workload,
                                                    const std::string& target,
                                                    const std::string& device_key);
  // The workload's records on (target, device key), newest first, at most `limit`.
  absl::StatusOr<std::vector<tuner::Record>> ListRecords(const std::string& workload,
                                                         const std::string& target,
                                                         const std::string& device_key, int limit);

  // Reads the token file and connects; InvalidArgument / NotFound name the bad option.
  static absl::StatusOr<std::unique_ptr<FarmClient>> Connect(const FarmAddress& address);

  struct Impl;

 private:
  explicit FarmClient(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace tunefarm::client

// TrackerService: the client API. Jobs go to the JobManager, the fleet view comes from the
// Dispatcher, and record queries, export and import use the service's own RecordStore
// connection. Each RPC checks the token, validates, calls one domain object and converts its
// Status.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>

#include "proto/tunefarm/v1/tracker.grpc.pb.h"
#include "tracker/dispatcher.h"
#include "tracker/job_manager.h"
#include "tracker/model_job_manager.h"
#include "tuner/record_store.h"

namespace tunefarm::tracker {

struct TrackerServiceOptions {
  std::string token;                     // empty: no authentication
  int watch_poll_ms = 500;               // WatchJob notices a client's cancel this often
  size_t export_chunk_bytes = 1u << 20;  // RecordLines size (cut on line ends)
  // WatchJob streams open at once. Each holds a thread of the synchronous server while it waits,
  // so beyond this a watch is RESOURCE_EXHAUSTED and the other calls keep their threads.
  int max_watch_streams = 256;
};

class TrackerService final : public v1::TrackerService::Service {
 public:
  TrackerService(JobManager& jobs, ModelJobManager& model_jobs, Dispatcher& dispatcher,
                 std::unique_ptr<tuner::RecordStore> store, TrackerServiceOptions options);
  ~TrackerService() override;

  // The job managers are about to be destroyed: job and model job calls answer UNAVAILABLE from now
  // on. Waits for calls that are using it (a WatchJob at most watch_poll_ms).
  void DetachJobs();

  grpc::Status SubmitJob(grpc::ServerContext* context, const v1::SubmitJobRequest* request,
                         v1::Job* response) override;
  grpc::Status GetJob(grpc::ServerContext* context, const v1::GetJobRequest* request,
                      v1::Job* response) override;
  grpc::Status WatchJob(grpc::ServerContext* context, const v1::WatchJobRequest* request,
                        grpc::ServerWriter<v1::JobEvent>* writer) override;
  grpc::Status CancelJob(grpc::ServerContext* context, const v1::CancelJobRequest* request,
                         v1::Job* response) override;
  grpc::Status ListJobs(grpc::ServerContext* context, const v1::ListJobsRequest* request,
                        v1::ListJobsResponse* response) override;
  grpc::Status SubmitModelJob(grpc::ServerContext* context,
                              const v1::SubmitModelJobRequest* request,
                              v1::ModelJob* response) override;
  grpc::Status GetModelJob(grpc::ServerContext* context, const v1::GetModelJobRequest* request,
                           v1::ModelJob* response) override;
  grpc::Status WatchModelJob(grpc::ServerContext* context, const v1::WatchModelJobRequest* request,
                             grpc::ServerWriter<v1::ModelJob>* writer) override;
  grpc::Status CancelModelJob(grpc::ServerContext* context,
                              const v1::CancelModelJobRequest* request,
                              v1::ModelJob* response) override;
  grpc::Status ReportModelLatency(grpc::ServerContext* context,
                                  const v1::ReportModelLatencyRequest* request,
                                  v1::ModelJob* response) override;
  grpc::Status ListModelJobs(grpc::ServerContext* context, const v1::ListModelJobsRequest* request,
                             v1::ListModelJobsResponse* response) override;
  grpc::Status ListWorkers(grpc::ServerContext* context, const v1::ListWorkersRequest* request,
                           v1::ListWorkersResponse* response) override;
  grpc::Status QueryBest(grpc::ServerContext* context, const v1::QueryBestRequest* request,
                         v1::QueryBestResponse* response) override;
  grpc::Status ListRecords(grpc::ServerContext* context, const v1::ListRecordsRequest* request,
                           v1::ListRecordsResponse* response) override;
  grpc::Status ExportRecords(grpc::ServerContext* context, const v1::ExportRecordsRequest* request,
                             grpc::ServerWriter<v1::RecordLines>* writer) override;
  grpc::Status ImportRecords(grpc::ServerContext* context,
                             grpc::ServerReader<v1::RecordLines>* reader,
                             v1::ImportRecordsResponse* response) override;

 private:
  double FlopsOfLocked(const std::string& workload_key);
  // Checks the token, then runs call(jobs, model_jobs) unless the tracker is shutting down.
  template <typename Call>
  grpc::Status WithJobs(grpc::ServerContext& context, Call&& call);
  // WatchJob and WatchModelJob: write(status) for each new version that wait(jobs, model_jobs,
  // seen_version) returns, until it is finished, the client leaves or the tracker stops.
  template <typename Wait, typename Write>
  grpc::Status WatchLoop(grpc::ServerContext& context, const char* rpc, Wait&& wait, Write&& write);

  std::shared_mutex jobs_mu_;  // shared: a call using the managers; exclusive: DetachJobs
  JobManager* jobs_;
  ModelJobManager* model_jobs_;
  // Set before DetachJobs waits for the lock: new job calls stop taking it, so a busy WatchJob
  // loop cannot starve the detach (reader-preferring rwlock).
  std::atomic<bool> detaching_{false};
  std::atomic<int> watch_streams_{0};
  Dispatcher& dispatcher_;
  std::mutex store_mu_;  // one SQLite connection, used by one call at a time
  std::unique_ptr<tuner::RecordStore> store_;
  TrackerServiceOptions options_;
};

}  // namespace tunefarm::tracker

#include "tracker/service/tracker_service.h"

#include <algorithm>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "farm_api/model_job_proto.h"
#include "tracker/service/auth.h"
#include "tracker/service/proto_conversion.h"
#include "tracker/service/status_conversion.h"
#include "tuner/record_import.h"
#include "tuner/workload.h"

namespace tunefarm::tracker {
namespace {

const grpc::Status kShuttingDown(grpc::StatusCode::UNAVAILABLE, "tracker is shutting down");

// Records read from the store per lock: small enough that a query waits at most milliseconds.
constexpr int64_t kExportPageRecords = 500;

}  // namespace

TrackerService::TrackerService(JobManager& jobs, ModelJobManager& model_jobs,
                               Dispatcher& dispatcher, std::unique_ptr<tuner::RecordStore> store,
                               TrackerServiceOptions options)
    : jobs_(&jobs),
      model_jobs_(&model_jobs),
      dispatcher_(dispatcher),
      store_(std::move(store)),
      options_(options) {}

TrackerService::~TrackerService() = default;

void TrackerService::DetachJobs() {
  detaching_ = true;
  std::unique_lock lock(jobs_mu_);
  jobs_ = nullptr;
  model_jobs_ = nullptr;
}

template <typename Call>
grpc::Status TrackerService::WithJobs(grpc::ServerContext& context, Call&& call) {
  if (grpc::Status auth = CheckToken(context, options_.token); !auth.ok()) return auth;
  if (detaching_) return kShuttingDown;
  std::shared_lock lock(jobs_mu_);
  if (!jobs_) return kShuttingDown;
  return call(*jobs_, *model_jobs_);
}

template <typename Wait, typename Write>
grpc::Status TrackerService::WatchLoop(grpc::ServerContext& context, const char* rpc, Wait&& wait,
                                       Write&& write) {
  if (grpc::Status auth = CheckToken(context, options_.token); !auth.ok()) return auth;
  if (watch_streams_.fetch_add(1) >= options_.max_watch_streams) {
    --watch_streams_;
    return grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                        absl::StrCat("the tracker already serves ", options_.max_watch_streams,
                                     " watch streams; poll ", rpc, " instead"));
  }
  struct Release {
    std::atomic<int>& count;
    ~Release() { --count; }
  } release{watch_streams_};
  int64_t seen = -1;
  while (!context.IsCancelled()) {
    // The lock is released between waits so DetachJobs never waits longer than one poll.
    if (detaching_) return kShuttingDown;
    std::shared_lock lock(jobs_mu_);
    if (!jobs_) return kShuttingDown;
    auto status = wait(*jobs_, *model_jobs_, seen);
    lock.unlock();
    if (!status.ok()) return ToGrpcStatus(status.status());
    if (status->version != seen) {
      seen = status->version;
      if (!write(*status)) return grpc::Status(grpc::StatusCode::CANCELLED, "client left");
    }
    if (farm_api::IsFinished(status->state)) return grpc::Status::OK;
  }
  return grpc::Status(grpc::StatusCode::CANCELLED, "cancelled by the client");
}

namespace {

// Writes a job manager's answer into the response, or returns its error.
template <typename T, typename Proto, typename Convert>
grpc::Status Answer(const absl::StatusOr<T>& status, Proto* response, Convert convert) {
  if (!status.ok()) return ToGrpcStatus(status.status());
  *response = convert(*status);
  return grpc::Status::OK;
}

grpc::Status CheckLimit(int32_t limit) {
  if (limit < 0) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "limit must not be negative");
  }
  return grpc::Status::OK;
}

}  // namespace

grpc::Status TrackerService::SubmitJob(grpc::ServerContext* context,
                                       const v1::SubmitJobRequest* request, v1::Job* response) {
  absl::StatusOr<farm_api::JobSpec> spec = farm_api::JobSpecFromProto(*request);
  if (!spec.ok()) return ToGrpcStatus(spec.status());
  return WithJobs(*context, [&](JobManager& jobs, ModelJobManager&) {
    return Answer(jobs.Submit(*spec), response, farm_api::JobStatusToProto);
  });
}

grpc::Status TrackerService::GetJob(grpc::ServerContext* context, const v1::GetJobRequest* request,
                                    v1::Job* response) {
  return WithJobs(*context, [&](JobManager& jobs, ModelJobManager&) {
    return Answer(jobs.Get(request->id()), response, farm_api::JobStatusToProto);
  });
}

grpc::Status TrackerService::WatchJob(grpc::ServerContext* context,
                                      const v1::WatchJobRequest* request,
                                      grpc::ServerWriter<v1::JobEvent>* writer) {
  return WatchLoop(
      *context, "GetJob",
      [&](JobManager& jobs, ModelJobManager&, int64_t seen) {
        return jobs.WaitForChange(request->id(), seen, options_.watch_poll_ms);
      },
      [&](const farm_api::JobStatus& status) {
        v1::JobEvent event;
        *event.mutable_job() = farm_api::JobStatusToProto(status);
        return writer->Write(event);
      });
}

grpc::Status TrackerService::CancelJob(grpc::ServerContext* context,
                                       const v1::CancelJobRequest* request, v1::Job* response) {
  return WithJobs(*context, [&](JobManager& jobs, ModelJobManager&) {
    return Answer(jobs.Cancel(request->id()), response, farm_api::JobStatusToProto);
  });
}

grpc::Status TrackerService::ListJobs(grpc::ServerContext* context,
                                      const v1::ListJobsRequest* request,
                                      v1::ListJobsResponse* response) {
  if (grpc::Status limit = CheckLimit(request->limit()); !limit.ok()) return limit;
  return WithJobs(*context, [&](JobManager& jobs, ModelJobManager&) {
    const int limit = request->limit() == 0 ? 100 : request->limit();
    for (const farm_api::JobStatus& job : jobs.List(request->include_finished(), limit)) {
      *response->add_jobs() = farm_api::JobStatusToProto(job);
    }
    return grpc::Status::OK;
  });
}

grpc::Status TrackerService::SubmitModelJob(grpc::ServerContext* context,
                                            const v1::SubmitModelJobRequest* request,
                                            v1::ModelJob* response) {
  absl::StatusOr<farm_api::ModelJobSpec> spec = farm_api::ModelJobSpecFromProto(*request);
  if (!spec.ok()) return ToGrpcStatus(spec.status());
  return WithJobs(*context, [&](JobManager&, ModelJobManager& model_jobs) {
    return Answer(model_jobs.Submit(*spec), response, farm_api::ModelJobStatusToProto);
  });
}

grpc::Status TrackerService::GetModelJob(grpc::ServerContext* context,
                                         const v1::GetModelJobRequest* request,
                                         v1::ModelJob* response) {
  return WithJobs(*context, [&](JobManager&, ModelJobManager& model_jobs) {
    return Answer(model_jobs.Get(request->id()), response, farm_api::ModelJobStatusToProto);
  });
}

grpc::Status TrackerService::WatchModelJob(grpc::ServerContext* context,
                                           const v1::WatchModelJobRequest* request,
                                           grpc::ServerWriter<v1::ModelJob>* writer) {
  return WatchLoop(
      *context, "GetModelJob",
      [&](JobManager&, ModelJobManager& model_jobs, int64_t seen) {
        return model_jobs.WaitForChange(request->id(), seen, options_.watch_poll_ms);
      },
      [&](const farm_api::ModelJobStatus& status) {
        return writer->Write(farm_api::ModelJobStatusToProto(status));
      });
}

grpc::Status TrackerService::CancelModelJob(grpc::ServerContext* context,
                                            const v1::CancelModelJobRequest* request,
                                            v1::ModelJob* response) {
  return WithJobs(*context, [&](JobManager&, ModelJobManager& model_jobs) {
    return Answer(model_jobs.Cancel(request->id()), response, farm_api::ModelJobStatusToProto);
  });
}

grpc::Status TrackerService::ReportModelLatency(grpc::ServerContext* context,
                                                const v1::ReportModelLatencyRequest* request,
                                                v1::ModelJob* response) {
  const farm_api::ModelLatency latency{request->measured_seconds(), request->untuned_seconds(),
                                       request->measured_by()};
  return WithJobs(*context, [&](JobManager&, ModelJobManager& model_jobs) {
    return Answer(model_jobs.ReportLatency(request->id(), latency), response,
                  farm_api::ModelJobStatusToProto);
  });
}

grpc::Status TrackerService::ListModelJobs(grpc::ServerContext* context,
                                           const v1::ListModelJobsRequest* request,
                                           v1::ListModelJobsResponse* response) {
  if (grpc::Status limit = CheckLimit(request->limit()); !limit.ok()) return limit;
  return WithJobs(*context, [&](JobManager&, ModelJobManager& model_jobs) {
    const int limit = request->limit() == 0 ? 100 : request->limit();
    for (const farm_api::ModelJobStatus& job :
         model_jobs.List(request->include_finished(), limit)) {
      *response->add_model_jobs() = farm_api::ModelJobStatusToProto(job);
    }
    return grpc::Status::OK;
  });
}

grpc::Status TrackerService::ListWorkers(grpc::ServerContext* context,
                                         const v1::ListWorkersRequest* request,
                                         v1::ListWorkersResponse* response) {
  if (grpc::Status auth = CheckToken(*context, options_.token); !auth.ok()) return auth;
  for (const farm_api::WorkerSnapshot& w : dispatcher_.Workers(request->device_key())) {
    *response->add_workers() = farm_api::WorkerSnapshotToProto(w);
  }
  return grpc::Status::OK;
}

double TrackerService::FlopsOfLocked(const std::string& workload_key) {
  absl::StatusOr<std::optional<double>> flops = store_->WorkloadFlops(workload_key);
  return flops.ok() && flops->has_value() ? **flops : 0;
}

grpc::Status TrackerService::QueryBest(grpc::ServerContext* context,
                                       const v1::QueryBestRequest* request,
                                       v1::QueryBestResponse* response) {
  if (grpc::Status auth = CheckToken(*context, options_.token); !auth.ok()) return auth;
  absl::StatusOr<tuner::Workload> workload = tuner::ParseWorkloadKey(request->workload());
  if (!workload.ok()) return ToGrpcStatus(workload.status());
  const std::string key = workload->Key();
  std::lock_guard lock(store_mu_);
  absl::StatusOr<std::vector<tuner::Record>> best = store_->BestPerDevice(key, request->target());
  if (!best.ok()) return ToGrpcStatus(best.status());
  const double flops = FlopsOfLocked(key);
  for (const tuner::Record& r : *best) {
    if (!request->device_key().empty() && r.device_key != request->device_key()) continue;
    *response->add_best() = farm_api::RecordToProto(r, flops);
  }
  return grpc::Status::OK;
}

grpc::Status TrackerService::ListRecords(grpc::ServerContext* context,
                                         const v1::ListRecordsRequest* request,
                                         v1::ListRecordsResponse* response) {
  if (grpc::Status auth = CheckToken(*context, options_.token); !auth.ok()) return auth;
  if (request->job_id().empty() == request->workload().empty()) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                        "exactly one of job_id and workload must be set");
  }
  if (request->limit() < 0) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "limit must not be negative");
  }
  const size_t limit = request->limit() == 0 ? 100 : static_cast<size_t>(request->limit());
  std::lock_guard lock(store_mu_);
  std::vector<tuner::Record> records;
  if (!request->job_id().empty()) {
    auto history = store_->JobHistory(request->job_id());
    if (!history.ok()) return ToGrpcStatus(history.status());
    records = std::move(*history);
  } else {
    absl::StatusOr<tuner::Workload> workload = tuner::ParseWorkloadKey(request->workload());
    if (!workload.ok()) return ToGrpcStatus(workload.status());
    const std::string key = workload->Key();
    // The store answers per (target, device key); without both, the pairs that have a best
    // record are the ones asked about.
    std::vector<std::tuple<std::string, std::string, tuner::CacheFlush>> tasks;  // and timing
    if (!request->target().empty() && !request->device_key().empty()) {
      for (tuner::CacheFlush flush :
           {tuner::CacheFlush::kNone, tuner::CacheFlush::kAll, tuner::CacheFlush::kWeights}) {
        tasks.emplace_back(request->target(), request->device_key(), flush);
      }
    } else {
      auto best = store_->BestPerDevice(key, request->target());
      if (!best.ok()) return ToGrpcStatus(best.status());
      for (const tuner::Record& r : *best) {
        if (request->device_key().empty() || r.device_key == request->device_key()) {
          tasks.emplace_back(r.target, r.device_key, r.cache_flush);
        }
      }
    }
    for (const auto& [target, device_key, flush] : tasks) {
      auto task = store_->TaskRecords(key, target, device_key, flush);
      if (!task.ok()) return ToGrpcStatus(task.status());
      records.insert(records.end(), task->begin(), task->end());
    }
  }
  // Insertion order within each query; newest first overall (stable keeps ties in store order).
  std::stable_sort(records.begin(), records.end(),
                   [](const tuner::Record& a, const tuner::Record& b) {
                     return a.timestamp_ms < b.timestamp_ms;
                   });
  std::reverse(records.begin(), records.end());
  if (records.size() > limit) records.resize(limit);
  for (const tuner::Record& r : records) {
    *response->add_records() = farm_api::RecordToProto(r, FlopsOfLocked(r.workload_key));
  }
  return grpc::Status::OK;
}

grpc::Status TrackerService::ExportRecords(grpc::ServerContext* context,
                                           const v1::ExportRecordsRequest* /*request*/,
                                           grpc::ServerWriter<v1::RecordLines>* writer) {
  if (grpc::Status auth = CheckToken(*context, options_.token); !auth.ok()) return auth;
  // Page by page up to the newest record at the start (a snapshot: records are append-only),
  // holding the store only for a page, so queries and imports go on beside a long export and
  // memory stays at one chunk.
  absl::StatusOr<int64_t> last;
  {
    std::lock_guard lock(store_mu_);
    last = store_->LastRecordId();
  }
  if (!last.ok()) return ToGrpcStatus(last.status());
  int64_t after = 0;
  while (after < *last) {
    v1::RecordLines chunk;
    while (after < *last && chunk.lines().size() < options_.export_chunk_bytes) {
      absl::StatusOr<int64_t> next;
      {
        std::lock_guard lock(store_mu_);
        next = store_->ExportPage(after, *last, kExportPageRecords, chunk.mutable_lines());
      }
      if (!next.ok()) return ToGrpcStatus(next.status());
      after = *next == after ? *last : *next;  // no page: nothing is left below `last`
    }
    if (context->IsCancelled() || !writer->Write(chunk)) {
      return grpc::Status(grpc::StatusCode::CANCELLED, "client left");
    }
  }
  return grpc::Status::OK;
}

grpc::Status TrackerService::ImportRecords(grpc::ServerContext* context,
                                           grpc::ServerReader<v1::RecordLines>* reader,
                                           v1::ImportRecordsResponse* response) {
  if (grpc::Status auth = CheckToken(*context, options_.token); !auth.ok()) return auth;
  // Lines are checked and staged chunk by chunk; nothing reaches the records until the client's
  // last chunk has arrived and every line was good. Then they are stored in short batches, with
  // the store free between them for the jobs' writes and the queries.
  std::unique_ptr<tuner::RecordImport> import;
  {
    std::lock_guard lock(store_mu_);
    absl::StatusOr<std::unique_ptr<tuner::RecordImport>> begun =
        tuner::RecordImport::Begin(*store_);
    if (!begun.ok()) return ToGrpcStatus(begun.status());
    import = *std::move(begun);
  }
  // The staging table goes with the connection's lock held, on every way out.
  auto drop = [&](grpc::Status status) {
    std::lock_guard lock(store_mu_);
    import.reset();
    return status;
  };
  v1::RecordLines chunk;
  bool ended = false;
  while (reader->Read(&chunk)) {
    if (ended) {
      return drop(grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                               "record import: a chunk came after the one marked last; nothing "
                               "was stored"));
    }
    absl::Status added;
    {
      std::lock_guard lock(store_mu_);
      added = import->Add(chunk.lines());
      if (added.ok() && chunk.last()) added = import->Finish();
    }
    if (!added.ok()) return drop(ToGrpcStatus(added));
    ended = chunk.last();
  }
  if (context->IsCancelled()) return drop(grpc::Status(grpc::StatusCode::CANCELLED, "cancelled"));
  if (!ended) {
    // A message that does not decode ends the stream like a close: only the marker tells a
    // whole import from one cut short.
    return drop(grpc::Status(
        grpc::StatusCode::INVALID_ARGUMENT,
        "record import: the stream ended without a chunk marked last (cut short, or a message "
        "that does not decode); nothing was stored"));
  }
  for (;;) {
    absl::StatusOr<bool> done;
    {
      std::lock_guard lock(store_mu_);
      done = import->StoreNextBatch();
    }
    if (!done.ok()) return drop(ToGrpcStatus(done.status()));
    if (*done) break;
  }
  response->set_imported(import->stored());
  return drop(grpc::Status::OK);
}

}  // namespace tunefarm::tracker

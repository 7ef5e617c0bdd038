#include "tracker/service/tracker_service.h"

#include <algorithm>
#include <sstream>
#include <utility>
#include <vector>

#include "tracker/service/auth.h"
#include "tracker/service/proto_conversion.h"
#include "tracker/service/status_conversion.h"
#include "tuner/workload.h"

namespace tunefarm::tracker {
namespace {

const grpc::Status kShuttingDown(grpc::StatusCode::UNAVAILABLE, "tracker is shutting down");

}  // namespace

TrackerService::TrackerService(JobManager& jobs, Dispatcher& dispatcher,
                               std::unique_ptr<tuner::RecordStore> store,
                               TrackerServiceOptions options)
    : jobs_(&jobs), dispatcher_(dispatcher), store_(std::move(store)), options_(options) {}

TrackerService::~TrackerService() = default;

void TrackerService::DetachJobs() {
  detaching_ = true;
  std::unique_lock lock(jobs_mu_);
  jobs_ = nullptr;
}

grpc::Status TrackerService::SubmitJob(grpc::ServerContext* context,
                                       const v1::SubmitJobRequest* request, v1::Job* response) {
  if (grpc::Status auth = CheckToken(*context, options_.token); !auth.ok()) return auth;
  absl::StatusOr<JobSpec> spec = JobSpecFromProto(*request);
  if (!spec.ok()) return ToGrpcStatus(spec.status());
  if (detaching_) return kShuttingDown;
  std::shared_lock lock(jobs_mu_);
  if (!jobs_) return kShuttingDown;
  absl::StatusOr<JobStatus> status = jobs_->Submit(*spec);
  if (!status.ok()) return ToGrpcStatus(status.status());
  *response = JobStatusToProto(*status);
  return grpc::Status::OK;
}

grpc::Status TrackerService::GetJob(grpc::ServerContext* context, const v1::GetJobRequest* request,
                                    v1::Job* response) {
  if (grpc::Status auth = CheckToken(*context, options_.token); !auth.ok()) return auth;
  if (detaching_) return kShuttingDown;
  std::shared_lock lock(jobs_mu_);
  if (!jobs_) return kShuttingDown;
  absl::StatusOr<JobStatus> status = jobs_->Get(request->id());
  if (!status.ok()) return ToGrpcStatus(status.status());
  *response = JobStatusToProto(*status);
  return grpc::Status::OK;
}

grpc::Status TrackerService::WatchJob(grpc::ServerContext* context,
                                      const v1::WatchJobRequest* request,
                                      grpc::ServerWriter<v1::JobEvent>* writer) {
  if (grpc::Status auth = CheckToken(*context, options_.token); !auth.ok()) return auth;
  int64_t seen = -1;
  while (!context->IsCancelled()) {
    absl::StatusOr<JobStatus> status;
    {
      // Released between waits so DetachJobs never waits longer than one poll.
      if (detaching_) return kShuttingDown;
      std::shared_lock lock(jobs_mu_);
      if (!jobs_) return kShuttingDown;
      status = jobs_->WaitForChange(request->id(), seen, options_.watch_poll_ms);
    }
    if (!status.ok()) return ToGrpcStatus(status.status());
    if (status->version != seen) {
      seen = status->version;
      v1::JobEvent event;
      *event.mutable_job() = JobStatusToProto(*status);
      if (!writer->Write(event)) return grpc::Status(grpc::StatusCode::CANCELLED, "client left");
    }
    if (IsFinished(status->state)) return grpc::Status::OK;
  }
  return grpc::Status(grpc::StatusCode::CANCELLED, "cancelled by the client");
}

grpc::Status TrackerService::CancelJob(grpc::ServerContext* context,
                                       const v1::CancelJobRequest* request, v1::Job* response) {
  if (grpc::Status auth = CheckToken(*context, options_.token); !auth.ok()) return auth;
  if (detaching_) return kShuttingDown;
  std::shared_lock lock(jobs_mu_);
  if (!jobs_) return kShuttingDown;
  absl::StatusOr<JobStatus> status = jobs_->Cancel(request->id());
  if (!status.ok()) return ToGrpcStatus(status.status());
  *response = JobStatusToProto(*status);
  return grpc::Status::OK;
}

grpc::Status TrackerService::ListJobs(grpc::ServerContext* context,
                                      const v1::ListJobsRequest* request,
                                      v1::ListJobsResponse* response) {
  if (grpc::Status auth = CheckToken(*context, options_.token); !auth.ok()) return auth;
  if (request->limit() < 0) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "limit must not be negative");
  }
  if (detaching_) return kShuttingDown;
  std::shared_lock lock(jobs_mu_);
  if (!jobs_) return kShuttingDown;
  const int limit = request->limit() == 0 ? 100 : request->limit();
  for (const JobStatus& job : jobs_->List(request->include_finished(), limit)) {
    *response->add_jobs() = JobStatusToProto(job);
  }
  return grpc::Status::OK;
}

grpc::Status TrackerService::ListWorkers(grpc::ServerContext* context,
                                         const v1::ListWorkersRequest* request,
                                         v1::ListWorkersResponse* response) {
  if (grpc::Status auth = CheckToken(*context, options_.token); !auth.ok()) return auth;
  for (const WorkerSnapshot& w : dispatcher_.Workers(request->device_key())) {
    *response->add_workers() = WorkerSnapshotToProto(w);
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
    *response->add_best() = RecordToProto(r, flops);
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
    std::vector<std::pair<std::string, std::string>> tasks;
    if (!request->target().empty() && !request->device_key().empty()) {
      tasks.emplace_back(request->target(), request->device_key());
    } else {
      auto best = store_->BestPerDevice(key, request->target());
      if (!best.ok()) return ToGrpcStatus(best.status());
      for (const tuner::Record& r : *best) {
        if (request->device_key().empty() || r.device_key == request->device_key()) {
          tasks.emplace_back(r.target, r.device_key);
        }
      }
    }
    for (const auto& [target, device_key] : tasks) {
      auto task = store_->TaskRecords(key, target, device_key);
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
    *response->add_records() = RecordToProto(r, FlopsOfLocked(r.workload_key));
  }
  return grpc::Status::OK;
}

grpc::Status TrackerService::ExportRecords(grpc::ServerContext* context,
                                           const v1::ExportRecordsRequest* /*request*/,
                                           grpc::ServerWriter<v1::RecordLines>* writer) {
  if (grpc::Status auth = CheckToken(*context, options_.token); !auth.ok()) return auth;
  std::ostringstream out;
  {
    std::lock_guard lock(store_mu_);
    if (absl::Status s = store_->ExportJsonLines(out); !s.ok()) return ToGrpcStatus(s);
  }
  const std::string text = out.str();
  size_t pos = 0;
  while (pos < text.size()) {
    // Cut after the last line end inside the chunk budget (or after one whole long line).
    size_t end = std::min(text.size(), pos + options_.export_chunk_bytes);
    if (end < text.size()) {
      size_t nl = text.rfind('\n', end - 1);
      end = (nl == std::string::npos || nl < pos) ? text.find('\n', end) : nl;
      end = end == std::string::npos ? text.size() : end + 1;
    }
    v1::RecordLines chunk;
    chunk.set_lines(text.substr(pos, end - pos));
    if (!writer->Write(chunk)) return grpc::Status(grpc::StatusCode::CANCELLED, "client left");
    pos = end;
  }
  return grpc::Status::OK;
}

grpc::Status TrackerService::ImportRecords(grpc::ServerContext* context,
                                           grpc::ServerReader<v1::RecordLines>* reader,
                                           v1::ImportRecordsResponse* response) {
  if (grpc::Status auth = CheckToken(*context, options_.token); !auth.ok()) return auth;
  // All chunks first: the import is one transaction, so nothing is stored unless every line is
  // good.
  std::string text;
  v1::RecordLines chunk;
  while (reader->Read(&chunk)) text += chunk.lines();
  if (context->IsCancelled()) return grpc::Status(grpc::StatusCode::CANCELLED, "cancelled");
  std::istringstream in(text);
  std::lock_guard lock(store_mu_);
  absl::StatusOr<int64_t> imported = store_->ImportJsonLines(in);
  if (!imported.ok()) return ToGrpcStatus(imported.status());
  response->set_imported(*imported);
  return grpc::Status::OK;
}

}  // namespace tunefarm::tracker

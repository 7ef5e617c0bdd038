#include "tools/commands/farm_client.h"

#include <grpcpp/grpcpp.h>

#include "absl/strings/str_cat.h"
#include "proto/tunefarm/v1/tracker.grpc.pb.h"
#include "tools/commands/farm_channel.h"
#include "tools/commands/token_file.h"

namespace tunefarm::tools {
namespace {

namespace pb = tunefarm::v1;

pb::MeasureOptions MeasureToProto(const tuner::MeasureOptions& m) {
  pb::MeasureOptions p;
  p.set_number(m.number);
  p.set_repeat(m.repeat);
  p.set_min_repeat_ms(m.min_repeat_ms);
  p.set_cooldown_ms(m.cooldown_ms);
  p.set_flush_cache(m.flush_cache);
  p.set_skip_correctness(!m.check_correctness);
  p.set_rtol(m.rtol);
  p.set_atol(m.atol);
  p.set_slow_cutoff_ratio(m.slow_cutoff_ratio > 0 ? m.slow_cutoff_ratio : -1);
  p.set_threads(m.threads);
  p.set_build_timeout_s(m.build_timeout_s);
  p.set_run_timeout_s(m.run_timeout_s);
  return p;
}

pb::SubmitJobRequest SpecToProto(const tracker::JobSpec& s) {
  pb::SubmitJobRequest p;
  p.set_workload(s.workload);
  p.set_script_source(s.script_source);
  p.set_script_name(s.script_name);
  for (const auto& [name, value] : s.bindings) (*p.mutable_bindings())[name] = value;
  p.set_dtype(s.dtype);
  p.set_target(s.target);
  p.set_device_key(s.device_key);
  p.set_trials(s.trials);
  p.set_tuner(s.tuner);
  p.set_batch_size(s.batch_size);
  p.set_early_stopping(s.early_stopping);
  p.set_seed(s.seed);
  *p.mutable_measure() = MeasureToProto(s.measure);
  p.set_priority(s.priority);
  p.set_transfer(s.transfer);
  return p;
}

tracker::JobState StateFromProto(pb::JobState s) {
  switch (s) {
    case pb::JOB_STATE_RUNNING:
      return tracker::JobState::kRunning;
    case pb::JOB_STATE_SUCCEEDED:
      return tracker::JobState::kSucceeded;
    case pb::JOB_STATE_FAILED:
      return tracker::JobState::kFailed;
    case pb::JOB_STATE_CANCELLED:
      return tracker::JobState::kCancelled;
    default:
      return tracker::JobState::kQueued;
  }
}

tracker::JobStatus JobFromProto(const pb::Job& p) {
  tracker::JobStatus j;
  j.id = p.id();
  j.state = StateFromProto(p.state());
  j.workload_key = p.workload_key();
  j.target = p.target();
  j.device_key = p.device_key();
  j.trials = p.trials();
  j.trials_done = p.trials_done();
  j.errors = p.errors();
  for (const auto& [kind, n] : p.error_counts()) j.error_counts[kind] = n;
  j.best_seconds = p.best_seconds();
  j.best_gflops = p.best_gflops();
  j.best_config_json = p.best_config_json();
  j.message = p.message();
  j.created_ms = p.created_ms();
  j.updated_ms = p.updated_ms();
  j.priority = p.priority();
  j.tuner = p.tuner();
  return j;
}

tracker::WorkerSnapshot WorkerFromProto(const pb::WorkerInfo& p) {
  tracker::WorkerSnapshot w;
  w.description.worker_id = p.worker_id();
  w.description.device_key = p.device_key();
  w.description.target = p.target();
  w.description.cpu_model = p.cpu_model();
  w.description.cores = p.cores();
  w.description.memory_bytes = p.memory_bytes();
  w.description.gpu_model = p.gpu_model();
  w.description.gpu_memory_bytes = p.gpu_memory_bytes();
  w.description.can_build = p.can_build();
  w.description.tunefarm_version = p.tunefarm_version();
  w.description.hostname = p.hostname();
  w.description.peer = p.peer();
  const std::string& state = p.state();
  w.state = state == "measuring"  ? tracker::WorkerState::kBusy
            : state == "session"  ? tracker::WorkerState::kSession
            : state == "draining" ? tracker::WorkerState::kDraining
                                  : tracker::WorkerState::kIdle;
  w.connected_ms = p.connected_ms();
  w.last_heartbeat_ms = p.last_heartbeat_ms();
  w.measured = p.measured();
  w.failures = p.failures();
  return w;
}

BestRecord BestFromProto(const pb::Record& p) {
  BestRecord b;
  tuner::Record& r = b.record;
  r.workload_key = p.workload_key();
  r.target = p.target();
  r.device_key = p.device_key();
  r.config_json = p.config_json();
  r.repeat_seconds.assign(p.repeat_seconds().begin(), p.repeat_seconds().end());
  absl::StatusOr<tuner::ErrorKind> kind = tuner::ParseErrorKind(p.error_kind());
  r.error_kind = kind.ok() ? *kind : tuner::ErrorKind::kRuntimeError;
  r.error_message = p.error_message();
  r.build_seconds = p.build_seconds();
  r.measured_by = p.measured_by();
  r.timestamp_ms = p.timestamp_ms();
  r.tunefarm_version = p.tunefarm_version();
  r.job_id = p.job_id();
  b.median_seconds = p.median_seconds();
  b.gflops = p.gflops();
  return b;
}

}  // namespace

struct FarmClient::Impl {
  FarmClientOptions options;
  std::unique_ptr<pb::TrackerService::Stub> stub;

  std::unique_ptr<grpc::ClientContext> Context(bool deadline = true) const {
    return MakeFarmContext(options, deadline);
  }
};

FarmClient::FarmClient(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
FarmClient::~FarmClient() = default;

absl::StatusOr<std::unique_ptr<FarmClient>> FarmClient::Connect(FarmClientOptions options) {
  absl::StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeFarmChannel(options);
  if (!channel.ok()) return channel.status();
  auto impl = std::make_unique<Impl>();
  impl->stub = pb::TrackerService::NewStub(*channel);
  impl->options = std::move(options);
  return std::unique_ptr<FarmClient>(new FarmClient(std::move(impl)));
}

absl::StatusOr<std::unique_ptr<FarmClient>> FarmClient::Connect(const FarmAddress& address) {
  absl::StatusOr<std::string> token = ReadTokenFile(address.token_file);
  if (!token.ok()) return token.status();
  return Connect(FarmClientOptions{address.tracker, *token, address.tls_root_cert});
}

absl::StatusOr<tracker::JobStatus> FarmClient::SubmitJob(const tracker::JobSpec& spec) {
  pb::Job job;
  auto ctx = impl_->Context();
  grpc::Status s = impl_->stub->SubmitJob(ctx.get(), SpecToProto(spec), &job);
  if (!s.ok()) return FromGrpcStatus(s, impl_->options.address);
  return JobFromProto(job);
}

absl::StatusOr<tracker::JobStatus> FarmClient::GetJob(const std::string& id) {
  pb::GetJobRequest request;
  request.set_id(id);
  pb::Job job;
  auto ctx = impl_->Context();
  grpc::Status s = impl_->stub->GetJob(ctx.get(), request, &job);
  if (!s.ok()) return FromGrpcStatus(s, impl_->options.address);
  return JobFromProto(job);
}

absl::StatusOr<tracker::JobStatus> FarmClient::CancelJob(const std::string& id) {
  pb::CancelJobRequest request;
  request.set_id(id);
  pb::Job job;
  auto ctx = impl_->Context();
  grpc::Status s = impl_->stub->CancelJob(ctx.get(), request, &job);
  if (!s.ok()) return FromGrpcStatus(s, impl_->options.address);
  return JobFromProto(job);
}

absl::StatusOr<std::vector<tracker::JobStatus>> FarmClient::ListJobs(bool include_finished,
                                                                     int limit) {
  pb::ListJobsRequest request;
  request.set_include_finished(include_finished);
  request.set_limit(limit);
  pb::ListJobsResponse response;
  auto ctx = impl_->Context();
  grpc::Status s = impl_->stub->ListJobs(ctx.get(), request, &response);
  if (!s.ok()) return FromGrpcStatus(s, impl_->options.address);
  std::vector<tracker::JobStatus> jobs;
  for (const pb::Job& j : response.jobs()) jobs.push_back(JobFromProto(j));
  return jobs;
}

absl::Status FarmClient::WatchJob(const std::string& id,
                                  const std::function<bool(const tracker::JobStatus&)>& on_event) {
  pb::WatchJobRequest request;
  request.set_id(id);
  auto ctx = impl_->Context(/*deadline=*/false);  // a job may tune for hours
  std::unique_ptr<grpc::ClientReader<pb::JobEvent>> reader =
      impl_->stub->WatchJob(ctx.get(), request);
  pb::JobEvent event;
  while (reader->Read(&event)) {
    if (!on_event(JobFromProto(event.job()))) {
      ctx->TryCancel();
      reader->Finish();
      return absl::CancelledError("stopped watching");
    }
  }
  return FromGrpcStatus(reader->Finish(), impl_->options.address);
}

absl::StatusOr<std::vector<tracker::WorkerSnapshot>> FarmClient::ListWorkers(
    const std::string& device_key) {
  pb::ListWorkersRequest request;
  request.set_device_key(device_key);
  pb::ListWorkersResponse response;
  auto ctx = impl_->Context();
  grpc::Status s = impl_->stub->ListWorkers(ctx.get(), request, &response);
  if (!s.ok()) return FromGrpcStatus(s, impl_->options.address);
  std::vector<tracker::WorkerSnapshot> workers;
  for (const pb::WorkerInfo& w : response.workers()) workers.push_back(WorkerFromProto(w));
  return workers;
}

absl::StatusOr<std::vector<BestRecord>> FarmClient::QueryBest(const std::string& workload,
                                                              const std::string& target,
                                                              const std::string& device_key) {
  pb::QueryBestRequest request;
  request.set_workload(workload);
  request.set_target(target);
  request.set_device_key(device_key);
  pb::QueryBestResponse response;
  auto ctx = impl_->Context();
  grpc::Status s = impl_->stub->QueryBest(ctx.get(), request, &response);
  if (!s.ok()) return FromGrpcStatus(s, impl_->options.address);
  std::vector<BestRecord> best;
  for (const pb::Record& r : response.best()) best.push_back(BestFromProto(r));
  return best;
}

}  // namespace tunefarm::tools

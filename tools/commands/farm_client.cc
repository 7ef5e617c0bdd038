#include "tools/commands/farm_client.h"

#include <grpcpp/grpcpp.h>

#include "absl/strings/str_cat.h"
#include "proto/tunefarm/v1/tracker.grpc.pb.h"
#include "tools/commands/farm_channel.h"
#include "tools/commands/token_file.h"
#include "tracker/service/proto_conversion.h"

namespace tunefarm::tools {
namespace {

namespace pb = tunefarm::v1;

BestRecord BestFromProto(const pb::Record& p) {
  BestRecord b;
  b.record = tracker::RecordFromProto(p);
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
  grpc::Status s = impl_->stub->SubmitJob(ctx.get(), tracker::JobSpecToProto(spec), &job);
  if (!s.ok()) return FromGrpcStatus(s, impl_->options.address);
  return tracker::JobStatusFromProto(job);
}

absl::StatusOr<tracker::JobStatus> FarmClient::GetJob(const std::string& id) {
  pb::GetJobRequest request;
  request.set_id(id);
  pb::Job job;
  auto ctx = impl_->Context();
  grpc::Status s = impl_->stub->GetJob(ctx.get(), request, &job);
  if (!s.ok()) return FromGrpcStatus(s, impl_->options.address);
  return tracker::JobStatusFromProto(job);
}

absl::StatusOr<tracker::JobStatus> FarmClient::CancelJob(const std::string& id) {
  pb::CancelJobRequest request;
  request.set_id(id);
  pb::Job job;
  auto ctx = impl_->Context();
  grpc::Status s = impl_->stub->CancelJob(ctx.get(), request, &job);
  if (!s.ok()) return FromGrpcStatus(s, impl_->options.address);
  return tracker::JobStatusFromProto(job);
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
  for (const pb::Job& j : response.jobs()) jobs.push_back(tracker::JobStatusFromProto(j));
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
    if (!on_event(tracker::JobStatusFromProto(event.job()))) {
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
  for (const pb::WorkerInfo& w : response.workers())
    workers.push_back(tracker::WorkerSnapshotFromProto(w));
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

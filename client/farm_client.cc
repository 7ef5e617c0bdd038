#include "client/farm_client.h"

#include <grpcpp/grpcpp.h>

#include "absl/strings/str_cat.h"
#include "client/farm_channel.h"
#include "client/token_file.h"
#include "farm_api/job_proto.h"
#include "farm_api/model_job_proto.h"
#include "proto/tunefarm/v1/tracker.grpc.pb.h"

namespace tunefarm::client {
namespace {

namespace pb = tunefarm::v1;

BestRecord BestFromProto(const pb::Record& p) {
  BestRecord b;
  b.record = farm_api::RecordFromProto(p);
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

  // One unary call: rpc(stub, context, request, &response), then convert(response).
  template <typename Response, typename Request, typename Rpc, typename Convert>
  auto Unary(Rpc rpc, const Request& request, Convert convert)
      -> absl::StatusOr<decltype(convert(std::declval<const Response&>()))> {
    Response response;
    auto ctx = Context();
    grpc::Status s = ((*stub).*rpc)(ctx.get(), request, &response);
    if (!s.ok()) return FromGrpcStatus(s, options.address);
    return convert(response);
  }

  // Calls on_event(convert(message)) for each streamed message until the stream ends (OK) or
  // on_event returns false (Cancelled).
  template <typename Message, typename Request, typename Rpc, typename Convert, typename OnEvent>
  absl::Status Watch(Rpc rpc, const Request& request, Convert convert, const OnEvent& on_event) {
    auto ctx = Context(/*deadline=*/false);  // a job may tune for hours
    std::unique_ptr<grpc::ClientReader<Message>> reader = ((*stub).*rpc)(ctx.get(), request);
    Message message;
    while (reader->Read(&message)) {
      if (!on_event(convert(message))) {
        ctx->TryCancel();
        reader->Finish();
        return absl::CancelledError("stopped watching");
      }
    }
    return FromGrpcStatus(reader->Finish(), options.address);
  }
};

namespace {

template <typename Request>
Request WithId(const std::string& id) {
  Request r;
  r.set_id(id);
  return r;
}

}  // namespace

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

absl::StatusOr<farm_api::JobStatus> FarmClient::SubmitJob(const farm_api::JobSpec& spec) {
  return impl_->Unary<pb::Job>(&pb::TrackerService::Stub::SubmitJob, farm_api::JobSpecToProto(spec),
                               farm_api::JobStatusFromProto);
}

absl::StatusOr<farm_api::JobStatus> FarmClient::GetJob(const std::string& id) {
  return impl_->Unary<pb::Job>(&pb::TrackerService::Stub::GetJob, WithId<pb::GetJobRequest>(id),
                               farm_api::JobStatusFromProto);
}

absl::StatusOr<farm_api::JobStatus> FarmClient::CancelJob(const std::string& id) {
  return impl_->Unary<pb::Job>(&pb::TrackerService::Stub::CancelJob,
                               WithId<pb::CancelJobRequest>(id), farm_api::JobStatusFromProto);
}

absl::StatusOr<std::vector<farm_api::JobStatus>> FarmClient::ListJobs(bool include_finished,
                                                                      int limit) {
  pb::ListJobsRequest request;
  request.set_include_finished(include_finished);
  request.set_limit(limit);
  return impl_->Unary<pb::ListJobsResponse>(&pb::TrackerService::Stub::ListJobs, request,
                                            [](const pb::ListJobsResponse& response) {
                                              std::vector<farm_api::JobStatus> jobs;
                                              for (const pb::Job& j : response.jobs())
                                                jobs.push_back(farm_api::JobStatusFromProto(j));
                                              return jobs;
                                            });
}

absl::Status FarmClient::WatchJob(const std::string& id,
                                  const std::function<bool(const farm_api::JobStatus&)>& on_event) {
  return impl_->Watch<pb::JobEvent>(
      &pb::TrackerService::Stub::WatchJob, WithId<pb::WatchJobRequest>(id),
      [](const pb::JobEvent& event) { return farm_api::JobStatusFromProto(event.job()); },
      on_event);
}

absl::StatusOr<farm_api::ModelJobStatus> FarmClient::SubmitModelJob(
    const farm_api::ModelJobSpec& spec) {
  return impl_->Unary<pb::ModelJob>(&pb::TrackerService::Stub::SubmitModelJob,
                                    farm_api::ModelJobSpecToProto(spec),
                                    farm_api::ModelJobStatusFromProto);
}

absl::StatusOr<farm_api::ModelJobStatus> FarmClient::GetModelJob(const std::string& id) {
  return impl_->Unary<pb::ModelJob>(&pb::TrackerService::Stub::GetModelJob,
                                    WithId<pb::GetModelJobRequest>(id),
                                    farm_api::ModelJobStatusFromProto);
}

absl::StatusOr<farm_api::ModelJobStatus> FarmClient::CancelModelJob(const std::string& id) {
  return impl_->Unary<pb::ModelJob>(&pb::TrackerService::Stub::CancelModelJob,
                                    WithId<pb::CancelModelJobRequest>(id),
                                    farm_api::ModelJobStatusFromProto);
}

absl::StatusOr<std::vector<farm_api::ModelJobStatus>> FarmClient::ListModelJobs(
    bool include_finished, int limit) {
  pb::ListModelJobsRequest request;
  request.set_include_finished(include_finished);
  request.set_limit(limit);
  return impl_->Unary<pb::ListModelJobsResponse>(
      &pb::TrackerService::Stub::ListModelJobs, request,
      [](const pb::ListModelJobsResponse& response) {
        std::vector<farm_api::ModelJobStatus> jobs;
        for (const pb::ModelJob& j : response.model_jobs()) {
          jobs.push_back(farm_api::ModelJobStatusFromProto(j));
        }
        return jobs;
      });
}

absl::StatusOr<farm_api::ModelJobStatus> FarmClient::ReportModelLatency(
    const std::string& id, const farm_api::ModelLatency& latency) {
  pb::ReportModelLatencyRequest request;
  request.set_id(id);
  request.set_measured_seconds(latency.measured_seconds);
  request.set_untuned_seconds(latency.untuned_seconds);
  request.set_measured_by(latency.measured_by);
  return impl_->Unary<pb::ModelJob>(&pb::TrackerService::Stub::ReportModelLatency, request,
                                    farm_api::ModelJobStatusFromProto);
}

absl::Status FarmClient::WatchModelJob(
    const std::string& id, const std::function<bool(const farm_api::ModelJobStatus&)>& on_event) {
  return impl_->Watch<pb::ModelJob>(&pb::TrackerService::Stub::WatchModelJob,
                                    WithId<pb::WatchModelJobRequest>(id),
                                    farm_api::ModelJobStatusFromProto, on_event);
}

absl::StatusOr<std::vector<farm_api::WorkerSnapshot>> FarmClient::ListWorkers(
    const std::string& device_key) {
  pb::ListWorkersRequest request;
  request.set_device_key(device_key);
  pb::ListWorkersResponse response;
  auto ctx = impl_->Context();
  grpc::Status s = impl_->stub->ListWorkers(ctx.get(), request, &response);
  if (!s.ok()) return FromGrpcStatus(s, impl_->options.address);
  std::vector<farm_api::WorkerSnapshot> workers;
  for (const pb::WorkerInfo& w : response.workers())
    workers.push_back(farm_api::WorkerSnapshotFromProto(w));
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

absl::StatusOr<std::vector<tuner::Record>> FarmClient::ListRecords(const std::string& workload,
                                                                   const std::string& target,
                                                                   const std::string& device_key,
                                                                   int limit) {
  pb::ListRecordsRequest request;
  request.set_workload(workload);
  request.set_target(target);
  request.set_device_key(device_key);
  request.set_limit(limit);
  pb::ListRecordsResponse response;
  auto ctx = impl_->Context();
  grpc::Status s = impl_->stub->ListRecords(ctx.get(), request, &response);
  if (!s.ok()) return FromGrpcStatus(s, impl_->options.address);
  std::vector<tuner::Record> records;
  for (const pb::Record& r : response.records()) records.push_back(farm_api::RecordFromProto(r));
  return records;
}

}  // namespace tunefarm::client

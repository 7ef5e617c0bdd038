// A worker made of raw gRPC calls on the real protocol, for the tracker service tests: it
// registers, reads what the tracker sends and answers leases with outcomes the test chooses.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "grpcpp/grpcpp.h"
#include "proto/tunefarm/v1/session.grpc.pb.h"
#include "proto/tunefarm/v1/tracker.grpc.pb.h"
#include "proto/tunefarm/v1/worker.grpc.pb.h"

namespace tunefarm::testing {

inline std::shared_ptr<grpc::Channel> LoopbackChannel(const std::string& address) {
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_ENABLE_HTTP_PROXY, 0);
  return grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(), args);
}

inline void SetToken(grpc::ClientContext& context, const std::string& token, double timeout_s) {
  if (!token.empty()) context.AddMetadata("authorization", "Bearer " + token);
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::milliseconds(static_cast<int64_t>(timeout_s * 1000)));
}

class StreamWorker {
 public:
  // Every read is bounded by the call's deadline, so a broken tracker fails a test, never hangs it.
  StreamWorker(const std::shared_ptr<grpc::Channel>& channel, const std::string& token = "",
               double timeout_s = 20)
      : stub_(v1::WorkerService::NewStub(channel)) {
    SetToken(context_, token, timeout_s);
    stream_ = stub_->Connect(&context_);
  }
  ~StreamWorker() {
    if (finished_) return;
    context_.TryCancel();
    stream_->Finish();
  }

  bool Send(const v1::WorkerMessage& msg) { return stream_->Write(msg); }
  // The Registered reply's worker id, or nullopt when the tracker answered otherwise.
  std::optional<std::string> Register(const std::string& device_key,
                                      const std::string& hostname = "box") {
    v1::WorkerMessage msg;
    msg.mutable_register_()->set_device_key(device_key);
    msg.mutable_register_()->set_hostname(hostname);
    msg.mutable_register_()->set_target("llvm");
    msg.mutable_register_()->set_cpu_model("test cpu");
    if (!Send(msg)) return std::nullopt;
    std::optional<v1::TrackerMessage> reply = Read();
    if (!reply || !reply->has_registered()) return std::nullopt;
    registered_ = reply->registered();
    return registered_.worker_id();
  }
  std::optional<v1::TrackerMessage> Read() {
    v1::TrackerMessage msg;
    if (!stream_->Read(&msg)) return std::nullopt;
    return msg;
  }
  // The next lease, skipping other messages; nullopt when the stream ends first.
  std::optional<v1::Lease> NextLease() {
    while (auto msg = Read()) {
      if (msg->has_lease()) return msg->lease();
    }
    return std::nullopt;
  }
  bool Answer(int64_t lease_id, const std::string& error_kind, std::vector<double> seconds,
              const std::string& message = "") {
    v1::WorkerMessage msg;
    v1::LeaseResult* r = msg.mutable_result();
    r->set_lease_id(lease_id);
    r->mutable_outcome()->set_error_kind(error_kind);
    r->mutable_outcome()->set_error_message(message);
    for (double s : seconds) r->mutable_outcome()->add_repeat_seconds(s);
    return Send(msg);
  }
  bool Heartbeat() {
    v1::WorkerMessage msg;
    msg.mutable_heartbeat()->set_sent_ms(1);
    return Send(msg);
  }
  // Drops the connection the way a killed worker does.
  void Drop() { context_.TryCancel(); }
  // Half-closes and returns the status the tracker ended the stream with.
  grpc::Status Finish() {
    stream_->WritesDone();
    v1::TrackerMessage msg;
    while (stream_->Read(&msg)) {
    }
    finished_ = true;
    return stream_->Finish();
  }
  // After the tracker ended the stream: drains and returns its status.
  grpc::Status Status() {
    v1::TrackerMessage msg;
    while (stream_->Read(&msg)) {
    }
    finished_ = true;
    return stream_->Finish();
  }
  const v1::Registered& registered() const { return registered_; }

 private:
  std::unique_ptr<v1::WorkerService::Stub> stub_;
  grpc::ClientContext context_;
  std::unique_ptr<grpc::ClientReaderWriter<v1::WorkerMessage, v1::TrackerMessage>> stream_;
  v1::Registered registered_;
  bool finished_ = false;
};

}  // namespace tunefarm::testing

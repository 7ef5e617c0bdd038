// A small real gRPC server playing the tracker's side of WorkerService for the worker's tests:
// it checks the token, answers Register with Registered, records every message the worker sends
// and lets the test send leases, cancels, drains and session calls on the current stream.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <grpcpp/grpcpp.h>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "proto/tunefarm/v1/worker.grpc.pb.h"
#include "rpc_server/worker.h"

namespace tunefarm::rpc_server::testing {

class FakeTracker final : public v1::WorkerService::Service {
 public:
  using Stream = grpc::ServerReaderWriter<v1::TrackerMessage, v1::WorkerMessage>;

  // Listens on 127.0.0.1:`port` (0: an ephemeral one); requires `token` when it is not empty;
  // plaintext unless `credentials` are given.
  explicit FakeTracker(std::string token = "", int port = 0,
                       std::shared_ptr<grpc::ServerCredentials> credentials = nullptr)
      : token_(std::move(token)) {
    grpc::ServerBuilder builder;
    builder.AddListeningPort(
        absl::StrCat("127.0.0.1:", port),
        credentials != nullptr ? credentials : grpc::InsecureServerCredentials(), &port_);
    builder.RegisterService(this);
    server_ = builder.BuildAndStart();
  }
  ~FakeTracker() override { Shutdown(); }

  bool ok() const { return server_ != nullptr && port_ > 0; }
  int port() const { return port_; }
  std::string address() const { return absl::StrCat("127.0.0.1:", port_); }

  // Ends every stream (the worker sees its tracker go away) and stops listening.
  void Shutdown() {
    if (server_ == nullptr) return;
    server_->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(200));
    server_->Wait();
    server_.reset();
  }

  // Writes to the current stream; false when no worker is connected.
  bool Send(const v1::TrackerMessage& message) {
    std::lock_guard<std::mutex> lock(mu_);
    return stream_ != nullptr && stream_->Write(message);
  }

  // The first message received (in order, from all streams) after the first `skip` that
  // satisfies `match`; heartbeats are recorded apart and never returned.
  std::optional<v1::WorkerMessage> WaitFor(
      const std::function<bool(const v1::WorkerMessage&)>& match, double timeout_s = 20) {
    std::unique_lock<std::mutex> lock(mu_);
    std::optional<v1::WorkerMessage> found;
    cv_.wait_for(lock, std::chrono::duration<double>(timeout_s), [&] {
      for (const v1::WorkerMessage& m : received_) {
        if (match(m)) {
          found = m;
          return true;
        }
      }
      return false;
    });
    return found;
  }
  std::optional<v1::WorkerMessage> WaitForResult(int64_t lease_id, double timeout_s = 20) {
    return WaitFor(
        [lease_id](const v1::WorkerMessage& m) {
          return m.has_result() && m.result().lease_id() == lease_id;
        },
        timeout_s);
  }
  // Waits until `count` registrations have been answered; returns them all.
  std::vector<v1::Register> WaitForRegistrations(size_t count, double timeout_s = 20) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, std::chrono::duration<double>(timeout_s),
                 [&] { return registrations_.size() >= count; });
    return registrations_;
  }
  bool WaitForStreamsEnded(int count, double timeout_s = 20) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, std::chrono::duration<double>(timeout_s),
                        [&] { return streams_ended_ >= count; });
  }
  std::vector<v1::WorkerMessage> received() {
    std::lock_guard<std::mutex> lock(mu_);
    return received_;
  }
  bool WaitForHeartbeats(int count, double timeout_s = 20) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, std::chrono::duration<double>(timeout_s),
                        [&] { return heartbeats_ >= count; });
  }

  grpc::Status Connect(grpc::ServerContext* context, Stream* stream) override {
    if (!token_.empty()) {
      auto it = context->client_metadata().find("authorization");
      if (it == context->client_metadata().end() ||
          std::string(it->second.data(), it->second.size()) != "Bearer " + token_) {
        return grpc::Status(grpc::StatusCode::UNAUTHENTICATED, "bad token");
      }
    }
    v1::WorkerMessage first;
    if (!stream->Read(&first) || !first.has_register_()) {
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "register first");
    }
    v1::TrackerMessage answer;
    std::string id;
    {
      std::lock_guard<std::mutex> lock(mu_);
      id = absl::StrCat("w", ++next_worker_);
    }
    answer.mutable_registered()->set_worker_id(id);
    answer.mutable_registered()->set_heartbeat_interval_ms(100);
    answer.mutable_registered()->set_heartbeat_timeout_ms(1000);
    {
      // Registered goes out before the test can send anything on this stream.
      std::lock_guard<std::mutex> lock(mu_);
      stream->Write(answer);
      registrations_.push_back(first.register_());
      stream_ = stream;
    }
    cv_.notify_all();
    v1::WorkerMessage message;
    while (stream->Read(&message)) {
      std::lock_guard<std::mutex> lock(mu_);
      if (message.has_heartbeat()) {
        ++heartbeats_;
      } else {
        received_.push_back(message);
      }
      cv_.notify_all();
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stream_ == stream) stream_ = nullptr;
      ++streams_ended_;
    }
    cv_.notify_all();
    return grpc::Status::OK;
  }

 private:
  std::string token_;
  int port_ = 0;
  std::unique_ptr<grpc::Server> server_;
  std::mutex mu_;
  std::condition_variable cv_;
  Stream* stream_ = nullptr;
  std::vector<v1::Register> registrations_;
  std::vector<v1::WorkerMessage> received_;
  int heartbeats_ = 0;
  int next_worker_ = 0;
  int streams_ended_ = 0;
};

// A lease of `function` in the library at `library_bytes` (sent with its bytes unless
// `hash_only`), checked against add_one of the same library, over n = 64, timed once.
inline v1::TrackerMessage MakeLease(int64_t lease_id, const std::string& library_bytes,
                                    const std::string& sha256, const std::string& function,
                                    bool hash_only = false) {
  v1::TrackerMessage message;
  v1::Lease* lease = message.mutable_lease();
  lease->set_lease_id(lease_id);
  lease->set_job_id("job-1");
  lease->mutable_library()->set_sha256(sha256);
  if (!hash_only) lease->mutable_library()->set_bytes(library_bytes);
  lease->mutable_library()->set_name("candidate.so");
  lease->set_function_name(function);
  lease->mutable_reference_library()->set_sha256(sha256);  // sent above, or cached
  lease->set_reference_function("add_one");
  lease->set_reference_key("add_one:64");
  (*lease->mutable_bindings())["n"] = 64;
  lease->mutable_options()->set_repeat(1);
  lease->mutable_options()->set_number(1);
  lease->mutable_options()->set_run_timeout_s(20);
  return message;
}

// Runs a worker's Run() on its own thread and keeps the status it returned.
class RunningWorker {
 public:
  explicit RunningWorker(Worker* worker)
      : thread_([this, worker] {
          absl::Status status = worker->Run();
          std::lock_guard<std::mutex> lock(mu_);
          status_ = status;
          done_ = true;
          cv_.notify_all();
        }) {}
  ~RunningWorker() { thread_.join(); }
  // The status Run returned, or nullopt if it is still running after `timeout_s`.
  std::optional<absl::Status> Wait(double timeout_s = 20) {
    std::unique_lock<std::mutex> lock(mu_);
    if (!cv_.wait_for(lock, std::chrono::duration<double>(timeout_s), [&] { return done_; })) {
      return std::nullopt;
    }
    return status_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  absl::Status status_;
  std::thread thread_;
};

}  // namespace tunefarm::rpc_server::testing

// SessionService: remote sessions relayed over the worker streams. OpenSession reserves an idle
// worker of a device key; each call becomes a SessionCall on that worker's stream and waits for
// the SessionReply of the same call_id. Closing, an idle timeout or the worker leaving end it.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "proto/tunefarm/v1/session.grpc.pb.h"
#include "runtime/clock.h"
#include "tracker/dispatcher.h"
#include "tracker/service/worker_links.h"

namespace tunefarm::tracker {

struct SessionServiceOptions {
  std::string token;                    // empty: no authentication
  double default_call_timeout_s = 300;  // a call without a client deadline waits this long
  int poll_interval_ms = 50;            // OpenSession's retry period while no worker is idle
  // OpenSession waits and relayed calls in progress at once. Each holds a thread of the
  // synchronous server while it waits; past this they are RESOURCE_EXHAUSTED, so the other
  // calls always find a thread.
  int max_waiting_calls = 256;
  const runtime::Clock* clock = &runtime::SystemClock();  // session use and call deadlines
};

class SessionService final : public v1::SessionService::Service {
 public:
  // Installs itself as `links`' session handler.
  SessionService(Dispatcher& dispatcher, WorkerLinks& links, SessionServiceOptions options);
  ~SessionService() override;

  grpc::Status OpenSession(grpc::ServerContext* context, const v1::OpenSessionRequest* request,
                           v1::OpenSessionResponse* response) override;
  grpc::Status UploadModule(grpc::ServerContext* context, const v1::UploadModuleRequest* request,
                            v1::UploadModuleResponse* response) override;
  grpc::Status AllocArray(grpc::ServerContext* context, const v1::AllocArrayRequest* request,
                          v1::AllocArrayResponse* response) override;
  grpc::Status CopyToArray(grpc::ServerContext* context, const v1::CopyToArrayRequest* request,
                           v1::CopyToArrayResponse* response) override;
  grpc::Status CopyFromArray(grpc::ServerContext* context, const v1::CopyFromArrayRequest* request,
                             v1::CopyFromArrayResponse* response) override;
  grpc::Status CallFunction(grpc::ServerContext* context, const v1::CallFunctionRequest* request,
                            v1::CallFunctionResponse* response) override;
  grpc::Status TimeFunction(grpc::ServerContext* context, const v1::TimeFunctionRequest* request,
                            v1::TimeFunctionResponse* response) override;
  grpc::Status TimeModel(grpc::ServerContext* context, const v1::TimeModelRequest* request,
                         v1::TimeModelResponse* response) override;
  grpc::Status CloseSession(grpc::ServerContext* context, const v1::CloseSessionRequest* request,
                            v1::CloseSessionResponse* response) override;

  // Ends sessions idle past their timeout and gives their workers back (the tracker's ticker).
  void ExpireIdle(int64_t now_ms);
  // Fails every waiting call and refuses new ones (the server is stopping).
  void Shutdown();
  size_t open_sessions() const;
  // OpenSession waits and relayed calls now holding a server thread (max_waiting_calls).
  int waiting_calls() const { return waiting_calls_.load(); }

 private:
  // TimeFunction and TimeModel: the token, and timing options a worker would accept.
  grpc::Status CheckTiming(grpc::ServerContext& context, const v1::MeasureOptions& options) const;

  struct Session {
    std::string worker_id;
    int64_t idle_timeout_ms = 0;
    int64_t last_used_ms = 0;
    int in_flight = 0;
    bool lost = false;  // its worker left: calls fail UNAVAILABLE until closed
  };
  struct Pending {
    std::string worker_id;
    bool done = false;
    grpc::Status status;
    v1::SessionReply reply;
  };

  // Counts a call that may wait against max_waiting_calls; false when none is left.
  bool BeginWaiting();
  void EndWaiting() { --waiting_calls_; }

  grpc::Status Relay(grpc::ServerContext* context, const std::string& session_id,
                     v1::SessionCall call, v1::SessionReply* reply);
  // Sends `call` to the worker and waits for its reply until `deadline_ms`.
  grpc::Status CallWorker(grpc::ServerContext* context, const std::string& worker_id,
                          v1::SessionCall call, int64_t deadline_ms, v1::SessionReply* reply);
  void OnReply(const std::string& worker_id, const v1::SessionReply& reply);
  void OnWorkerGone(const std::string& worker_id);
  // Tells the worker to drop the session's state (no wait) and returns it to the fleet.
  void Release(const std::string& session_id, const Session& session, int64_t now_ms);

  Dispatcher& dispatcher_;
  WorkerLinks& links_;
  SessionServiceOptions options_;

  std::atomic<int> waiting_calls_{0};
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool shutdown_ = false;
  int64_t next_session_ = 1;
  int64_t next_call_ = 1;
  std::map<std::string, Session> sessions_;
  std::map<int64_t, std::shared_ptr<Pending>> pending_;
};

}  // namespace tunefarm::tracker

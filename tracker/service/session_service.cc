#include "tracker/service/session_service.h"

#include <algorithm>
#include <chrono>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "proto/mapping/measure_options_proto.h"
#include "runtime/core/abbreviate.h"
#include "spdlog/spdlog.h"
#include "tracker/device_key.h"
#include "tracker/service/auth.h"
#include "tracker/service/proto_conversion.h"
#include "tracker/service/status_conversion.h"

namespace tunefarm::tracker {
namespace {

std::chrono::system_clock::time_point TimeOf(int64_t ms) {
  return std::chrono::system_clock::time_point(std::chrono::milliseconds(ms));
}

// Copies the worker's result into the response when it is the kind the call expects.
template <typename Response>
grpc::Status TakeResult(const grpc::Status& status, const v1::SessionReply& reply,
                        v1::SessionReply::ResultCase want,
                        const Response& (v1::SessionReply::*get)() const, Response* out) {
  if (!status.ok()) return status;
  if (reply.result_case() != want) {
    return grpc::Status(grpc::StatusCode::INTERNAL,
                        "the worker answered the session call with another kind of result");
  }
  *out = (reply.*get)();
  return grpc::Status::OK;
}

}  // namespace

SessionService::SessionService(Dispatcher& dispatcher, WorkerLinks& links,
                               SessionServiceOptions options)
    : dispatcher_(dispatcher), links_(links), options_(std::move(options)) {
  links_.SetSessionHandlers([this](const std::string& worker_id,
                                   const v1::SessionReply& reply) { OnReply(worker_id, reply); },
                            [this](const std::string& worker_id) { OnWorkerGone(worker_id); });
}

SessionService::~SessionService() {
  links_.SetSessionHandlers(nullptr, nullptr);
  Shutdown();
}

void SessionService::Shutdown() {
  std::lock_guard lock(mu_);
  shutdown_ = true;
  cv_.notify_all();
}

size_t SessionService::open_sessions() const {
  std::lock_guard lock(mu_);
  return sessions_.size();
}

bool SessionService::BeginWaiting() {
  if (waiting_calls_.fetch_add(1) < options_.max_waiting_calls) return true;
  --waiting_calls_;
  return false;
}

namespace {

grpc::Status TooManyWaiting(int limit) {
  return grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                      absl::StrCat("the tracker already has ", limit,
                                   " session calls waiting (its limit); retry later"));
}

}  // namespace

grpc::Status SessionService::OpenSession(grpc::ServerContext* context,
                                         const v1::OpenSessionRequest* request,
                                         v1::OpenSessionResponse* response) {
  if (grpc::Status auth = CheckToken(*context, options_.token); !auth.ok()) return auth;
  if (!BeginWaiting()) return TooManyWaiting(options_.max_waiting_calls);
  struct Done {
    SessionService* service;
    ~Done() { service->EndWaiting(); }
  } done{this};
  const std::string& key = request->device_key();
  if (absl::Status s = ValidateDeviceKey(key, "device_key"); !s.ok()) return ToGrpcStatus(s);
  // Checked (finite, at most a day) before any deadline is computed from them.
  absl::StatusOr<SessionTimeouts> timeouts = SessionTimeoutsFromProto(*request);
  if (!timeouts.ok()) return ToGrpcStatus(timeouts.status());
  const double wait_s = timeouts->wait_s;
  const double idle_s = timeouts->idle_timeout_s;
  const int64_t give_up_ms = options_.clock->NowMs() + static_cast<int64_t>(wait_s * 1000);
  while (true) {
    if (std::optional<farm_api::WorkerSnapshot> worker = dispatcher_.ReserveForSession(key)) {
      const std::string& worker_id = worker->description.worker_id;
      if (links_.Find(worker_id)) {
        std::lock_guard lock(mu_);
        std::string id = "s-" + std::to_string(next_session_++);
        Session& s = sessions_[id];
        s.worker_id = worker_id;
        s.idle_timeout_ms = static_cast<int64_t>(idle_s * 1000);
        s.last_used_ms = options_.clock->NowMs();
        response->set_session_id(id);
        response->set_worker_id(worker_id);
        response->set_target(worker->description.target);
        response->set_cpu_model(worker->description.cpu_model);
        spdlog::info("session {} opened on worker {}", id, worker_id);
        return grpc::Status::OK;
      }
      // Its stream just ended and the dispatcher has not heard yet: hand it back, try again.
      links_.Send(dispatcher_.ReleaseSession(worker_id, options_.clock->NowMs()));
    }
    std::unique_lock lock(mu_);
    if (shutdown_) return grpc::Status(grpc::StatusCode::UNAVAILABLE, "tracker is shutting down");
    if (context->IsCancelled()) return grpc::Status(grpc::StatusCode::CANCELLED, "cancelled");
    if (options_.clock->NowMs() >= give_up_ms) break;
    cv_.wait_for(lock, std::chrono::milliseconds(options_.poll_interval_ms));
  }
  // RESOURCE_EXHAUSTED, not UNAVAILABLE: the tracker answered, and a client must not report an
  // unreachable tracker.
  return grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                      "no idle worker with device key '" + runtime::Abbreviate(key) + "' within " +
                          absl::StrCat(wait_s) + " s");
}

grpc::Status SessionService::Relay(grpc::ServerContext* context, const std::string& session_id,
                                   v1::SessionCall call, v1::SessionReply* reply) {
  if (grpc::Status auth = CheckToken(*context, options_.token); !auth.ok()) return auth;
  if (!BeginWaiting()) return TooManyWaiting(options_.max_waiting_calls);
  struct Done {
    SessionService* service;
    ~Done() { service->EndWaiting(); }
  } done{this};
  std::string worker_id;
  {
    std::lock_guard lock(mu_);
    auto it = sessions_.find(session_id);
    if (it == sessions_.end()) {
      return grpc::Status(
          grpc::StatusCode::NOT_FOUND,
          "unknown session '" + runtime::Abbreviate(session_id) + "' (closed or idle too long)");
    }
    if (it->second.lost) {
      return grpc::Status(grpc::StatusCode::UNAVAILABLE,
                          "worker " + it->second.worker_id + " of session " + session_id + " left");
    }
    worker_id = it->second.worker_id;
    it->second.in_flight++;
    it->second.last_used_ms = options_.clock->NowMs();
  }
  int64_t deadline_ms =
      options_.clock->NowMs() + static_cast<int64_t>(options_.default_call_timeout_s * 1000);
  if (context->deadline() != std::chrono::system_clock::time_point::max()) {
    deadline_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      context->deadline().time_since_epoch())
                      .count();
  }
  call.set_session_id(session_id);
  grpc::Status status = CallWorker(context, worker_id, std::move(call), deadline_ms, reply);
  std::lock_guard lock(mu_);
  if (auto it = sessions_.find(session_id); it != sessions_.end()) {
    it->second.in_flight--;
    it->second.last_used_ms = options_.clock->NowMs();
  }
  return status;
}

grpc::Status SessionService::CallWorker(grpc::ServerContext* context, const std::string& worker_id,
                                        v1::SessionCall call, int64_t deadline_ms,
                                        v1::SessionReply* reply) {
  std::shared_ptr<WorkerLink> link = links_.Find(worker_id);
  if (!link) {
    return grpc::Status(grpc::StatusCode::UNAVAILABLE, "worker " + worker_id + " left");
  }
  auto pending = std::make_shared<Pending>();
  pending->worker_id = worker_id;
  int64_t call_id;
  {
    std::lock_guard lock(mu_);
    call_id = next_call_++;
    pending_[call_id] = pending;
  }
  call.set_call_id(call_id);
  link->SendSessionCall(std::move(call));
  std::unique_lock lock(mu_);
  grpc::Status status;
  while (true) {
    if (pending->done) {
      status = pending->status;
      if (status.ok()) *reply = std::move(pending->reply);
      break;
    }
    if (shutdown_) {
      status = grpc::Status(grpc::StatusCode::UNAVAILABLE, "tracker is shutting down");
      break;
    }
    if (context && context->IsCancelled()) {
      status = grpc::Status(grpc::StatusCode::CANCELLED, "cancelled by the client");
      break;
    }
    const int64_t now = options_.clock->NowMs();
    if (now >= deadline_ms) {
      status = grpc::Status(grpc::StatusCode::DEADLINE_EXCEEDED,
                            "worker " + worker_id + " did not answer session call " +
                                std::to_string(call_id) + " in time");
      break;
    }
    // Cancellation is polled: gRPC's sync API has no callback into this wait.
    cv_.wait_until(lock, TimeOf(std::min(deadline_ms, now + 200)));
  }
  pending_.erase(call_id);
  return status;
}

void SessionService::OnReply(const std::string& worker_id, const v1::SessionReply& reply) {
  std::lock_guard lock(mu_);
  auto it = pending_.find(reply.call_id());
  if (it == pending_.end() || it->second->worker_id != worker_id) return;  // late or foreign
  Pending& p = *it->second;
  p.done = true;
  if (reply.status_code() != 0) {
    int code = reply.status_code();
    if (code < 0 || code > static_cast<int>(grpc::StatusCode::UNAUTHENTICATED)) {
      code = static_cast<int>(grpc::StatusCode::UNKNOWN);
    }
    p.status = grpc::Status(static_cast<grpc::StatusCode>(code), reply.status_message());
  } else {
    p.reply = reply;
  }
  cv_.notify_all();
}

void SessionService::OnWorkerGone(const std::string& worker_id) {
  std::lock_guard lock(mu_);
  for (auto& [id, session] : sessions_) {
    if (session.worker_id == worker_id) session.lost = true;
  }
  for (auto& [call_id, pending] : pending_) {
    if (pending->worker_id != worker_id || pending->done) continue;
    pending->done = true;
    pending->status =
        grpc::Status(grpc::StatusCode::UNAVAILABLE, "worker " + worker_id + " left mid-session");
  }
  cv_.notify_all();
}

void SessionService::Release(const std::string& session_id, const Session& session,
                             int64_t now_ms) {
  if (session.lost) return;  // the dispatcher already forgot the worker
  // Released first so the worker is idle by the time it reads the close; the close still goes
  // out before any lease the release hands it.
  std::vector<Assignment> assignments = dispatcher_.ReleaseSession(session.worker_id, now_ms);
  if (auto link = links_.Find(session.worker_id)) {
    v1::SessionCall close;
    close.set_session_id(session_id);
    close.mutable_close()->set_session_id(session_id);
    link->SendSessionCall(std::move(close));  // call_id 0: no one waits for the reply
  }
  links_.Send(std::move(assignments));
}

grpc::Status SessionService::CloseSession(grpc::ServerContext* context,
                                          const v1::CloseSessionRequest* request,
                                          v1::CloseSessionResponse* /*response*/) {
  if (grpc::Status auth = CheckToken(*context, options_.token); !auth.ok()) return auth;
  Session session;
  {
    std::lock_guard lock(mu_);
    auto it = sessions_.find(request->session_id());
    if (it == sessions_.end()) {
      return grpc::Status(grpc::StatusCode::NOT_FOUND,
                          "unknown session '" + runtime::Abbreviate(request->session_id()) + "'");
    }
    session = it->second;
    sessions_.erase(it);
  }
  Release(request->session_id(), session, options_.clock->NowMs());
  spdlog::info("session {} closed", request->session_id());
  return grpc::Status::OK;
}

void SessionService::ExpireIdle(int64_t now_ms) {
  std::vector<std::pair<std::string, Session>> expired;
  {
    std::lock_guard lock(mu_);
    for (auto it = sessions_.begin(); it != sessions_.end();) {
      const Session& s = it->second;
      if (s.in_flight == 0 && now_ms - s.last_used_ms > s.idle_timeout_ms) {
        expired.emplace_back(it->first, s);
        it = sessions_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (const auto& [id, session] : expired) {
    spdlog::info("session {} ended after its idle timeout", id);
    Release(id, session, now_ms);
  }
}

grpc::Status SessionService::UploadModule(grpc::ServerContext* context,
                                          const v1::UploadModuleRequest* request,
                                          v1::UploadModuleResponse* response) {
  v1::SessionCall call;
  *call.mutable_upload() = *request;
  v1::SessionReply reply;
  grpc::Status s = Relay(context, request->session_id(), std::move(call), &reply);
  return TakeResult(s, reply, v1::SessionReply::kUpload, &v1::SessionReply::upload, response);
}

grpc::Status SessionService::AllocArray(grpc::ServerContext* context,
                                        const v1::AllocArrayRequest* request,
                                        v1::AllocArrayResponse* response) {
  v1::SessionCall call;
  *call.mutable_alloc() = *request;
  v1::SessionReply reply;
  grpc::Status s = Relay(context, request->session_id(), std::move(call), &reply);
  return TakeResult(s, reply, v1::SessionReply::kAlloc, &v1::SessionReply::alloc, response);
}

grpc::Status SessionService::CopyToArray(grpc::ServerContext* context,
                                         const v1::CopyToArrayRequest* request,
                                         v1::CopyToArrayResponse* response) {
  v1::SessionCall call;
  *call.mutable_copy_to() = *request;
  v1::SessionReply reply;
  grpc::Status s = Relay(context, request->session_id(), std::move(call), &reply);
  return TakeResult(s, reply, v1::SessionReply::kCopyTo, &v1::SessionReply::copy_to, response);
}

grpc::Status SessionService::CopyFromArray(grpc::ServerContext* context,
                                           const v1::CopyFromArrayRequest* request,
                                           v1::CopyFromArrayResponse* response) {
  v1::SessionCall call;
  *call.mutable_copy_from() = *request;
  v1::SessionReply reply;
  grpc::Status s = Relay(context, request->session_id(), std::move(call), &reply);
  return TakeResult(s, reply, v1::SessionReply::kCopyFrom, &v1::SessionReply::copy_from, response);
}

grpc::Status SessionService::CallFunction(grpc::ServerContext* context,
                                          const v1::CallFunctionRequest* request,
                                          v1::CallFunctionResponse* response) {
  v1::SessionCall call;
  *call.mutable_call_function() = *request;
  v1::SessionReply reply;
  grpc::Status s = Relay(context, request->session_id(), std::move(call), &reply);
  return TakeResult(s, reply, v1::SessionReply::kCallFunction, &v1::SessionReply::call_function,
                    response);
}

grpc::Status SessionService::TimeFunction(grpc::ServerContext* context,
                                          const v1::TimeFunctionRequest* request,
                                          v1::TimeFunctionResponse* response) {
  if (grpc::Status checked = CheckTiming(*context, request->options()); !checked.ok()) {
    return checked;
  }
  v1::SessionCall call;
  *call.mutable_time_function() = *request;
  v1::SessionReply reply;
  grpc::Status s = Relay(context, request->session_id(), std::move(call), &reply);
  return TakeResult(s, reply, v1::SessionReply::kTimeFunction, &v1::SessionReply::time_function,
                    response);
}

grpc::Status SessionService::TimeModel(grpc::ServerContext* context,
                                       const v1::TimeModelRequest* request,
                                       v1::TimeModelResponse* response) {
  if (grpc::Status checked = CheckTiming(*context, request->options()); !checked.ok()) {
    return checked;
  }
  v1::SessionCall call;
  *call.mutable_time_model() = *request;
  v1::SessionReply reply;
  grpc::Status s = Relay(context, request->session_id(), std::move(call), &reply);
  return TakeResult(s, reply, v1::SessionReply::kTimeModel, &v1::SessionReply::time_model,
                    response);
}

grpc::Status SessionService::CheckTiming(grpc::ServerContext& context,
                                         const v1::MeasureOptions& options) const {
  if (grpc::Status auth = CheckToken(context, options_.token); !auth.ok()) return auth;
  // The worker checks them too; refused here, a bad number never reaches a worker.
  if (absl::StatusOr<runtime::measure::MeasureOptions> o =
          proto_mapping::MeasureOptionsFromProto(options, "options.");
      !o.ok()) {
    return ToGrpcStatus(o.status());
  }
  return grpc::Status::OK;
}

}  // namespace tunefarm::tracker

#include "tracker/service/worker_service.h"

#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <utility>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "proto/mapping/build_spec_proto.h"
#include "proto/mapping/measure_options_proto.h"
#include "runtime/measure/speed_probe.h"
#include "spdlog/spdlog.h"
#include "tracker/device_key.h"
#include "tracker/service/auth.h"
#include "tracker/service/proto_conversion.h"
#include "tracker/service/status_conversion.h"

namespace tunefarm::tracker {
namespace {

// One connected worker. Owned by a shared_ptr (itself until OnDone, plus the WorkerLinks entry),
// so a lease queued from another thread never touches a deleted reactor.
//
// Locking: mu_ guards the outbound queue and the flags. It is never held while calling gRPC
// (StartWrite/Finish may run reactions inline) or the Dispatcher. At most one Write is in
// flight; Finish waits for it, so the reactor stays alive for any write we started.
class WorkerStream final : public grpc::ServerBidiReactor<v1::WorkerMessage, v1::TrackerMessage>,
                           public WorkerLink {
 public:
  WorkerStream(WorkerService& service, grpc::CallbackServerContext* context)
      : service_(service), context_(context) {}

  void Begin(std::shared_ptr<WorkerStream> self) {
    self_ = std::move(self);
    service_.open_streams_counter()++;
    grpc::Status auth = CheckToken(*context_, service_.options().token);
    if (!auth.ok()) {
      RequestFinish(auth);
      return;
    }
    StartRead(&incoming_);
  }

  // --- WorkerLink ---
  void SendLease(const Assignment& a) override {
    const int64_t now = service_.options().clock->NowMs();
    bool start;
    {
      std::lock_guard lock(mu_);
      if (finish_requested_) return;
      // The dispatcher re-queues an expired lease without telling this stream: forget it.
      std::erase_if(in_flight_,
                    [&](const auto& entry) { return entry.second.assignment.deadline_ms <= now; });
      in_flight_.insert_or_assign(a.lease_id, SentLease{a});
      v1::TrackerMessage msg;
      FillLeaseLocked(a, msg.mutable_lease());
      // Queued under the lock that filled it, so leases reach the worker in the order in which
      // sent_hashes_ saw them (the bytes before the hash alone).
      start = EnqueueLocked(std::move(msg));
    }
    if (start) StartWrite(&current_);
  }
  void SendCancel(int64_t lease_id) override {
    bool start;
    {
      std::lock_guard lock(mu_);
      in_flight_.erase(lease_id);  // a result that still says "missing" is not answered
      v1::TrackerMessage msg;
      msg.mutable_cancel()->set_lease_id(lease_id);
      start = EnqueueLocked(std::move(msg));
    }
    if (start) StartWrite(&current_);
  }
  void SendSessionCall(v1::SessionCall call) override {
    v1::TrackerMessage msg;
    *msg.mutable_session_call() = std::move(call);
    Enqueue(std::move(msg));
  }
  void Close(int code, const std::string& message) override {
    {
      std::lock_guard lock(mu_);
      closed_by_tracker_ = true;
    }
    service_.links().Remove(worker_id_, this);
    RequestFinish(grpc::Status(static_cast<grpc::StatusCode>(code), message));
  }

  // --- reactions ---
  void OnReadDone(bool ok) override {
    if (!ok) {
      EndStream(grpc::Status::OK);
      return;
    }
    grpc::Status status = registered_ ? HandleMessage() : HandleRegister();
    if (!status.ok()) {
      EndStream(status);
      return;
    }
    StartRead(&incoming_);
  }

  void OnWriteDone(bool ok) override {
    std::optional<grpc::Status> finish;
    bool next = false;
    {
      std::lock_guard lock(mu_);
      if (!ok) queue_.clear();  // the stream is broken; the read side reports its end
      if (!finish_requested_ && !queue_.empty()) {
        current_ = std::move(queue_.front());
        queue_.pop_front();
        next = true;
      } else {
        writing_ = false;
        if (finish_requested_ && !finished_) {
          finished_ = true;
          finish = finish_status_;
        }
      }
    }
    if (next) {
      StartWrite(&current_);
    } else if (finish) {
      Finish(*finish);
    }
  }

  void OnDone() override {
    service_.open_streams_counter()--;
    std::shared_ptr<WorkerStream> keep = std::move(self_);  // may free *this on return
  }

 private:
  // The lease a worker holds until it answers: sent once more, with its artifacts' bytes, when
  // the worker lost one of them.
  struct SentLease {
    Assignment assignment;
    bool resent = false;
  };

  void FillLeaseLocked(const Assignment& a, v1::Lease* lease) {
    lease->set_lease_id(a.lease_id);
    lease->set_deadline_ms(a.deadline_ms);
    const MeasureWork& w = *a.work;
    lease->set_job_id(w.job_id);
    if (w.build) {
      *lease->mutable_build() = proto_mapping::BuildSpecToProto(*w.build);
      lease->set_build_only(w.build_only);
    } else {
      FillArtifactLocked(w.library, lease->mutable_library());
    }
    lease->set_function_name(w.function_name);
    if (w.reference) {
      FillArtifactLocked(*w.reference, lease->mutable_reference_library());
      lease->set_reference_function(w.reference_function);
      lease->set_reference_key(w.reference_key);
    }
    for (const auto& [name, value] : w.bindings) (*lease->mutable_bindings())[name] = value;
    *lease->mutable_options() = proto_mapping::MeasureOptionsToProto(
        runtime::measure::ForSlowerDevice(w.options, slowness_));
    lease->set_best_seconds(w.best_seconds);
  }

  // A worker's cache may evict what this connection sent it. When its result names missing
  // artifacts, the lease goes to it once more with every artifact's bytes, and the result is not
  // passed on (it is not the candidate's). True when the result is not to be passed on.
  bool ResendWithBytes(const v1::LeaseResult& result, int64_t now) {
    bool start;
    {
      std::lock_guard lock(mu_);
      auto it = in_flight_.find(result.lease_id());
      if (it == in_flight_.end()) return false;
      const Assignment& a = it->second.assignment;
      const MeasureWork& w = *a.work;
      // A second "missing" after the bytes came is recorded as it came.
      if (result.missing_artifacts().empty() || it->second.resent || w.build || finish_requested_) {
        in_flight_.erase(it);
        return false;
      }
      // An expired lease is the dispatcher's to re-queue (at its next tick, if it has not yet);
      // a draining worker would ignore the lease, which is re-queued when it leaves. Neither
      // answer is the candidate's.
      if (draining_ || a.deadline_ms <= now) {
        in_flight_.erase(it);
        return true;
      }
      it->second.resent = true;
      sent_hashes_.erase(w.library.sha256);
      if (w.reference) sent_hashes_.erase(w.reference->sha256);
      v1::TrackerMessage msg;
      FillLeaseLocked(a, msg.mutable_lease());
      start = EnqueueLocked(std::move(msg));
    }
    spdlog::info("worker {} no longer has {} of lease {}: sent again with the bytes", worker_id_,
                 absl::StrJoin(result.missing_artifacts(), ", "), result.lease_id());
    if (start) StartWrite(&current_);
    return true;
  }

  void FillArtifactLocked(const Artifact& artifact, v1::Artifact* out) {
    out->set_sha256(artifact.sha256);
    out->set_name(artifact.name);
    // The bytes travel once per connection; the worker caches them by hash.
    if (artifact.bytes && sent_hashes_.insert(artifact.sha256).second) {
      out->set_bytes(*artifact.bytes);
    }
  }

  void Enqueue(v1::TrackerMessage msg) {
    bool start;
    {
      std::lock_guard lock(mu_);
      start = EnqueueLocked(std::move(msg));
    }
    if (start) StartWrite(&current_);
  }

  // Queues `msg`, or makes it the write to start: true when the caller, once it released mu_,
  // must StartWrite(&current_).
  bool EnqueueLocked(v1::TrackerMessage msg) {
    if (finish_requested_) return false;
    if (writing_ || holding_) {
      queue_.push_back(std::move(msg));
      return false;
    }
    writing_ = true;
    current_ = std::move(msg);
    return true;
  }

  // Starts writing what was queued while holding (Registered, then any early lease).
  void ReleaseHold() {
    {
      std::lock_guard lock(mu_);
      holding_ = false;
      if (writing_ || finish_requested_ || queue_.empty()) return;
      writing_ = true;
      current_ = std::move(queue_.front());
      queue_.pop_front();
    }
    StartWrite(&current_);
  }

  void RequestFinish(grpc::Status status) {
    {
      std::lock_guard lock(mu_);
      if (finish_requested_) return;
      finish_requested_ = true;
      finish_status_ = std::move(status);
      queue_.clear();
      if (writing_) return;  // OnWriteDone finishes
      finished_ = true;
    }
    Finish(finish_status_);
  }

  grpc::Status HandleRegister() {
    if (incoming_.kind_case() != v1::WorkerMessage::kRegister) {
      return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                          "the first message on the worker stream must be register");
    }
    const v1::Register& reg = incoming_.register_();
    if (absl::Status s = ValidateDeviceKey(reg.device_key(), "register: device_key"); !s.ok()) {
      return ToGrpcStatus(s);
    }
    if (reg.build_only() && !reg.can_build()) {
      return grpc::Status(
          grpc::StatusCode::INVALID_ARGUMENT,
          "register: build_only needs can_build (a builder must have the compiler)");
    }
    farm_api::WorkerDescription desc = WorkerDescriptionFromRegister(reg);
    desc.worker_id = service_.NextWorkerId(reg.hostname());
    desc.peer = context_->peer();
    // A reconnect: the dispatcher decides whether the claim holds (it counts losses per worker).
    desc.previous_worker_id = reg.previous_worker_id();
    desc.slowness = runtime::measure::Slowness(reg.speed_probe_seconds(),
                                               service_.options().speed_probe_seconds);
    worker_id_ = desc.worker_id;
    slowness_ = desc.slowness;
    service_.links().Add(worker_id_, self_);
    v1::TrackerMessage reply;
    v1::Registered* registered = reply.mutable_registered();
    registered->set_worker_id(worker_id_);
    registered->set_heartbeat_interval_ms(service_.options().heartbeat_interval_ms);
    registered->set_heartbeat_timeout_ms(service_.options().heartbeat_timeout_ms);
    registered->set_max_message_bytes(service_.options().max_message_bytes);
    // Queued first, so it precedes any lease; written only once the dispatcher knows the
    // worker, so a worker that has read Registered is already in ListWorkers.
    Enqueue(std::move(reply));
    auto assignments = service_.dispatcher().AddWorker(desc, service_.options().clock->NowMs());
    if (!assignments.ok()) {
      service_.links().Remove(worker_id_, this);
      return ToGrpcStatus(assignments.status());
    }
    registered_ = true;
    ReleaseHold();
    spdlog::info("worker {} registered (device key '{}', {}{})", worker_id_, desc.device_key,
                 desc.peer,
                 desc.slowness >= 1.5 ? absl::StrFormat(", %.1fx slower than the tracker: its run "
                                                        "timeouts are that much longer",
                                                        desc.slowness)
                                      : std::string());
    service_.links().Send(std::move(*assignments));
    if (service_.options().on_registered) service_.options().on_registered(desc.device_key);
    return grpc::Status::OK;
  }

  grpc::Status HandleMessage() {
    Dispatcher& dispatcher = service_.dispatcher();
    const int64_t now = service_.options().clock->NowMs();
    // Any message shows the worker is alive; a heartbeat also names the lease it works on.
    dispatcher.Heartbeat(worker_id_, now,
                         incoming_.kind_case() == v1::WorkerMessage::kHeartbeat
                             ? incoming_.heartbeat().lease_id()
                             : 0);
    switch (incoming_.kind_case()) {
      case v1::WorkerMessage::kHeartbeat:
        break;
      case v1::WorkerMessage::kResult: {
        const v1::LeaseResult& result = incoming_.result();
        if (ResendWithBytes(result, now)) break;
        WorkOutcome outcome = WorkOutcomeFromResult(result, worker_id_);
        service_.links().Send(
            dispatcher.Complete(worker_id_, result.lease_id(), std::move(outcome), now));
        break;
      }
      case v1::WorkerMessage::kDraining:
        spdlog::info("worker {} is draining: {}", worker_id_, incoming_.draining().reason());
        {
          std::lock_guard lock(mu_);
          draining_ = true;
        }
        dispatcher.SetDraining(worker_id_);
        break;
      case v1::WorkerMessage::kSessionReply:
        service_.links().DeliverSessionReply(worker_id_, incoming_.session_reply());
        break;
      case v1::WorkerMessage::kRegister:
        return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                            "register sent twice on one worker stream");
      case v1::WorkerMessage::KIND_NOT_SET:
        break;  // a newer worker's message kind this tracker does not know: ignored
    }
    return grpc::Status::OK;
  }

  // The worker left (stream closed or broken): its lease goes back to the queue, possibly to
  // another worker at once, and its sessions fail. Runs at most once.
  void EndStream(grpc::Status status) {
    bool report;
    {
      std::lock_guard lock(mu_);
      report = registered_ && !closed_by_tracker_ && !ended_;
      ended_ = true;
    }
    if (report) {
      service_.links().Remove(worker_id_, this);
      spdlog::info("worker {} disconnected", worker_id_);
      service_.links().Send(
          service_.dispatcher().RemoveWorker(worker_id_, service_.options().clock->NowMs()));
      service_.links().NotifyGone(worker_id_);
    }
    RequestFinish(std::move(status));
  }

  WorkerService& service_;
  grpc::CallbackServerContext* context_;
  std::shared_ptr<WorkerStream> self_;
  v1::WorkerMessage incoming_;  // only the read chain touches it
  bool registered_ = false;     // read chain only
  std::string worker_id_;       // set once at registration, before the link is shared
  double slowness_ = 1;         // set once at registration: its leases' run timeouts scale by it

  std::mutex mu_;
  std::deque<v1::TrackerMessage> queue_;
  v1::TrackerMessage current_;  // the message of the one write in flight
  bool writing_ = false;
  bool holding_ = true;  // until registration completes: messages queue, nothing is written
  bool finish_requested_ = false;
  bool finished_ = false;
  grpc::Status finish_status_;
  bool closed_by_tracker_ = false;
  bool ended_ = false;
  bool draining_ = false;  // the worker said it leaves: it ignores new leases
  std::set<std::string> sent_hashes_;
  std::map<int64_t, SentLease> in_flight_;  // by lease id, until the worker answers
};

}  // namespace

WorkerService::WorkerService(Dispatcher& dispatcher, WorkerLinks& links,
                             WorkerServiceOptions options)
    : dispatcher_(dispatcher), links_(links), options_(std::move(options)) {
  if (options_.speed_probe_seconds <= 0) {
    options_.speed_probe_seconds = runtime::measure::SpeedProbeSeconds();
  }
}

std::string WorkerService::NextWorkerId(const std::string& hostname) {
  std::string host;
  for (char c : hostname) {
    bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                c == '-' || c == '.' || c == '_';
    if (keep) host += c;
  }
  if (host.empty()) host = "unknown";
  return "w-" + std::to_string(next_worker_number_++) + "-" + host;
}

grpc::ServerBidiReactor<v1::WorkerMessage, v1::TrackerMessage>* WorkerService::Connect(
    grpc::CallbackServerContext* context) {
  auto stream = std::make_shared<WorkerStream>(*this, context);
  WorkerStream* raw = stream.get();
  raw->Begin(std::move(stream));
  return raw;
}

}  // namespace tunefarm::tracker

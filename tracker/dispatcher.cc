#include "tracker/dispatcher.h"

#include <algorithm>
#include <chrono>

#include "tracker/dispatcher_state.h"
#include "tracker/metrics.h"

namespace tunefarm::tracker {

using internal::PendingDone;

struct Dispatcher::State {
  explicit State(const DispatcherOptions& options) : s(options) {}
  mutable std::mutex mu;
  internal::DispatcherState s;
};

namespace {

// Done callbacks run here, after the lock is released: they may call back into the dispatcher.
// Every completion passes through here (a worker's result, worker_lost from lost leases or
// quarantine, cancelled), so this is where results are counted; cancelled ones are not results.
void RunDone(PendingDone& done, Metrics* metrics) {
  for (auto& [callback, outcome] : done) {
    if (metrics != nullptr && !outcome.cancelled && !outcome.unbuilt && !outcome.build_only) {
      metrics->CountResult(outcome.error_kind);
    }
    callback(outcome);
  }
}

}  // namespace

Dispatcher::Dispatcher(DispatcherOptions options)
    : state_(std::make_unique<State>(options)), options_(options) {}

Dispatcher::~Dispatcher() = default;

absl::StatusOr<std::vector<Assignment>> Dispatcher::AddWorker(
    const farm_api::WorkerDescription& worker, int64_t now_ms) {
  std::vector<Assignment> out;
  std::lock_guard<std::mutex> lock(state_->mu);
  if (absl::Status s = state_->s.AddWorker(worker, now_ms); !s.ok()) return s;
  state_->s.Dispatch(internal::QueueOf(worker.device_key, worker.build_only), now_ms, out);
  return out;
}

std::vector<Assignment> Dispatcher::RemoveWorker(const std::string& worker_id, int64_t now_ms) {
  std::vector<Assignment> out;
  PendingDone done;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    std::optional<std::string> key = state_->s.RemoveWorker(worker_id, now_ms, done);
    if (key.has_value()) state_->s.Dispatch(*key, now_ms, out);
  }
  RunDone(done, metrics_.load());
  return out;
}

void Dispatcher::Heartbeat(const std::string& worker_id, int64_t now_ms, int64_t lease_in_hand) {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->s.Heartbeat(worker_id, now_ms, lease_in_hand);
}

void Dispatcher::SetDraining(const std::string& worker_id) {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->s.SetDraining(worker_id);
}

std::vector<Assignment> Dispatcher::Submit(MeasureWork work, DoneCallback done, int64_t now_ms) {
  std::vector<Assignment> out;
  PendingDone unbuilt;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    const std::string key = state_->s.Submit(std::move(work), std::move(done), unbuilt);
    state_->s.Dispatch(key, now_ms, out);
  }
  RunDone(unbuilt, metrics_.load());
  return out;
}

std::vector<Assignment> Dispatcher::Complete(const std::string& worker_id, int64_t lease_id,
                                             WorkOutcome outcome, int64_t now_ms) {
  // Dispatch latency: from the result arriving here to the same worker's next lease being made
  // (lock wait included), on the steady clock since now_ms is the caller's wall clock.
  const auto entered = std::chrono::steady_clock::now();
  Metrics* metrics = metrics_.load();
  std::vector<Assignment> out;
  PendingDone done;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    std::optional<std::string> queue =
        state_->s.Complete(worker_id, lease_id, std::move(outcome), now_ms, done);
    if (queue.has_value()) state_->s.Dispatch(*queue, now_ms, out);
  }
  if (metrics != nullptr && std::any_of(out.begin(), out.end(), [&](const Assignment& a) {
        return a.worker_id == worker_id;
      })) {
    metrics->ObserveDispatchLatency(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - entered).count());
  }
  RunDone(done, metrics);
  return out;
}

std::vector<Assignment> Dispatcher::Tick(int64_t now_ms, std::vector<std::string>* removed) {
  std::vector<Assignment> out;
  PendingDone done;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    state_->s.Expire(now_ms, removed, done);
    // Also hands out work to workers freed without a dispatch (a cancelled job's leases).
    state_->s.DispatchAll(now_ms, out);
  }
  RunDone(done, metrics_.load());
  return out;
}

void Dispatcher::SetJobWeight(const std::string& job_id, int weight) {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->s.SetJobWeight(job_id, weight);
}

std::vector<Withdrawal> Dispatcher::CancelJob(const std::string& job_id) {
  std::vector<Withdrawal> out;
  PendingDone done;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    out = state_->s.CancelJob(job_id, done);
  }
  RunDone(done, metrics_.load());
  return out;
}

std::optional<farm_api::WorkerSnapshot> Dispatcher::ReserveForSession(
    const std::string& device_key) {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->s.ReserveForSession(device_key);
}

std::vector<Assignment> Dispatcher::ReleaseSession(const std::string& worker_id, int64_t now_ms) {
  std::vector<Assignment> out;
  std::lock_guard<std::mutex> lock(state_->mu);
  const std::string* key = state_->s.ReleaseSession(worker_id);
  if (key != nullptr) state_->s.Dispatch(*key, now_ms, out);
  return out;
}

std::vector<farm_api::WorkerSnapshot> Dispatcher::Workers(const std::string& device_key) const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->s.Workers(device_key);
}

std::vector<farm_api::WorkerSnapshot> Dispatcher::RecentlyGone() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->s.RecentlyGone();
}

int Dispatcher::QueuedFor(const std::string& device_key) const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->s.QueuedFor(device_key);
}

int Dispatcher::IdleFor(const std::string& device_key) const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->s.IdleFor(device_key);
}

int Dispatcher::BuildersFor(const std::string& device_key,
                            const std::set<std::string>& except) const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->s.BuildersFor(device_key, except);
}

BuildOnlyCounts Dispatcher::BuildOnlyFor(const std::string& device_key,
                                         const std::set<std::string>& except) const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->s.BuildOnlyFor(device_key, except);
}

int Dispatcher::WorkersFor(const std::string& device_key) const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->s.WorkersFor(device_key);
}

std::vector<std::string> Dispatcher::DeviceKeys() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->s.DeviceKeys();
}

int Dispatcher::LeasesOutstanding() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->s.LeasesOutstanding();
}

}  // namespace tunefarm::tracker

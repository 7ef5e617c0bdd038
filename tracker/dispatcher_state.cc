#include "tracker/dispatcher_state.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/measure/measure_options.h"

namespace tunefarm::tracker::internal {
namespace {

constexpr std::string_view kBuildQueuePrefix =
    "\x1f"
    "build:";

}  // namespace

std::string QueueOf(const std::string& device_key, bool build_only) {
  return build_only ? std::string(kBuildQueuePrefix) + device_key : device_key;
}

namespace {

std::string QueueOfWorker(const farm_api::WorkerDescription& worker) {
  return QueueOf(worker.device_key, worker.build_only);
}

std::string QueueOfWork(const MeasureWork& work) {
  return QueueOf(work.device_key, work.build_only);
}

}  // namespace

absl::Status DispatcherState::AddWorker(const farm_api::WorkerDescription& worker, int64_t now_ms) {
  if (workers_.count(worker.worker_id) != 0) {
    return absl::AlreadyExistsError(absl::StrCat("worker id ", worker.worker_id, " is taken"));
  }
  WorkerEntry& w = workers_[worker.worker_id];
  w.description = worker;
  std::optional<std::string> continued =
      identities_.Join(worker.worker_id, worker.previous_worker_id);
  w.identity = continued.value_or(worker.worker_id);
  if (!continued) w.description.previous_worker_id.clear();
  w.connected_ms = now_ms;
  Touch(w, now_ms);
  KeyState& key = keys_[QueueOfWorker(worker)];
  ++key.workers;
  if (worker.can_build) ++key.builders;
  MakeIdle(w);
  return absl::OkStatus();
}

std::optional<std::string> DispatcherState::RemoveWorker(const std::string& worker_id,
                                                         int64_t now_ms, PendingDone& done) {
  auto it = workers_.find(worker_id);
  if (it == workers_.end()) return std::nullopt;
  WorkerEntry& w = it->second;
  // The fleet page shows who left recently, with what they had done.
  farm_api::WorkerSnapshot gone = SnapshotOf(w);
  gone.state = farm_api::WorkerState::kGone;
  gone.gone_ms = now_ms;
  recently_gone_.push_front(std::move(gone));
  if (recently_gone_.size() > 64) recently_gone_.pop_back();
  MakeNotIdle(w);
  std::string queue = QueueOfWorker(w.description);
  KeyState& key = keys_[queue];
  --key.workers;
  if (w.description.can_build) --key.builders;
  int64_t lease_id = w.lease_id;
  w.lease_id = 0;
  if (lease_id != 0) {
    LoseLease(lease_id, absl::StrCat("worker ", worker_id, " was lost"), /*worker_gone=*/true,
              done);
  }
  const bool was_builder = w.description.can_build;
  identities_.Leave(worker_id, w.identity);
  heartbeats_.erase({w.last_heartbeat_ms, worker_id});
  workers_.erase(it);
  // Work to build that no builder left may take goes back to its job (counted without this one).
  if (was_builder) ReturnUnbuilt(queue, key, done);
  return queue;
}

void DispatcherState::Heartbeat(const std::string& worker_id, int64_t now_ms,
                                int64_t lease_in_hand) {
  auto it = workers_.find(worker_id);
  if (it == workers_.end()) return;
  Touch(it->second, now_ms);
  if (lease_in_hand == 0 || it->second.lease_id != lease_in_hand) return;
  auto lease = leases_.find(lease_in_hand);
  if (lease == leases_.end()) return;
  Lease& l = lease->second;
  const int64_t last = l.leased_ms + std::max(options_.lease_max_spans, 1) * l.span_ms;
  const int64_t moved = std::min(now_ms + l.span_ms, last);
  if (moved <= l.deadline_ms) return;
  deadlines_.erase({l.deadline_ms, lease_in_hand});
  l.deadline_ms = moved;
  deadlines_.insert({moved, lease_in_hand});
}

void DispatcherState::Touch(WorkerEntry& w, int64_t now_ms) {
  heartbeats_.erase({w.last_heartbeat_ms, w.description.worker_id});
  w.last_heartbeat_ms = now_ms;
  heartbeats_.insert({now_ms, w.description.worker_id});
}

void DispatcherState::SetDraining(const std::string& worker_id) {
  auto it = workers_.find(worker_id);
  if (it == workers_.end()) return;
  it->second.draining = true;
  MakeNotIdle(it->second);
}

std::string DispatcherState::Submit(MeasureWork work, Dispatcher::DoneCallback done,
                                    PendingDone& pending) {
  int64_t id = next_item_++;
  Item& item = items_[id];
  item.work = std::make_shared<const MeasureWork>(std::move(work));
  item.done = std::move(done);
  JobOf(item.work->job_id).items.insert(id);
  std::string queue = QueueOfWork(*item.work);
  // The key's last builder it may go to may have left since the job decided to send it.
  if (!Buildable(queue, *item.work)) {
    Finish(id, UnbuiltOutcome(), pending);
    return queue;
  }
  Enqueue(id, /*front=*/false);
  return queue;
}

std::optional<std::string> DispatcherState::Complete(const std::string& worker_id, int64_t lease_id,
                                                     WorkOutcome outcome, int64_t now_ms,
                                                     PendingDone& done) {
  auto lease = leases_.find(lease_id);
  if (lease == leases_.end() || lease->second.worker_id != worker_id) return std::nullopt;
  auto wit = workers_.find(worker_id);
  if (wit == workers_.end()) return std::nullopt;  // cannot happen: removal drops its lease
  WorkerEntry& w = wit->second;
  int64_t item_id = lease->second.item_id;
  EraseLease(lease_id);
  w.lease_id = 0;
  Touch(w, now_ms);
  if (!outcome.unbuilt) {
    ++w.measured;
    if (outcome.error_kind != tuner::ErrorKind::kOk) ++w.failures;
  }
  if (outcome.worker_id.empty()) outcome.worker_id = worker_id;
  // What the worker said of itself when it registered, not what each answer claims.
  outcome.emulated = w.description.emulated;
  outcome.cancelled = false;
  // Build-only work is answered with libraries and a measurement with timings; a worker that
  // mixes them up has not done what it was leased.
  const bool build_only = items_.at(item_id).work->build_only;
  if (outcome.error_kind == tuner::ErrorKind::kOk && !outcome.unbuilt &&
      build_only != outcome.built.has_value()) {
    outcome.error_kind = tuner::ErrorKind::kRuntimeError;
    outcome.error_message = build_only ? "the builder answered without the libraries it built"
                                       : "the worker answered a measurement with libraries";
    outcome.built.reset();
    outcome.repeat_seconds.clear();
  }
  Finish(item_id, std::move(outcome), done);
  MakeIdle(w);
  return QueueOfWorker(w.description);
}

void DispatcherState::Expire(int64_t now_ms, std::vector<std::string>* removed, PendingDone& done) {
  while (!deadlines_.empty() && deadlines_.begin()->first <= now_ms) {
    int64_t lease_id = deadlines_.begin()->second;
    auto lease = leases_.find(lease_id);
    std::string worker_id = lease->second.worker_id;
    auto w = workers_.find(worker_id);
    LoseLease(lease_id, absl::StrCat("lease on worker ", worker_id, " expired"),
              /*worker_gone=*/false, done);
    // The worker is alive but overdue: it may take other work (its late result is ignored).
    if (w != workers_.end()) {
      w->second.lease_id = 0;
      MakeIdle(w->second);
    }
  }
  // The silent ones are the front of the heartbeat order: a fleet of thousands is not scanned
  // every tick.
  std::vector<std::string> silent;
  for (auto it = heartbeats_.begin();
       it != heartbeats_.end() && now_ms - it->first > options_.heartbeat_timeout_ms; ++it) {
    silent.push_back(it->second);
  }
  std::sort(silent.begin(), silent.end());
  for (const std::string& id : silent) {
    RemoveWorker(id, now_ms, done);
    if (removed != nullptr) removed->push_back(id);
  }
}

void DispatcherState::SetJobWeight(const std::string& job_id, int weight) {
  JobOf(job_id).weight = std::max(1, weight);
}

std::vector<Withdrawal> DispatcherState::CancelJob(const std::string& job_id, PendingDone& done) {
  std::vector<Withdrawal> withdrawals;
  auto job = jobs_.find(job_id);
  if (job == jobs_.end()) return withdrawals;
  std::vector<int64_t> ids(job->second.items.begin(), job->second.items.end());
  std::sort(ids.begin(), ids.end());
  for (int64_t id : ids) {
    Item& item = items_.at(id);
    KeyState& key = keys_[QueueOfWork(*item.work)];
    if (item.lease_id != 0) {
      int64_t lease_id = item.lease_id;
      std::string worker_id = leases_.at(lease_id).worker_id;
      withdrawals.push_back({worker_id, lease_id});
      EraseLease(lease_id);
      auto w = workers_.find(worker_id);
      if (w != workers_.end()) {
        w->second.lease_id = 0;
        MakeIdle(w->second);
      }
    } else {
      --key.queued;
    }
    auto queue = key.jobs.find(job_id);
    if (queue != key.jobs.end()) {
      key.active.erase({queue->second.pass, queue->second.order, job_id});
      key.jobs.erase(queue);
    }
    WorkOutcome outcome;
    outcome.cancelled = true;
    outcome.error_message = "the job was cancelled";
    Finish(id, std::move(outcome), done);
  }
  return withdrawals;
}

std::optional<farm_api::WorkerSnapshot> DispatcherState::ReserveForSession(
    const std::string& device_key) {
  auto key = keys_.find(device_key);
  if (key == keys_.end() || key->second.idle.empty()) return std::nullopt;
  WorkerEntry& w = workers_.at(key->second.idle.begin()->second);
  MakeNotIdle(w);
  w.in_session = true;
  return SnapshotOf(w);
}

const std::string* DispatcherState::ReleaseSession(const std::string& worker_id) {
  auto it = workers_.find(worker_id);
  if (it == workers_.end() || !it->second.in_session) return nullptr;
  it->second.in_session = false;
  MakeIdle(it->second);
  return &it->second.description.device_key;
}

void DispatcherState::Dispatch(const std::string& queue_name, int64_t now_ms,
                               std::vector<Assignment>& out) {
  auto kit = keys_.find(queue_name);
  if (kit == keys_.end()) return;
  KeyState& key = kit->second;
  // Jobs whose next item no idle worker may take, set aside until the call ends: the idle
  // workers only get fewer meanwhile, so each is looked at once per call, not once per lease.
  std::vector<std::tuple<double, uint64_t, std::string>> blocked;
  while (!key.idle.empty() && !key.active.empty()) {
    // The job with the smallest pass whose next item an idle worker may take: work to build
    // waits for a worker that can build (and has not refused the job's task), and meanwhile the
    // jobs behind it are served, so no job waits while its key has a worker it could use.
    auto next = key.active.begin();
    auto idle = IdleWorkerFor(key, *items_.at(key.jobs.at(std::get<2>(*next)).items.front()).work);
    if (idle == key.idle.end()) {
      blocked.push_back(*next);
      key.active.erase(next);
      continue;
    }
    auto [pass, order, job_id] = *next;
    JobQueue& queue = key.jobs.at(job_id);
    int64_t item_id = queue.items.front();
    key.active.erase(next);
    queue.items.pop_front();
    --key.queued;
    key.virtual_time = std::max(key.virtual_time, pass);
    queue.pass = pass + 1.0 / JobOf(job_id).weight;
    if (queue.items.empty()) {
      queue.active = false;
    } else {
      key.active.insert({queue.pass, queue.order, job_id});
    }

    WorkerEntry& w = workers_.at(idle->second);
    MakeNotIdle(w);
    Item& item = items_.at(item_id);
    int64_t lease_id = next_lease_++;
    // A worker that builds has the build's timeout too; a builder measures nothing.
    const MeasureWork& work = *item.work;
    // A slower device's run timeout is longer (worker_service sends it so): so is its lease.
    const double run_s = runtime::measure::CandidateDeadlineSeconds(
        runtime::measure::ForSlowerDevice(work.options, w.description.slowness));
    const double seconds =
        (work.build_only ? 0 : run_s * 2) + (work.build ? work.build->build_timeout_s : 0);
    int64_t deadline = now_ms + static_cast<int64_t>(seconds * 1000) + options_.lease_slack_ms;
    leases_[lease_id] =
        Lease{item_id, w.description.worker_id, deadline, now_ms, deadline - now_ms};
    deadlines_.insert({deadline, lease_id});
    item.lease_id = lease_id;
    w.lease_id = lease_id;
    out.push_back(Assignment{w.description.worker_id, lease_id, deadline, item.work});
  }
  for (auto& job : blocked) key.active.insert(std::move(job));
}

void DispatcherState::DispatchAll(int64_t now_ms, std::vector<Assignment>& out) {
  for (auto& [name, key] : keys_) {
    if (!key.idle.empty() && !key.active.empty()) Dispatch(name, now_ms, out);
  }
}

std::vector<farm_api::WorkerSnapshot> DispatcherState::Workers(
    const std::string& device_key) const {
  std::vector<farm_api::WorkerSnapshot> out;
  for (const auto& [id, w] : workers_) {
    if (device_key.empty() || w.description.device_key == device_key) {
      out.push_back(SnapshotOf(w));
    }
  }
  std::sort(out.begin(), out.end(),
            [](const farm_api::WorkerSnapshot& a, const farm_api::WorkerSnapshot& b) {
              return a.description.worker_id < b.description.worker_id;
            });
  return out;
}

int DispatcherState::QueuedFor(const std::string& device_key) const {
  auto it = keys_.find(device_key);
  return it == keys_.end() ? 0 : it->second.queued;
}

int DispatcherState::WorkersFor(const std::string& device_key) const {
  auto it = keys_.find(device_key);
  return it == keys_.end() ? 0 : it->second.workers;
}

int DispatcherState::IdleFor(const std::string& device_key) const {
  auto it = keys_.find(device_key);
  return it == keys_.end() ? 0 : static_cast<int>(it->second.idle.size());
}

BuildOnlyCounts DispatcherState::BuildOnlyFor(const std::string& device_key,
                                              const std::set<std::string>& except) const {
  // The key's build queue answers the per-queue counts; all its workers build.
  const std::string queue = QueueOf(device_key, /*build_only=*/true);
  return BuildOnlyCounts{BuildersFor(queue, except), IdleFor(queue), QueuedFor(queue)};
}

int DispatcherState::BuildersFor(const std::string& device_key,
                                 const std::set<std::string>& except) const {
  auto it = keys_.find(device_key);
  if (it == keys_.end()) return 0;
  int builders = it->second.builders;
  for (const std::string& id : except) {
    auto w = workers_.find(id);
    if (w != workers_.end() && QueueOfWorker(w->second.description) == device_key &&
        w->second.description.can_build) {
      --builders;
    }
  }
  return builders;
}

std::map<uint64_t, std::string>::iterator DispatcherState::IdleWorkerFor(KeyState& key,
                                                                         const MeasureWork& work) {
  auto idle = key.idle.begin();
  if (!work.build) return idle;  // the longest idle
  for (; idle != key.idle.end(); ++idle) {
    const farm_api::WorkerDescription& d = workers_.at(idle->second).description;
    if (d.can_build && !work.not_for.count(d.worker_id)) break;
  }
  return idle;
}

std::vector<std::string> DispatcherState::DeviceKeys() const {
  // keys_ keeps a queue once seen; only keys with something in either queue are listed.
  std::vector<std::string> out;
  for (const auto& [name, key] : keys_) {
    if (key.workers == 0 && key.queued == 0) continue;
    out.push_back(name.starts_with(kBuildQueuePrefix) ? name.substr(kBuildQueuePrefix.size())
                                                      : name);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

farm_api::WorkerSnapshot DispatcherState::SnapshotOf(const WorkerEntry& w) const {
  farm_api::WorkerSnapshot s;
  s.description = w.description;
  if (w.draining) {
    s.state = farm_api::WorkerState::kDraining;
  } else if (w.in_session) {
    s.state = farm_api::WorkerState::kSession;
  } else if (w.lease_id != 0) {
    s.state = farm_api::WorkerState::kBusy;
  } else {
    s.state = farm_api::WorkerState::kIdle;
  }
  s.connected_ms = w.connected_ms;
  s.last_heartbeat_ms = w.last_heartbeat_ms;
  s.measured = w.measured;
  s.failures = w.failures;
  if (w.lease_id != 0) {
    s.lease_id = w.lease_id;
    // The lease and its item live as long as the worker holds the lease.
    auto lease = leases_.find(w.lease_id);
    if (lease != leases_.end()) {
      auto item = items_.find(lease->second.item_id);
      if (item != items_.end()) s.job_id = item->second.work->job_id;
    }
  }
  return s;
}

void DispatcherState::MakeIdle(WorkerEntry& w) {
  if (w.idle_seq != 0 || w.draining || w.in_session || w.lease_id != 0) return;
  w.idle_seq = next_idle_seq_++;
  keys_[QueueOfWorker(w.description)].idle.emplace(w.idle_seq, w.description.worker_id);
}

void DispatcherState::MakeNotIdle(WorkerEntry& w) {
  if (w.idle_seq == 0) return;
  keys_[QueueOfWorker(w.description)].idle.erase(w.idle_seq);
  w.idle_seq = 0;
}

void DispatcherState::Enqueue(int64_t item_id, bool front) {
  Item& item = items_.at(item_id);
  item.lease_id = 0;
  KeyState& key = keys_[QueueOfWork(*item.work)];
  const std::string& job_id = item.work->job_id;
  JobQueue& queue = key.jobs[job_id];
  if (queue.order == 0) queue.order = next_order_++;
  if (front) {
    queue.items.push_front(item_id);
  } else {
    queue.items.push_back(item_id);
  }
  ++key.queued;
  if (!queue.active) Activate(key, job_id, queue);
}

void DispatcherState::Activate(KeyState& key, const std::string& job_id, JobQueue& queue) {
  // A job that had nothing queued does not bank the turns it missed: it starts at the key's
  // current virtual time, so it cannot starve the jobs that kept the workers busy.
  queue.pass = std::max(queue.pass, key.virtual_time);
  queue.active = true;
  key.active.insert({queue.pass, queue.order, job_id});
}

void DispatcherState::LoseLease(int64_t lease_id, const std::string& note, bool worker_gone,
                                PendingDone& done) {
  auto lease = leases_.find(lease_id);
  if (lease == leases_.end()) return;
  int64_t item_id = lease->second.item_id;
  std::string worker_id = lease->second.worker_id;
  EraseLease(lease_id);
  Item& item = items_.at(item_id);
  item.lease_id = 0;
  ++item.attempts;
  if (worker_gone) {
    // A worker reconnecting after a flaky link is one worker, not a second one taken down.
    auto w = workers_.find(worker_id);
    const std::string& identity = w != workers_.end() ? w->second.identity : worker_id;
    if (std::find(item.lost_on.begin(), item.lost_on.end(), identity) == item.lost_on.end()) {
      item.lost_on.push_back(identity);
    }
  }
  item.loss_notes.push_back(note);
  WorkOutcome outcome;
  outcome.error_kind = tuner::ErrorKind::kWorkerLost;
  if (static_cast<int>(item.lost_on.size()) >= options_.quarantine_after_workers) {
    outcome.error_message =
        absl::StrCat("quarantined: suspected of killing workers (lost on ", item.lost_on.size(),
                     " workers: ", absl::StrJoin(item.lost_on, ", "), ")");
    Finish(item_id, std::move(outcome), done);
  } else if (item.attempts >= options_.max_attempts) {
    outcome.error_message = absl::StrCat("lease lost ", item.attempts,
                                         " times: ", absl::StrJoin(item.loss_notes, "; "));
    Finish(item_id, std::move(outcome), done);
  } else {
    Enqueue(item_id, /*front=*/true);
  }
}

bool DispatcherState::Buildable(const std::string& queue, const MeasureWork& work) const {
  return !work.build || BuildersFor(queue, work.not_for) > 0;
}

void DispatcherState::ReturnUnbuilt(const std::string& queue_name, KeyState& key,
                                    PendingDone& done) {
  std::vector<int64_t> unbuilt;
  for (auto& [job_id, queue] : key.jobs) {
    auto keep = std::stable_partition(queue.items.begin(), queue.items.end(), [&](int64_t id) {
      return Buildable(queue_name, *items_.at(id).work);
    });
    unbuilt.insert(unbuilt.end(), keep, queue.items.end());
    key.queued -= static_cast<int>(queue.items.end() - keep);
    queue.items.erase(keep, queue.items.end());
    if (queue.items.empty() && queue.active) {
      key.active.erase({queue.pass, queue.order, job_id});
      queue.active = false;
    }
  }
  for (int64_t id : unbuilt) Finish(id, UnbuiltOutcome(), done);
}

WorkOutcome DispatcherState::UnbuiltOutcome() {
  WorkOutcome outcome;
  outcome.unbuilt = true;
  outcome.error_message = "no worker of the key that may build it is left";
  return outcome;
}

void DispatcherState::EraseLease(int64_t lease_id) {
  auto lease = leases_.find(lease_id);
  if (lease == leases_.end()) return;
  deadlines_.erase({lease->second.deadline_ms, lease_id});
  leases_.erase(lease);
}

void DispatcherState::Finish(int64_t item_id, WorkOutcome outcome, PendingDone& done) {
  auto it = items_.find(item_id);
  if (it == items_.end()) return;
  auto job = jobs_.find(it->second.work->job_id);
  if (job != jobs_.end()) job->second.items.erase(item_id);
  outcome.build_only = it->second.work->build_only;
  if (it->second.done) done.emplace_back(std::move(it->second.done), std::move(outcome));
  items_.erase(it);
}

}  // namespace tunefarm::tracker::internal

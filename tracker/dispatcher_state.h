// The dispatcher's bookkeeping behind its lock (private to tracker/dispatcher.cc): workers, the
// per-key queues and stride passes of jobs, leases ordered by deadline, and the done callbacks
// collected to run after the lock is released.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "tracker/dispatcher.h"
#include "tracker/worker_identities.h"

namespace tunefarm::tracker::internal {

// The queue a worker or a piece of work belongs to: its device key's measurement queue, or,
// for builders and build-only work, the key's build queue (named with a control character,
// which device keys may not hold: see device_key.h).
std::string QueueOf(const std::string& device_key, bool build_only);

struct WorkerEntry {
  farm_api::WorkerDescription description;
  std::string identity;  // who counts towards quarantine: the first id of its reconnect chain
  int64_t connected_ms = 0;
  int64_t last_heartbeat_ms = 0;
  int64_t measured = 0;
  int64_t failures = 0;
  int64_t lease_id = 0;   // 0: none
  uint64_t idle_seq = 0;  // its place in its key's idle order; 0: not idle
  bool draining = false;
  bool in_session = false;
};

struct Item {
  std::shared_ptr<const MeasureWork> work;
  Dispatcher::DoneCallback done;
  int attempts = 0;                     // leases lost so far
  std::vector<std::string> lost_on;     // identities of the workers lost while holding it
  std::vector<std::string> loss_notes;  // why each lease was lost, for the final message
  int64_t lease_id = 0;                 // 0: queued
};

// One job's work for one device key, and its stride-scheduling pass there.
struct JobQueue {
  std::deque<int64_t> items;
  double pass = 0;
  uint64_t order = 0;  // breaks pass ties: the job that queued first on the key
  bool active = false;
};

struct KeyState {
  std::map<std::string, JobQueue> jobs;
  // Jobs with queued work, smallest pass first.
  std::set<std::tuple<double, uint64_t, std::string>> active;
  double virtual_time = 0;               // the pass of the last pick: a job waking up starts here
  std::map<uint64_t, std::string> idle;  // idle workers, longest idle first
  int queued = 0;
  int workers = 0;
  int builders = 0;  // of the workers, those that can build (a build queue's: all)
};

struct Lease {
  int64_t item_id = 0;
  std::string worker_id;
  int64_t deadline_ms = 0;
  int64_t leased_ms = 0;  // when it was leased
  int64_t span_ms = 0;    // its first deadline - leased_ms
};

// A job as the dispatcher tracks it across device keys: its stride-scheduling weight and the
// items it has queued or leased.
struct DispatchedJob {
  int weight = 1;
  std::unordered_set<int64_t> items;  // queued or leased
};

// Callbacks to run once the lock is released.
using PendingDone = std::vector<std::pair<Dispatcher::DoneCallback, WorkOutcome>>;

class DispatcherState {
 public:
  explicit DispatcherState(const DispatcherOptions& options)
      : options_(options), next_lease_(options.first_lease_id) {}

  // Every method expects the dispatcher's lock held.
  absl::Status AddWorker(const farm_api::WorkerDescription& worker, int64_t now_ms);
  // Methods that return a queue name (QueueOf) return the queue to Dispatch next.
  // The worker is gone: its lease is lost. Returns its queue; nullopt when unknown.
  std::optional<std::string> RemoveWorker(const std::string& worker_id, int64_t now_ms,
                                          PendingDone& done);
  std::vector<farm_api::WorkerSnapshot> RecentlyGone() const {
    return {recently_gone_.begin(), recently_gone_.end()};
  }
  void Heartbeat(const std::string& worker_id, int64_t now_ms, int64_t lease_in_hand);
  void SetDraining(const std::string& worker_id);
  // Returns the item's queue. Work to build for a queue without workers that can build completes
  // as unbuilt.
  std::string Submit(MeasureWork work, Dispatcher::DoneCallback done, PendingDone& pending);
  // Returns the queue of the worker whose lease completed, or nullopt when ignored.
  std::optional<std::string> Complete(const std::string& worker_id, int64_t lease_id,
                                      WorkOutcome outcome, int64_t now_ms, PendingDone& done);
  // Expires leases past their deadline and removes silent workers.
  void Expire(int64_t now_ms, std::vector<std::string>* removed, PendingDone& done);
  void SetJobWeight(const std::string& job_id, int weight);
  std::vector<Withdrawal> CancelJob(const std::string& job_id, PendingDone& done);
  std::optional<farm_api::WorkerSnapshot> ReserveForSession(const std::string& device_key);
  const std::string* ReleaseSession(const std::string& worker_id);

  // Leases queued work of `queue` to its idle workers while both exist.
  void Dispatch(const std::string& queue, int64_t now_ms, std::vector<Assignment>& out);
  void DispatchAll(int64_t now_ms, std::vector<Assignment>& out);

  std::vector<farm_api::WorkerSnapshot> Workers(const std::string& device_key) const;
  int QueuedFor(const std::string& device_key) const;
  int WorkersFor(const std::string& device_key) const;
  // `device_key` is a queue name (QueueOf): the build queue's are its builders.
  int BuildersFor(const std::string& device_key, const std::set<std::string>& except = {}) const;
  int IdleFor(const std::string& device_key) const;
  BuildOnlyCounts BuildOnlyFor(const std::string& device_key,
                               const std::set<std::string>& except = {}) const;
  std::vector<std::string> DeviceKeys() const;  // with workers or queued work, sorted
  int LeasesOutstanding() const { return static_cast<int>(leases_.size()); }

 private:
  farm_api::WorkerSnapshot SnapshotOf(const WorkerEntry& w) const;
  void MakeIdle(WorkerEntry& w);
  void MakeNotIdle(WorkerEntry& w);
  // The worker was heard from at `now_ms` (heartbeats_ keeps the order).
  void Touch(WorkerEntry& w, int64_t now_ms);
  // Puts a queued item on its job's queue for its key (front: a re-queued item goes first).
  void Enqueue(int64_t item_id, bool front);
  void Activate(KeyState& key, const std::string& job_id, JobQueue& queue);
  // The lease is gone with its worker or its deadline: re-queue the item or give up on it. Only
  // workers that were lost (not merely overdue) count towards quarantine, once per identity.
  void LoseLease(int64_t lease_id, const std::string& note, bool worker_gone, PendingDone& done);
  // The key has no worker left that can build: its queued work to build is completed as unbuilt
  // (the job builds it itself).
  // Finishes as unbuilt the work to build of `key` (queue `queue_name`) that no connected builder
  // may take any more (none left, or all of them in its not_for).
  void ReturnUnbuilt(const std::string& queue_name, KeyState& key, PendingDone& done);
  bool Buildable(const std::string& queue, const MeasureWork& work) const;
  static WorkOutcome UnbuiltOutcome();
  // The longest idle worker of `key` that may take `work`; key.idle.end() when none.
  std::map<uint64_t, std::string>::iterator IdleWorkerFor(KeyState& key, const MeasureWork& work);
  void EraseLease(int64_t lease_id);
  // Completes an item: its callback is queued to run after the lock.
  void Finish(int64_t item_id, WorkOutcome outcome, PendingDone& done);
  DispatchedJob& JobOf(const std::string& job_id) { return jobs_[job_id]; }

  DispatcherOptions options_;
  std::unordered_map<std::string, WorkerEntry> workers_;
  WorkerIdentities identities_;  // which new registrations continue a departed worker
  std::deque<farm_api::WorkerSnapshot> recently_gone_;  // newest first, bounded
  std::unordered_map<std::string, KeyState> keys_;
  std::unordered_map<int64_t, Item> items_;
  std::unordered_map<int64_t, Lease> leases_;
  std::set<std::pair<int64_t, int64_t>> deadlines_;  // (deadline, lease id)
  // (last heard from, worker id): the silent ones first.
  std::set<std::pair<int64_t, std::string>> heartbeats_;
  std::unordered_map<std::string, DispatchedJob> jobs_;
  int64_t next_item_ = 1;
  int64_t next_lease_;
  uint64_t next_idle_seq_ = 1;
  uint64_t next_order_ = 1;
};

}  // namespace tunefarm::tracker::internal

// Dispatcher: queues measurement work per device key, leases it to idle workers of that key
// (one lease per worker at a time, with a deadline), re-queues what a lost worker or an expired
// lease leaves behind, and completes every piece of work exactly once. Jobs share a key's
// workers in proportion to their weights (stride scheduling).
//
// It does no I/O: every call returns the leases to send (Assignments) and the caller delivers
// them, so the gRPC layer, the tests and the load generator drive the same logic. Thread-safe;
// done-callbacks run on the calling thread after the internal lock is released.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "farm_api/worker_info.h"
#include "tracker/measure_work.h"

namespace tunefarm::tracker {

class Metrics;

struct DispatcherOptions {
  int64_t heartbeat_timeout_ms = 10000;  // a worker silent this long is gone
  // A lease's deadline: now + the work's run_timeout_s * 2 (loading, a reference run and the
  // upload of its libraries count too; not for build-only work) + its BuildSpec's
  // build_timeout_s (when the worker builds) + this.
  int64_t lease_slack_ms = 30000;
  // A heartbeat that names the worker's lease moves its deadline to now + the lease's first span,
  // up to this many spans after it was leased: a worker's own deadline on its measure child ends
  // any honest lease long before, so this only bounds a worker that names a lease forever.
  int lease_max_spans = 4;
  // A piece of work whose lease was lost this many times is completed as worker_lost.
  int max_attempts = 3;
  // A piece of work that was held by this many *different* workers when each of them was lost
  // is quarantined (worker_lost, "suspected of killing workers") instead of being retried. A
  // worker that reconnects under a new id (previous_worker_id) counts as the same worker.
  int quarantine_after_workers = 2;
  // The first lease id. A tracker starts from its clock (ms x 1000): a result that a worker
  // still holds from before a tracker restart then names no lease of the new tracker.
  int64_t first_lease_id = 1;
};

struct BuildOnlyCounts {
  int builders = 0;  // connected
  int idle = 0;      // of those, without a lease
  int queued = 0;    // build-only work waiting for a lease
};

// One lease to send: `work` stays owned by the dispatcher until completed.
struct Assignment {
  std::string worker_id;
  int64_t lease_id = 0;
  int64_t deadline_ms = 0;
  std::shared_ptr<const MeasureWork> work;
};

// A lease to withdraw from a worker (its job was cancelled).
struct Withdrawal {
  std::string worker_id;
  int64_t lease_id = 0;
};

class Dispatcher {
 public:
  using DoneCallback = std::function<void(const WorkOutcome&)>;

  explicit Dispatcher(DispatcherOptions options = {});
  ~Dispatcher();
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;

  // Counts every completed piece of work by outcome (a worker's accepted result, or worker_lost
  // when its leases kept being lost; never a cancelled one) and the time from a result to the
  // same worker's next lease. `metrics` must outlive the dispatcher; null: nothing is counted.
  void SetMetrics(Metrics* metrics) { metrics_.store(metrics); }

  // --- workers ---
  // AlreadyExists when the id is taken. The new worker is idle: it may get a lease at once.
  absl::StatusOr<std::vector<Assignment>> AddWorker(const farm_api::WorkerDescription& worker,
                                                    int64_t now_ms);
  // The worker is gone (stream closed, heartbeats missed): its lease is re-queued (or completed
  // as worker_lost / quarantined), possibly onto another idle worker at once.
  std::vector<Assignment> RemoveWorker(const std::string& worker_id, int64_t now_ms);
  // `lease_in_hand`: the lease the worker says it is working on (0: none); when it holds that
  // lease, its deadline moves on (DispatcherOptions::lease_max_spans).
  void Heartbeat(const std::string& worker_id, int64_t now_ms, int64_t lease_in_hand = 0);
  // The worker finishes its lease (if any) and takes no new ones.
  void SetDraining(const std::string& worker_id);

  // --- work ---
  // Queues `work` for its device key; `done` runs exactly once: with the worker's outcome, with
  // worker_lost after too many lost leases, with `cancelled` set by CancelJob, or (work with a
  // BuildSpec) with `unbuilt` set once no worker of the key can build. Work to build is leased
  // only to workers that registered can_build; build-only work only to the key's builders.
  std::vector<Assignment> Submit(MeasureWork work, DoneCallback done, int64_t now_ms);
  // A worker's result. Accepted only from the worker currently holding the lease (a stale or
  // duplicate result is ignored and returns no assignments); the worker is then idle again and
  // may get its next lease at once.
  std::vector<Assignment> Complete(const std::string& worker_id, int64_t lease_id,
                                   WorkOutcome outcome, int64_t now_ms);
  // Expires leases past their deadline (re-queued) and workers silent past the heartbeat
  // timeout (removed; their ids are appended to `removed` when given).
  std::vector<Assignment> Tick(int64_t now_ms, std::vector<std::string>* removed = nullptr);

  // --- jobs ---
  // A job's share of each key's workers relative to other jobs (>= 1; default 1).
  void SetJobWeight(const std::string& job_id, int weight);
  // Completes the job's queued and leased work with `cancelled` and returns the leases to
  // withdraw; their late results are then ignored.
  std::vector<Withdrawal> CancelJob(const std::string& job_id);

  // --- sessions ---
  // Marks an idle worker of the key as in a session (no leases until released); nullopt when
  // none is idle.
  std::optional<farm_api::WorkerSnapshot> ReserveForSession(const std::string& device_key);
  std::vector<Assignment> ReleaseSession(const std::string& worker_id, int64_t now_ms);

  // --- observation ---
  std::vector<farm_api::WorkerSnapshot> Workers(const std::string& device_key = "") const;
  // The last workers that left (stream closed, heartbeats missed), newest first, in state kGone
  // with their counters at the time; at most 64.
  std::vector<farm_api::WorkerSnapshot> RecentlyGone() const;
  int QueuedFor(const std::string& device_key) const;   // measurements waiting for a lease
  int WorkersFor(const std::string& device_key) const;  // connected, any state
  // Of those, the ones that can build, other than the workers in `except`.
  int BuildersFor(const std::string& device_key, const std::set<std::string>& except = {}) const;
  int IdleFor(const std::string& device_key) const;  // of those, the ones without a lease
  // The key's builders (build_only workers) other than those in `except`, which none of the
  // counts above include, and its build-only work waiting for one.
  BuildOnlyCounts BuildOnlyFor(const std::string& device_key,
                               const std::set<std::string>& except = {}) const;
  int LeasesOutstanding() const;
  // Every key with connected workers or queued work, sorted.
  std::vector<std::string> DeviceKeys() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
  DispatcherOptions options_;
  std::atomic<Metrics*> metrics_{nullptr};
};

}  // namespace tunefarm::tracker

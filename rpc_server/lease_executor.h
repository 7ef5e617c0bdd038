// LeaseExecutor: measures the worker's leases one at a time on its own thread, in an isolated
// measure child, so that the connection keeps reading (cancellations, drain) and heartbeating
// while a candidate runs.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "runtime/measure/candidate_builder.h"
#include "runtime/measure/isolated_measurer.h"
#include "runtime/measure/measure_protocol.h"

namespace tunefarm::rpc_server {

struct LeaseTask {
  int64_t lease_id = 0;
  // Set: built first by the executor's builder, which fills in the request's library, kernel
  // and reference.
  std::optional<runtime::measure::BuildSpec> build;
  // With `build`: build it and send the libraries back (LeaseOutcome::built); measure nothing.
  bool build_only = false;
  runtime::measure::MeasureRequest request;  // options.run_timeout_s: load + check + time
};

// A build-only lease's candidate: the libraries' bytes and their kernels' names.
struct BuiltLibraryBytes {
  std::string library;
  std::string function_name;
  std::string reference;  // empty: no reference was built
  std::string reference_key;
};

struct LeaseOutcome {
  int64_t lease_id = 0;
  runtime::measure::MeasureOutcome outcome;  // a failed build: build_error, build_timeout, ...
  double build_seconds = 0;                  // when this worker built it
  bool cannot_build = false;                 // see runtime::measure::BuiltCandidate
  bool cancelled = false;                    // cancelled while it ran: nobody wants the result
  std::optional<BuiltLibraryBytes> built;    // a build-only lease that built (outcome ok)
  // Not run: the hash-only artifacts this worker lacks (the tracker resends the lease with them).
  std::vector<std::string> missing_artifacts;
};

// The largest library a builder sends back: the tracker's own limit on the libraries it leases.
inline constexpr int64_t kMaxBuiltLibraryBytes = int64_t{64} << 20;

class LeaseExecutor {
 public:
  // Called on the executor thread, exactly once for every task that started.
  using DoneCallback = std::function<void(LeaseOutcome)>;

  // `builder` (may be null: leases to build then fail) is used on the executor thread only.
  LeaseExecutor(std::string program, std::vector<std::string> program_args,
                std::shared_ptr<runtime::measure::CandidateBuilder> builder, DoneCallback done);
  // Drops the queue, kills the measurement in hand and waits for the thread.
  ~LeaseExecutor();
  LeaseExecutor(const LeaseExecutor&) = delete;
  LeaseExecutor& operator=(const LeaseExecutor&) = delete;

  void Submit(LeaseTask task);
  // A queued lease is removed (returns true: no callback will come). The lease in progress is
  // marked cancelled and its measure child killed (returns false; its callback says
  // cancelled). Unknown ids: false.
  bool Cancel(int64_t lease_id);
  // Removes every lease not started yet and returns their ids (a lost connection: the tracker
  // re-queues them).
  std::vector<int64_t> DropQueued();
  // No lease queued or running.
  bool Idle() const;
  // The lease being built or measured now; 0: none.
  int64_t Running() const;
  int children_started() const;

 private:
  void Loop();
  // Builds the task's candidate into its request; false (with `result` filled) when it failed.
  bool BuildFirst(LeaseTask& task, LeaseOutcome& result);
  // A build-only lease: the built libraries' bytes into `result`.
  void ReadBuilt(const LeaseTask& task, LeaseOutcome& result);
  // Kills the measure child of the lease in progress (call with mu_ held while running_ != 0).
  void KillRunningChildLocked();

  runtime::measure::IsolatedMeasurer measurer_;                  // used by the executor thread only
  std::shared_ptr<runtime::measure::CandidateBuilder> builder_;  // likewise
  DoneCallback done_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<LeaseTask> queue_;
  int64_t running_ = 0;  // the lease in progress; 0: none
  bool running_cancelled_ = false;
  bool shutdown_ = false;
  int children_started_ = 0;
  int executor_tid_ = 0;  // the executor thread's id: its children are the measure children
  std::thread thread_;
};

}  // namespace tunefarm::rpc_server

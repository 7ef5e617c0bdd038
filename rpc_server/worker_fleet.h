// Real workers, each on a thread of this process (each still measures in its own child process):
// the local farm of `tunefarm demo`, of benchmarks and of tests, stopped and joined on every way
// out.
#pragma once

#include <cstddef>
#include <memory>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "rpc_server/worker.h"

namespace tunefarm::rpc_server {

// Add and Stop belong to the thread that owns the fleet; the workers run on their own threads.
class WorkerFleet {
 public:
  WorkerFleet() = default;
  WorkerFleet(const WorkerFleet&) = delete;
  WorkerFleet& operator=(const WorkerFleet&) = delete;
  // Stops and joins what still runs, so that an early return never destroys a joinable thread.
  ~WorkerFleet();

  // Creates a worker (Worker::Create's errors: a missing tracker address or device key, ...) and
  // runs it on a new thread. On an error the fleet is as it was.
  absl::Status Add(WorkerOptions options);
  // Stops every worker (a lease in hand is abandoned: the tracker re-queues it) and joins its
  // thread. The fleet is empty afterwards, and workers may be added again.
  void Stop();
  size_t size() const { return workers_.size(); }
  // Each worker's counters, in the order they were added.
  std::vector<WorkerStats> stats() const;

 private:
  // Each worker lives on the heap and its thread holds that address, never a reference into
  // the vector, which grows while earlier threads already run.
  std::vector<std::unique_ptr<Worker>> workers_;
  std::vector<std::thread> threads_;
};

}  // namespace tunefarm::rpc_server

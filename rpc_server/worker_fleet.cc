#include "rpc_server/worker_fleet.h"

#include <string>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"
#include "rpc_server/worker_log.h"

namespace tunefarm::rpc_server {

WorkerFleet::~WorkerFleet() { Stop(); }

absl::Status WorkerFleet::Add(WorkerOptions options) {
  const std::string tracker = options.tracker;
  absl::StatusOr<std::unique_ptr<Worker>> worker = Worker::Create(std::move(options));
  if (!worker.ok()) return worker.status();
  // Room first: once the thread runs, nothing may throw before it is kept.
  workers_.reserve(workers_.size() + 1);
  threads_.reserve(threads_.size() + 1);
  Worker* running = worker->get();
  try {
    threads_.emplace_back([running, tracker] {
      // Nobody waits for Run's status: a worker that ends on its own (a refused token, given
      // up on its tracker) says why here.
      if (absl::Status status = running->Run(); !status.ok()) {
        WorkerLog(LogLevel::kError, absl::StrCat("a fleet worker of tracker ", tracker,
                                                 " ended: ", status.ToString()));
      }
    });
  } catch (const std::system_error& e) {
    return absl::ResourceExhaustedError(absl::StrCat("starting a worker thread: ", e.what()));
  }
  workers_.push_back(*std::move(worker));
  return absl::OkStatus();
}

std::vector<WorkerStats> WorkerFleet::stats() const {
  std::vector<WorkerStats> stats;
  stats.reserve(workers_.size());
  for (const std::unique_ptr<Worker>& worker : workers_) stats.push_back(worker->stats());
  return stats;
}

void WorkerFleet::Stop() {
  for (const std::unique_ptr<Worker>& worker : workers_) worker->Stop();
  for (std::thread& thread : threads_) thread.join();
  threads_.clear();
  workers_.clear();
}

}  // namespace tunefarm::rpc_server

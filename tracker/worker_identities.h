// WorkerIdentities: which registrations are one worker reconnecting, so that a lease lost to a
// flaky link counts once per worker towards quarantine, not once per connection.
#pragma once

#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>

namespace tunefarm::tracker {

// A worker that reconnects registers under a new id and names the id it had before
// (`previous_worker_id`). Only an id that the tracker itself issued, whose worker has left, and
// that no later registration has continued yet can be claimed, so a claim never takes the
// identity of a connected worker and two registrations never share one. Not thread-safe: the
// dispatcher calls it under its lock.
class WorkerIdentities {
 public:
  // `capacity`: how many departed ids stay claimable (the oldest are forgotten first; a worker
  // that comes back after that just counts as a new one).
  explicit WorkerIdentities(size_t capacity = 4096) : capacity_(capacity) {}

  // The identity a worker registering as `worker_id` continues when it claims to have been
  // `previous_id`; nullopt when the claim is empty or not honoured (the worker is then its own
  // identity). An honoured claim is used up.
  std::optional<std::string> Join(const std::string& worker_id, const std::string& previous_id);
  // The worker `worker_id`, of `identity`, has left: one later registration may continue it.
  void Leave(const std::string& worker_id, const std::string& identity);

 private:
  size_t capacity_;
  std::unordered_map<std::string, std::string> departed_;  // departed id -> its identity
  std::deque<std::string> order_;  // departed ids, oldest first (claimed ones included)
};

}  // namespace tunefarm::tracker

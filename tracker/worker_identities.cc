#include "tracker/worker_identities.h"

#include <utility>

namespace tunefarm::tracker {

std::optional<std::string> WorkerIdentities::Join(const std::string& worker_id,
                                                  const std::string& previous_id) {
  if (previous_id.empty() || previous_id == worker_id) return std::nullopt;
  auto it = departed_.find(previous_id);
  if (it == departed_.end()) return std::nullopt;  // never issued, still connected, or taken
  std::string identity = std::move(it->second);
  departed_.erase(it);  // order_ keeps the id; trimming it later is harmless
  return identity;
}

void WorkerIdentities::Leave(const std::string& worker_id, const std::string& identity) {
  departed_[worker_id] = identity;
  order_.push_back(worker_id);
  // Bounded by the ids that left, not by the map: claimed ids stay in order_ until trimmed.
  while (order_.size() > capacity_) {
    departed_.erase(order_.front());
    order_.pop_front();
  }
}

}  // namespace tunefarm::tracker

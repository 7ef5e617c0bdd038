// The jobs a manager holds in memory, by id, under one lock: the version each change raises,
// waiting for a job's next change, fresh ids, the unfinished count and shutdown. The job manager
// and the model job manager keep their jobs in one of these instead of each its own copy.
#pragma once

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>

#include "farm_api/job.h"
#include "runtime/clock.h"

namespace tunefarm::tracker {

// Entry: a struct whose `status` has id, state (farm_api::JobState), version and updated_ms.
template <typename Entry>
class LiveJobs {
 public:
  using Status = decltype(Entry::status);

  // Ids read "<id_prefix>-xxxxxxxx"; `clock` stamps updated_ms and must outlive this.
  LiveJobs(std::string id_prefix, const runtime::Clock* clock)
      : id_prefix_(std::move(id_prefix)), clock_(clock), rng_(std::random_device{}()) {}

  mutable std::mutex mu;
  // A job's version moved, or shutdown began. Managers also wait on it for a job to finish.
  mutable std::condition_variable changed;
  std::map<std::string, std::shared_ptr<Entry>> entries;  // under mu
  bool shutting_down = false;                             // under mu

  // --- under mu ---
  // The job changed: its version rises and every waiter wakes.
  void Touch(Entry& entry) {
    ++entry.status.version;
    entry.status.updated_ms = clock_->NowMs();
    changed.notify_all();
  }
  // Unique among the jobs in memory (the table may hold older ones: the caller's insert checks).
  std::string NewIdLocked() {
    for (;;) {
      char suffix[16];
      std::snprintf(suffix, sizeof(suffix), "-%08x", static_cast<unsigned>(rng_() & 0xffffffffu));
      std::string id = id_prefix_ + suffix;
      if (!entries.contains(id)) return id;
    }
  }
  int UnfinishedLocked() const {
    int n = 0;
    for (const auto& [id, entry] : entries) n += farm_api::IsFinished(entry->status.state) ? 0 : 1;
    return n;
  }

  // --- each takes mu ---
  void ShutDown() {
    std::lock_guard<std::mutex> lock(mu);
    shutting_down = true;
    changed.notify_all();
  }
  // Blocks until the job's version exceeds `after_version`, it is finished, shutdown begins, or
  // `timeout_ms` passes; returns its status then. nullopt when the job is not in memory (it
  // ended before this start and will not change: the caller answers from its table).
  std::optional<Status> WaitForChange(const std::string& id, int64_t after_version,
                                      int64_t timeout_ms) const {
    std::unique_lock<std::mutex> lock(mu);
    auto it = entries.find(id);
    if (it == entries.end()) return std::nullopt;
    std::shared_ptr<Entry> entry = it->second;
    changed.wait_for(lock, std::chrono::milliseconds(std::max<int64_t>(timeout_ms, 0)), [&] {
      return entry->status.version > after_version || farm_api::IsFinished(entry->status.state) ||
             shutting_down;
    });
    return entry->status;
  }

 private:
  const std::string id_prefix_;
  const runtime::Clock* clock_;
  std::mt19937_64 rng_;  // under mu
};

}  // namespace tunefarm::tracker

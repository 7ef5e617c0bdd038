// SharedRecordStore: the tracker's one connection to the record database, shared by the job
// engine's threads and the job manager's reads. Every use holds its lock: a SQLite connection
// serves one thread at a time, and SQLite serializes writers anyway.
#pragma once

#include <memory>
#include <mutex>
#include <utility>

#include "tuner/record_store.h"

namespace tunefarm::tracker {

class SharedRecordStore {
 public:
  explicit SharedRecordStore(std::unique_ptr<tuner::RecordStore> store)
      : store_(std::move(store)) {}

  // Runs f(tuner::RecordStore&) under the lock and returns what it returns. A pointer to the
  // store kept by f (a tuning session's) may be used again only inside a later With.
  template <typename F>
  auto With(F&& f) {
    std::lock_guard<std::mutex> lock(mu_);
    return f(*store_);
  }

 private:
  std::mutex mu_;
  std::unique_ptr<tuner::RecordStore> store_;
};

}  // namespace tunefarm::tracker

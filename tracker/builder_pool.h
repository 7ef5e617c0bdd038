// BuilderPool: one limit on candidates compiled at once across all jobs. Each job's Builder
// compiles for its own target in its own scratch directory, taking slots from the shared pool.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/statusor.h"
#include "tuner/measure.h"

namespace tunefarm::tracker {

struct BuilderPoolOptions {
  int parallelism = 0;          // candidates compiled at once across all jobs; 0: hardware threads
  std::string work_dir_parent;  // where each job's scratch directory goes; empty: $TMPDIR or /tmp
};

// The shared slots: a counting semaphore that serves waiters in arrival order, so a job that
// builds batch after batch cannot starve the others.
class BuildSlots {
 public:
  explicit BuildSlots(int capacity) : capacity_(capacity), free_(capacity) {}
  // Blocks until it is this caller's turn and a slot is free, then takes between 1 and `want`.
  int AcquireUpTo(int want);
  void Release(int n);
  int capacity() const { return capacity_; }
  int peak_in_use() const;  // the most slots ever held at once (tests check the limit)

 private:
  const int capacity_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  int free_;
  int peak_ = 0;
  uint64_t next_ticket_ = 0;
  uint64_t serving_ = 0;
};

class BuilderPool {
 public:
  explicit BuilderPool(BuilderPoolOptions options = {});

  // A builder for one job (one Build at a time, as LocalBuilder). It compiles for each task's
  // own target ("llvm", "llvm -mtriple=aarch64-linux-gnu", ...) with `measure`'s build timeout
  // and correctness setting. `batch_size` is the largest batch it will be given.
  absl::StatusOr<std::unique_ptr<tuner::Builder>> MakeBuilder(const tuner::MeasureOptions& measure,
                                                              int batch_size) const;

  int parallelism() const { return slots_->capacity(); }
  int peak_builds() const { return slots_->peak_in_use(); }

 private:
  BuilderPoolOptions options_;
  std::shared_ptr<BuildSlots> slots_;
};

}  // namespace tunefarm::tracker

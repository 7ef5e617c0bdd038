#include "tracker/builder_pool.h"

#include <algorithm>
#include <thread>
#include <utility>
#include <vector>

#include "tuner/measure/local_builder.h"

namespace tunefarm::tracker {
namespace {

// A job's builder: its batch is compiled in chunks as slots come free; each chunk is one call
// of the job's own LocalBuilder, as wide as the slots it holds.
class PooledBuilder final : public tuner::Builder {
 public:
  PooledBuilder(std::shared_ptr<BuildSlots> slots, std::unique_ptr<tuner::LocalBuilder> local)
      : slots_(std::move(slots)), local_(std::move(local)) {}

  std::vector<tuner::BuildResult> Build(const std::vector<tuner::MeasureInput>& inputs) override {
    std::vector<tuner::BuildResult> results;
    results.reserve(inputs.size());
    size_t next = 0;
    while (next < inputs.size()) {
      const int got = slots_->AcquireUpTo(static_cast<int>(inputs.size() - next));
      std::vector<tuner::MeasureInput> chunk(inputs.begin() + next, inputs.begin() + next + got);
      std::vector<tuner::BuildResult> built = local_->Build(chunk);
      slots_->Release(got);
      for (tuner::BuildResult& r : built) results.push_back(std::move(r));
      next += got;
    }
    return results;
  }

 private:
  std::shared_ptr<BuildSlots> slots_;
  std::unique_ptr<tuner::LocalBuilder> local_;
};

}  // namespace

int BuildSlots::AcquireUpTo(int want) {
  std::unique_lock<std::mutex> lock(mu_);
  const uint64_t ticket = next_ticket_++;
  cv_.wait(lock, [&] { return serving_ == ticket && free_ > 0; });
  const int got = std::min(std::max(want, 1), free_);
  free_ -= got;
  peak_ = std::max(peak_, capacity_ - free_);
  ++serving_;
  cv_.notify_all();  // the next in line may take what is left
  return got;
}

void BuildSlots::Release(int n) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    free_ += n;
  }
  cv_.notify_all();
}

int BuildSlots::peak_in_use() const {
  std::lock_guard<std::mutex> lock(mu_);
  return peak_;
}

BuilderPool::BuilderPool(BuilderPoolOptions options) : options_(std::move(options)) {
  int n = options_.parallelism;
  if (n <= 0) n = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  slots_ = std::make_shared<BuildSlots>(n);
}

absl::StatusOr<std::unique_ptr<tuner::Builder>> BuilderPool::MakeBuilder(
    const tuner::MeasureOptions& measure, int batch_size) const {
  tuner::LocalBuilderOptions o;
  o.work_dir_parent = options_.work_dir_parent;
  o.parallelism = slots_->capacity();
  o.measure = measure;
  // A batch may be built in as many chunks as it has candidates, and the runner reads the
  // libraries of the whole batch after Build returns: keep two batches' worth of chunks.
  o.keep_batches = 2 * std::max(batch_size, 1) + 1;
  absl::StatusOr<std::unique_ptr<tuner::LocalBuilder>> local = tuner::LocalBuilder::Create(o);
  if (!local.ok()) return local.status();
  return std::unique_ptr<tuner::Builder>(new PooledBuilder(slots_, *std::move(local)));
}

}  // namespace tunefarm::tracker

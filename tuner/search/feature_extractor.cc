#include "tuner/search/feature_extractor.h"

#include <utility>

#include "compiler/passes/lower.h"
#include "compiler/target/target.h"
#include "tuner/search/knob_features.h"

namespace tunefarm::tuner {
namespace {

// The features read loop kinds from For nodes, so the passes that expand vectorized and unrolled
// loops are skipped: the nest keeps its shape and lowering gets cheaper. A GPU task's nest is
// lowered as for CUDA (virtual threads expanded, barriers placed), as its kernels are.
passes::PassOptions FeaturePassOptions(const Task& task) {
  passes::PassOptions options;
  options.disabled_passes = {"vectorize_loops", "unroll_loops"};
  options.verify = false;
  options.target = task.target().lowering();
  return options;
}

}  // namespace

FeatureExtractor::FeatureExtractor(const Task& task, FeatureOptions options)
    : task_(&task), space_(&task.space()), options_(options) {
  length_ =
      KnobFeatureLength(*space_) + (options_.knob_only ? 0 : LoopFeatureLength(options_.loop));
}

FeatureExtractor::FeatureExtractor(const space::ConfigSpace& space) : space_(&space) {
  options_.knob_only = true;
  length_ = KnobFeatureLength(space);
}

std::vector<float> FeatureExtractor::KnobFeatures(const space::Config& config) const {
  return KnobFeatureVector(config);
}

FeatureRow FeatureExtractor::Compute(const space::Config& config) const {
  FeatureRow row;
  if (options_.knob_only) {
    row.values = KnobFeatureVector(config);
    return row;
  }
  row.values.reserve(static_cast<size_t>(length_));
  absl::StatusOr<topi::ScheduledOp> op = task_->Apply(config);
  absl::StatusOr<ir::PrimFunc> func =
      op.ok() ? passes::Lower(op->schedule, op->args, "features", FeaturePassOptions(*task_))
              : absl::StatusOr<ir::PrimFunc>(op.status());
  if (!func.ok()) {
    row.values.assign(static_cast<size_t>(length_), 0.0f);
    row.valid = false;
    return row;
  }
  row.values = ExtractLoopFeatures(*func, options_.loop);
  AppendKnobFeatures(config, row.values);
  return row;
}

FeatureRow FeatureExtractor::Get(const space::Config& config) const {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = cache_.find(config.index()); it != cache_.end()) return it->second;
  }
  // Computed outside the lock so threads lower different configs at once; a config computed
  // twice by a race gives the same row, and the first one stored wins.
  FeatureRow row = Compute(config);
  std::lock_guard<std::mutex> lock(mu_);
  return cache_.emplace(config.index(), std::move(row)).first->second;
}

std::vector<FeatureRow> FeatureExtractor::GetBatch(
    const std::vector<space::Config>& configs) const {
  std::vector<FeatureRow> rows;
  rows.reserve(configs.size());
  for (const space::Config& c : configs) rows.push_back(Get(c));
  return rows;
}

size_t FeatureExtractor::cached() const {
  std::lock_guard<std::mutex> lock(mu_);
  return cache_.size();
}

}  // namespace tunefarm::tuner

// FeatureExtractor: a task's config → its cost-model feature vector (loop features of the lowered
// function ++ knob features), cached by config index and safe to share between threads; or knob
// features only, which need no lowering and also serve bare config spaces.
#pragma once

#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "compiler/space/config.h"
#include "compiler/space/config_space.h"
#include "tuner/search/loop_features.h"
#include "tuner/task.h"

namespace tunefarm::tuner {

struct FeatureOptions {
  bool knob_only = false;  // skip Apply + Lower: knob features alone
  LoopFeatureOptions loop = {};
};

struct FeatureRow {
  std::vector<float> values;
  // False when the config failed to apply or lower; `values` is then all zeros.
  bool valid = true;
};

class FeatureExtractor {
 public:
  // Features of `task`'s configs; the task must outlive the extractor.
  explicit FeatureExtractor(const Task& task, FeatureOptions options = {});
  // Knob features of a bare space (no template to lower with); the space must outlive it.
  explicit FeatureExtractor(const space::ConfigSpace& space);
  FeatureExtractor(const FeatureExtractor&) = delete;
  FeatureExtractor& operator=(const FeatureExtractor&) = delete;

  const space::ConfigSpace& space() const { return *space_; }
  const Task* task() const { return task_; }
  bool knob_only() const { return options_.knob_only; }
  // Floats per row: LoopFeatureLength (unless knob_only) + KnobFeatureLength.
  int length() const { return length_; }

  // The row of a config of space(), computed once per config index.
  FeatureRow Get(const space::Config& config) const;
  std::vector<FeatureRow> GetBatch(const std::vector<space::Config>& configs) const;
  // Knob features alone (never cached: cheaper to recompute than to look up).
  std::vector<float> KnobFeatures(const space::Config& config) const;
  size_t cached() const;

 private:
  FeatureRow Compute(const space::Config& config) const;

  const Task* task_ = nullptr;
  const space::ConfigSpace* space_;
  FeatureOptions options_;
  int length_ = 0;
  mutable std::mutex mu_;
  mutable std::unordered_map<int64_t, FeatureRow> cache_;
};

}  // namespace tunefarm::tuner

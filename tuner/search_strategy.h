// SearchStrategy: proposes the next configs of a task's space to measure and learns from the
// results. Random, grid, genetic and model-based strategies live in tuner/search/.
#pragma once

#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/space/config.h"
#include "tuner/cost_model.h"
#include "tuner/measure.h"

namespace tunefarm::tuner {

class SearchStrategy {
 public:
  virtual ~SearchStrategy() = default;

  // Up to `n` valid configs never proposed or reported before; fewer, or none, once the space is
  // exhausted. Deterministic for a given seed and history.
  virtual absl::StatusOr<std::vector<space::Config>> NextBatch(int n) = 0;

  // The results of measured configs, in order (also earlier records of the same task when a
  // tuning run resumes). Failed results count as zero throughput.
  virtual absl::Status Update(const std::vector<space::Config>& configs,
                              const std::vector<MeasureResult>& results) = 0;

  // The strategy's cost model, which the tuning loop saves with the records; nullptr for
  // strategies without one.
  virtual const CostModel* cost_model() const { return nullptr; }
};

}  // namespace tunefarm::tuner

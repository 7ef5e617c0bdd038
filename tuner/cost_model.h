// CostModel: predicts how fast candidates run from their feature vectors, so the model-based
// search measures only the promising ones. Scores only need to rank correctly.
#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace tunefarm::tuner {

class CostModel {
 public:
  virtual ~CostModel() = default;

  // Trains from scratch on rows of equal length; `throughput[i]` is row i's measured speed
  // (flops / median seconds, 0 for a failed candidate).
  virtual absl::Status Fit(const std::vector<std::vector<float>>& features,
                           const std::vector<double>& throughput) = 0;
  // Higher is faster. FailedPrecondition before the first Fit.
  virtual absl::StatusOr<std::vector<double>> Predict(
      const std::vector<std::vector<float>>& features) const = 0;
  virtual bool trained() const = 0;

  // The trained model as bytes (stored with the records) and back.
  virtual absl::StatusOr<std::string> Save() const = 0;
  virtual absl::Status Load(const std::string& bytes) = 0;
};

}  // namespace tunefarm::tuner

// The PyTorch side of the whole-model benchmarks: each model exported to ONNX by
// scripts/export-models.py, and PyTorch's own latency for it (bench/support/pytorch_latency.py),
// eager and frozen, at a given thread count, measured by Debian's /usr/bin/python3.
#pragma once

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace tunefarm::bench {

struct PytorchTimes {
  double eager_ms = 0;   // torch.inference_mode
  double frozen_ms = 0;  // torch.jit.freeze + optimize_for_inference
};

absl::StatusOr<PytorchTimes> MeasurePytorch(const std::string& model, int threads);

// `dir`/`model`.onnx, exported first when it is missing. Unavailable when the export fails
// (python3-torch missing).
absl::StatusOr<std::string> ExportedModel(const std::string& dir, const std::string& model);

}  // namespace tunefarm::bench

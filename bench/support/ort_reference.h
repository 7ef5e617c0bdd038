// The ONNX Runtime side of the whole-model benchmarks: its CPU provider's latency for an ONNX
// file (bench/support/ort_latency.js under Node.js, onnxruntime-node installed by
// bench/setup-onnxruntime.sh).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace tunefarm::bench {

struct OrtTime {
  double ms = 0;
  std::string version;
};

// Unavailable (naming the set-up script) when Node.js or onnxruntime-node is missing.
absl::StatusOr<OrtTime> MeasureOnnxRuntime(const std::string& onnx,
                                           const std::vector<int64_t>& shape, int threads);

}  // namespace tunefarm::bench

// The QDQ rewrite of `tunefarm model quantize` (compiler/frontend/onnx/onnx_qdq.h) on any bytes:
// an error Status, or a plan whose rewrite (every tensor given [-1, 2]) is an error or a model
// that imports as a verified graph or fails to with a Status; never a crash, and never an
// allocation of what the file claims.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "compiler/frontend/onnx/onnx_importer.h"
#include "compiler/frontend/onnx/onnx_qdq.h"
#include "compiler/graph/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace onnx = tunefarm::frontend::onnx;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<onnx::QdqCalibrationPlan> plan = onnx::PlanQdqCalibration(bytes);
  if (!plan.ok()) return 0;
  std::map<std::string, onnx::QdqRange> ranges;
  for (const std::string& t : plan->tensors) ranges[t] = onnx::QdqRange{-1, 2};
  onnx::QdqSummary summary;
  absl::StatusOr<std::string> rewritten = onnx::RewriteAsQdq(bytes, ranges, {}, &summary);
  if (!rewritten.ok()) return 0;
  absl::StatusOr<tunefarm::graph::Graph> graph = onnx::ImportOnnxBytes(*rewritten);
  if (graph.ok() && !tunefarm::graph::VerifyGraph(*graph).ok()) std::abort();
  return 0;
}

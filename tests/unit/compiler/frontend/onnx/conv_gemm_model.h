// A small ONNX CNN several tests describe: a 3x3 conv of 4 filters (pads 1), relu, flatten and a
// gemm of 10 outputs on a 1x3x8x8 image ("image" in, "logits" out).
#pragma once

#include <string>

#include "tests/testing/files.h"
#include "tests/unit/compiler/frontend/onnx/onnx_model_builder.h"

namespace tunefarm::frontend::onnx::testing {

// Written to a temp file named `name`; returns its path.
inline std::string WriteConvGemmModel(const std::string& name) {
  OnnxModelBuilder b(13);
  b.Input("image", {1, 3, 8, 8});
  b.FloatInit("w", {4, 3, 3, 3});
  b.FloatInit("fc.w", {10, 256});
  auto* conv = b.Node("Conv", {"image", "w"}, {"c"});
  OnnxModelBuilder::Ints(conv, "pads", {1, 1, 1, 1});
  b.Node("Relu", {"c"}, {"r"});
  b.Node("Flatten", {"r"}, {"f"});
  auto* gemm = b.Node("Gemm", {"f", "fc.w"}, {"logits"});
  OnnxModelBuilder::Int(gemm, "transB", 1);
  b.Output("logits");
  return fixtures::WriteTempFile(name, b.Bytes());
}

}  // namespace tunefarm::frontend::onnx::testing

// A small CNN as an ONNX file (opset 13): conv 3->8 with bias and padding, ReLU, 2x2 max-pool,
// flatten, dense to 10, softmax; input "image" [1,3,16,16], output "prob". Seeded weights.
#pragma once

#include <string>

#include "tests/testing/files.h"
#include "tests/unit/compiler/frontend/onnx/onnx_model_builder.h"

namespace tunefarm::fixtures {

inline std::string SmallCnnOnnx(const std::string& file_name) {
  using B = frontend::onnx::testing::OnnxModelBuilder;
  B b(13);
  b.Input("image", {1, 3, 16, 16});
  b.FloatInit("w1", {8, 3, 3, 3});
  b.FloatInit("b1", {8});
  b.FloatInit("fc", {10, 8 * 8 * 8});
  auto* conv = b.Node("Conv", {"image", "w1", "b1"}, {"c"});
  B::Ints(conv, "pads", {1, 1, 1, 1});
  b.Node("Relu", {"c"}, {"r"});
  auto* pool = b.Node("MaxPool", {"r"}, {"p"});
  B::Ints(pool, "kernel_shape", {2, 2});
  B::Ints(pool, "strides", {2, 2});
  b.Node("Flatten", {"p"}, {"f"});
  auto* gemm = b.Node("Gemm", {"f", "fc"}, {"logits"});
  B::Int(gemm, "transB", 1);
  b.Node("Softmax", {"logits"}, {"prob"});
  b.Output("prob");
  return WriteTempFile(file_name, b.Bytes());
}

}  // namespace tunefarm::fixtures

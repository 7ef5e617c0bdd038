// ONNX GatherND with its indices as a real input (not folded at import): tuples of two indices,
// negative ones counting from the end, with and without a batch axis, against a naive lookup.
#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>
#include <unistd.h>

#include "tests/testing/tensor_proto_files.h"
#include "tests/unit/compiler/frontend/onnx/onnx_model_builder.h"
#include "tools/commands/model_run_command.h"

namespace tunefarm::tools {
namespace {

namespace fs = std::filesystem;
using fixtures::WriteTensorProtoFile;
using frontend::onnx::testing::OnnxModelBuilder;

TEST(ModelGatherNdTest, IndexTuplesWithNegativesAndABatchAxisMatchANaiveLookup) {
  // data [2, 3, 4, 5]; indices [2, 4, 2]: per batch, 4 tuples of (axis 1, axis 2).
  const std::vector<int64_t> data_shape = {2, 3, 4, 5};
  std::vector<float> data(2 * 3 * 4 * 5);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i) * 0.5f - 7;
  const std::vector<int64_t> indices = {0, 0, 2,  -1, -3, 1, 1, 3,  //
                                        2, 2, -1, -4, 0,  3, 1, 0};
  for (int64_t batch_dims : {0, 1}) {
    // Without batch axes the tuples index axes 0 and 1 (values taken modulo their extents).
    std::vector<int64_t> idx = indices;
    if (batch_dims == 0) {
      for (size_t t = 0; t < idx.size(); t += 2) {
        idx[t] = ((idx[t] % 2) + 2) % 2 - (t % 4 == 0 ? 2 : 0);  // some negative
        idx[t + 1] = ((idx[t + 1] % 3) + 3) % 3;
      }
    }
    std::vector<float> want;
    for (int64_t i = 0; i < 8; ++i) {
      const int64_t a = idx[2 * i], c = idx[2 * i + 1];
      if (batch_dims == 1) {
        const int64_t n = i / 4, y = a < 0 ? a + 3 : a, x = c < 0 ? c + 4 : c;
        for (int64_t e = 0; e < 5; ++e) want.push_back(data[((n * 3 + y) * 4 + x) * 5 + e]);
      } else {
        const int64_t n = a < 0 ? a + 2 : a, y = c;
        for (int64_t e = 0; e < 20; ++e) want.push_back(data[(n * 3 + y) * 20 + e]);
      }
    }
    OnnxModelBuilder b(13);
    b.Input("data", data_shape);
    b.Input("indices", {2, 4, 2}, ::onnx::TensorProto::INT64);
    OnnxModelBuilder::Int(b.Node("GatherND", {"data", "indices"}, {"y"}), "batch_dims", batch_dims);
    b.Output("y");
    const fs::path dir =
        fs::path(::testing::TempDir()) /
        ("gather_nd_" + std::to_string(batch_dims) + "_" + std::to_string(getpid()));
    fs::create_directories(dir);
    std::ofstream(dir / "model.onnx", std::ios::binary) << b.Bytes();
    WriteTensorProtoFile((dir / "data.pb").string(), data_shape, data);
    WriteTensorProtoFile((dir / "indices.pb").string(), {2, 4, 2}, idx);
    const std::vector<int64_t> want_shape =
        batch_dims == 1 ? std::vector<int64_t>{2, 4, 5} : std::vector<int64_t>{2, 4, 4, 5};
    WriteTensorProtoFile((dir / "want.pb").string(), want_shape, want);
    ModelRunOptions run;
    run.model = (dir / "model.onnx").string();
    run.inputs = {"data=" + (dir / "data.pb").string(), "indices=" + (dir / "indices.pb").string()};
    run.expect = {(dir / "want.pb").string()};
    run.rtol = 0;
    run.atol = 0;
    std::ostringstream out, err;
    EXPECT_EQ(RunModelRunCommand(run, out, err), 0) << "batch_dims " << batch_dims << "\n"
                                                    << out.str() << err.str();
  }
}

}  // namespace
}  // namespace tunefarm::tools

// ONNX's own backend node tests (Debian libonnx-testdata): every float32 case whose ops are all
// in the importer's list imports, and its inferred output shapes equal the expected outputs'.
#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sstream>

#include "compiler/frontend/onnx/onnx_importer.h"
#include "compiler/frontend/onnx/tensor_proto.h"
#include "tests/testing/files.h"
#include "tests/unit/compiler/frontend/onnx/onnx_node_cases.h"

namespace tunefarm::frontend::onnx {
namespace {

namespace fs = std::filesystem;
using frontend::onnx::testing::IsListedFloatCase;
using frontend::onnx::testing::kNodeTests;
using frontend::onnx::testing::ReadProto;

// The case's integer and scalar inputs, bound as constants: parameters in these tests are inputs.
absl::Status BindParameters(const fs::path& dir, const ::onnx::ModelProto& model,
                            OnnxImportOptions& options) {
  std::set<std::string> initializers;
  for (const auto& init : model.graph().initializer()) initializers.insert(init.name());
  int index = 0;
  for (const auto& in : model.graph().input()) {
    if (initializers.count(in.name())) continue;
    fs::path file = dir / "test_data_set_0" / ("input_" + std::to_string(index++) + ".pb");
    ::onnx::TensorProto tensor;
    if (!ReadProto(file, tensor)) return absl::NotFoundError("cannot read " + file.string());
    bool parameter = tensor.data_type() == ::onnx::TensorProto::INT64 || tensor.dims_size() == 0;
    if (!parameter) continue;
    absl::StatusOr<runtime::NDArray> a = ArrayFromTensorProto(tensor, file.string());
    if (!a.ok()) return a.status();
    options.constant_inputs.emplace(in.name(), *std::move(a));
  }
  return absl::OkStatus();
}

// "" when the shapes match, else what differs.
std::string CompareOutputs(const fs::path& dir, const graph::Graph& g) {
  std::ostringstream diff;
  for (size_t i = 0; i < g.outputs().size(); ++i) {
    ::onnx::TensorProto expected;
    fs::path file = dir / "test_data_set_0" / ("output_" + std::to_string(i) + ".pb");
    if (!ReadProto(file, expected)) return "cannot read " + file.string();
    std::vector<int64_t> dims(expected.dims().begin(), expected.dims().end());
    const graph::TensorType& actual = g.value(g.outputs()[i].value).type;
    if (actual.shape != dims) {
      diff << "output " << i << " is " << actual.ToString() << ", expected "
           << graph::ShapeToString(dims) << " ";
    }
  }
  return diff.str();
}

TEST(OnnxTestdataTest, InferredShapesMatchTheExpectedOutputs) {
  if (!fs::is_directory(kNodeTests)) GTEST_SKIP() << kNodeTests << " missing (libonnx-testdata)";
  std::vector<fs::path> cases;
  for (const auto& entry : fs::directory_iterator(kNodeTests)) cases.push_back(entry.path());
  std::sort(cases.begin(), cases.end());
  int candidates = 0, passed = 0;
  std::vector<std::string> mismatched, unsupported, failed;
  for (const fs::path& dir : cases) {
    ::onnx::ModelProto model;
    if (!ReadProto(dir / "model.onnx", model) || !IsListedFloatCase(model)) continue;
    ++candidates;
    std::string name = dir.filename().string();
    OnnxImportOptions options;
    absl::Status bound = BindParameters(dir, model, options);
    if (!bound.ok()) {
      failed.push_back(name + ": " + std::string(bound.message()));
      continue;
    }
    absl::StatusOr<graph::Graph> g = ImportOnnxFile((dir / "model.onnx").string(), options);
    if (!g.ok()) {
      std::string line = name + ": " + std::string(g.status().message());
      (g.status().code() == absl::StatusCode::kUnimplemented ? unsupported : failed)
          .push_back(line);
      continue;
    }
    std::string diff = CompareOutputs(dir, *g);
    if (diff.empty()) {
      ++passed;
    } else {
      mismatched.push_back(name + ": " + diff);
    }
  }
  std::printf(
      "libonnx-testdata node cases (float32, listed ops): %d candidates, %d shapes "
      "match, %zu mismatched, %zu unsupported, %zu failed\n",
      candidates, passed, mismatched.size(), unsupported.size(), failed.size());
  for (const auto& list : {mismatched, unsupported, failed}) {
    for (const std::string& line : list) std::printf("  %s\n", line.c_str());
  }
  EXPECT_THAT(mismatched, ::testing::IsEmpty());
  EXPECT_THAT(failed, ::testing::IsEmpty());
  EXPECT_GE(passed, 149);  // 149 of 162 with libonnx-testdata 1.12
}

}  // namespace
}  // namespace tunefarm::frontend::onnx

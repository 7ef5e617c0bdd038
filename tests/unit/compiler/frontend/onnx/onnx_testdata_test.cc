// ONNX's own backend node tests (Debian libonnx-testdata): every float32 case whose ops are all
// in the importer's list imports, and its inferred output shapes equal the expected outputs'.
#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <map>
#include <sstream>

#include "compiler/frontend/onnx/onnx_importer.h"
#include "tests/testing/files.h"
#include "tests/unit/compiler/frontend/onnx/onnx_node_cases.h"

namespace tunefarm::frontend::onnx {
namespace {

namespace fs = std::filesystem;
using frontend::onnx::testing::IsListedFloatCase;
using frontend::onnx::testing::kNodeTests;
using frontend::onnx::testing::ReadCaseInputs;
using frontend::onnx::testing::ReadProto;

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
    absl::Status bound = ReadCaseInputs(dir, options);
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

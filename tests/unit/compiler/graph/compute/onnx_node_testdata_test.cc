// ONNX's own backend test cases (Debian libonnx-testdata) run numerically: each float32 case is
// imported, evaluated node by node with EvaluateOp, and its outputs compared with the case's
// output_*.pb. Prints a passed/failed/unsupported table per op.
#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <map>

#include "compiler/frontend/onnx/onnx_importer.h"
#include "compiler/frontend/onnx/tensor_file.h"
#include "compiler/graph/op_evaluate.h"
#include "tests/testing/files.h"
#include "tests/unit/compiler/frontend/onnx/onnx_node_cases.h"

namespace tunefarm::graph {
namespace {

namespace fs = std::filesystem;
using frontend::onnx::testing::IsFloatCase;
using frontend::onnx::testing::kCaseFolders;
using frontend::onnx::testing::kNodeTests;
using frontend::onnx::testing::ReadCaseInputs;
using frontend::onnx::testing::ReadProto;

constexpr double kRtol = 1e-4, kAtol = 1e-5;

// "" when every output matches, else what differs.
std::string Compare(const runtime::NDArray& got, const runtime::NDArray& want) {
  if (got.shape() != want.shape()) return "shape differs";
  if (got.dtype().code != kDLFloat || got.dtype().bits != 32) return "dtype differs";
  const float* g = static_cast<const float*>(got.data());
  const float* w = static_cast<const float*>(want.data());
  for (int64_t i = 0; i < got.NumElements(); ++i) {
    double err = std::fabs(static_cast<double>(g[i]) - w[i]);
    if (std::isnan(g[i]) && std::isnan(w[i])) continue;  // sqrt(-1) is NaN on both sides
    if (!(err <= kAtol + kRtol * std::fabs(w[i]))) {
      return "element " + std::to_string(i) + ": got " + std::to_string(g[i]) + ", want " +
             std::to_string(w[i]);
    }
  }
  return "";
}

enum class Outcome { kPassed, kFailed, kUnsupported };

// Runs one case; `why` says what went wrong.
Outcome RunCase(const fs::path& dir, std::string& why) {
  frontend::onnx::OnnxImportOptions options;
  std::map<std::string, runtime::NDArray> data;
  if (absl::Status s = ReadCaseInputs(dir, options, &data); !s.ok()) {
    why = std::string(s.message());
    return Outcome::kFailed;
  }
  absl::StatusOr<Graph> g = frontend::onnx::ImportOnnxFile((dir / "model.onnx").string(), options);
  if (!g.ok()) {
    why = std::string(g.status().message());
    return g.status().code() == absl::StatusCode::kUnimplemented ? Outcome::kUnsupported
                                                                 : Outcome::kFailed;
  }
  std::map<ValueId, runtime::NDArray> computed;
  auto value_of = [&](ValueId id) -> const runtime::NDArray* {
    if (const runtime::NDArray* c = g->ConstantData(id)) return c;
    if (auto it = computed.find(id); it != computed.end()) return &it->second;
    auto named = data.find(g->value(id).name);
    return named == data.end() ? nullptr : &named->second;
  };
  for (const Node& node : g->nodes()) {
    std::vector<const runtime::NDArray*> inputs;
    for (ValueId id : node.inputs) inputs.push_back(value_of(id));
    if (std::find(inputs.begin(), inputs.end(), nullptr) != inputs.end()) {
      why = "an input of node '" + node.name + "' has no data";
      return Outcome::kFailed;
    }
    absl::StatusOr<std::vector<runtime::NDArray>> out = EvaluateOp(node, inputs);
    if (!out.ok()) {
      why = std::string(out.status().message());
      return Outcome::kFailed;
    }
    for (size_t i = 0; i < out->size(); ++i)
      computed.emplace(node.outputs[i], std::move((*out)[i]));
  }
  for (size_t i = 0; i < g->outputs().size(); ++i) {
    absl::StatusOr<runtime::NDArray> want = frontend::onnx::ReadTensorProtoFile(
        (dir / "test_data_set_0" / ("output_" + std::to_string(i) + ".pb")).string());
    const runtime::NDArray* got = value_of(g->outputs()[i].value);
    if (!want.ok() || got == nullptr) {
      why = "output " + std::to_string(i) + " missing";
      return Outcome::kFailed;
    }
    why = Compare(*got, *want);
    if (!why.empty()) {
      why = "output " + std::to_string(i) + ": " + why;
      return Outcome::kFailed;
    }
  }
  return Outcome::kPassed;
}

// Every float32 case of every folder, whatever its ops: the ones the importer takes must match,
// the rest must be refused as unsupported (a reason, never a wrong answer). The table is by the
// first node's op for ONNX's node cases and by folder for the multi-node ones.
TEST(OnnxNodeTestdataTest, EveryFloatCaseMatchesOrIsUnsupported) {
  if (!fs::is_directory(kNodeTests)) GTEST_SKIP() << kNodeTests << " missing (libonnx-testdata)";
  std::vector<fs::path> cases;
  for (const char* folder : kCaseFolders) {
    if (!fs::is_directory(folder)) continue;
    for (const auto& entry : fs::directory_iterator(folder)) cases.push_back(entry.path());
  }
  std::sort(cases.begin(), cases.end());
  std::map<std::string, std::array<int, 3>> table;  // op -> passed, failed, unsupported
  std::vector<std::string> failures, unsupported;
  int total[3] = {0, 0, 0};
  for (const fs::path& dir : cases) {
    ::onnx::ModelProto model;
    if (!ReadProto(dir / "model.onnx", model) || !IsFloatCase(model)) continue;
    std::string why;
    Outcome outcome = RunCase(dir, why);
    int k = static_cast<int>(outcome);
    const std::string folder = dir.parent_path().filename().string();
    ++table[folder == "node" ? model.graph().node(0).op_type() : "(" + folder + ")"][k];
    ++total[k];
    std::string line = folder + "/" + dir.filename().string() + ": " + why;
    if (outcome == Outcome::kFailed) failures.push_back(line);
    if (outcome == Outcome::kUnsupported) unsupported.push_back(line);
  }
  std::printf("libonnx-testdata float32 cases (rtol %g, atol %g):\n", kRtol, kAtol);
  std::printf("  %-28s %6s %6s %11s\n", "op", "passed", "failed", "unsupported");
  for (const auto& [op, counts] : table) {
    std::printf("  %-28s %6d %6d %11d\n", op.c_str(), counts[0], counts[1], counts[2]);
  }
  std::printf("  %-28s %6d %6d %11d\n", "total", total[0], total[1], total[2]);
  for (const std::string& line : unsupported) std::printf("  unsupported %s\n", line.c_str());
  for (const std::string& line : failures) std::printf("  FAILED %s\n", line.c_str());
  EXPECT_THAT(failures, ::testing::IsEmpty());
  EXPECT_GE(total[0], 539);
}

}  // namespace
}  // namespace tunefarm::graph

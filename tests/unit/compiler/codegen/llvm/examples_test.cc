// Every examples/*.te script, lowered for the llvm target with the values of its "# bind:" line,
// built with BuildJit and run against the interpreter on the same inputs. Scripts that bind GPU
// threads must be refused with the CPU-target error instead.
#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "compiler/ir/arith/analyzer.h"
#include "compiler/ir/mutator.h"
#include "compiler/passes/lower.h"
#include "compiler/script/script.h"
#include "tests/testing/files.h"
#include "tests/unit/compiler/codegen/llvm/codegen_test_util.h"

namespace tunefarm::codegen {
namespace {

using namespace testing;  // NOLINT

std::string ExamplesDir() { return std::string(TUNEFARM_SOURCE_DIR) + "/examples"; }

std::vector<std::string> ExampleNames() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(ExamplesDir())) {
    if (entry.path().extension() == ".te") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// "# bind: n=67,m=45" on the first line.
std::map<std::string, int64_t> Bindings(const std::string& source) {
  std::map<std::string, int64_t> values;
  absl::string_view first = absl::string_view(source).substr(0, source.find('\n'));
  EXPECT_TRUE(absl::ConsumePrefix(&first, "# bind:"));
  for (absl::string_view item : absl::StrSplit(first, ',', absl::SkipWhitespace())) {
    std::vector<std::string> kv = absl::StrSplit(absl::StripAsciiWhitespace(item), '=');
    int64_t v = 0;
    EXPECT_EQ(kv.size(), 2u);
    EXPECT_TRUE(absl::SimpleAtoi(kv[1], &v));
    values[kv[0]] = v;
  }
  return values;
}

class ExamplesJitTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ExamplesJitTest, MatchesTheInterpreter) {
  const std::string source =
      fixtures::ReadFile(ExamplesDir() + "/" + GetParam() + ".te").value_or("");
  absl::StatusOr<script::ScriptResult> script = script::RunScript(source, GetParam() + ".te");
  ASSERT_TRUE(script.ok()) << script.status();
  passes::PassOptions options;
  options.target = passes::LoweringTarget::kLlvm;
  absl::StatusOr<ir::PrimFunc> f =
      passes::Lower(script->schedule, script->args, GetParam(), options);
  ASSERT_TRUE(f.ok()) << f.status();

  if (absl::StrContains(source, "thread_axis(")) {
    absl::StatusOr<std::shared_ptr<runtime::Module>> m = BuildJit({*f}, Host());
    ASSERT_FALSE(m.ok());
    EXPECT_THAT(m.status().message(), ::testing::HasSubstr("CPU target"));
    return;
  }
  arith::Analyzer analyzer;
  const std::map<std::string, int64_t> values = Bindings(source);
  ir::VarMap bound;
  for (const ir::Var& v : script->symbolic_vars) {
    auto it = values.find(v.name());
    if (it != values.end()) bound[v.get()] = ir::IntImm(v.dtype(), it->second);
  }
  std::vector<runtime::NDArray> arrays;
  for (size_t k = 0; k < script->args.size(); ++k) {
    std::vector<int64_t> shape;
    for (const ir::Expr& e : script->args[k].shape()) {
      std::optional<int64_t> extent = ir::AsConstInt(analyzer.Simplify(ir::Substitute(e, bound)));
      ASSERT_TRUE(extent.has_value()) << "unbound extent in " << script->args[k].name();
      shape.push_back(*extent);
    }
    arrays.push_back(MakeArray(script->args[k].dtype(), shape));
    Fill(arrays.back(), 60 + k);
  }
  std::vector<runtime::NDArray*> ptrs;
  for (runtime::NDArray& a : arrays) ptrs.push_back(&a);
  // Reductions accumulate in another order (and with FMAs) than the interpreter's.
  ExpectMatchesInterpreter(*f, ptrs, 1e-4, 1e-4);
}

INSTANTIATE_TEST_SUITE_P(Examples, ExamplesJitTest, ::testing::ValuesIn(ExampleNames()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace tunefarm::codegen

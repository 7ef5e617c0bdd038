// Every examples/*.te script that binds GPU threads, lowered for target cuda: it compiles to PTX
// with NVRTC, the PTX assembles with ptxas for sm_90 (reporting register use), and the module has
// one launch per kernel whose sizes evaluate at the script's "# bind:" values.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "compiler/codegen/cuda/build_cuda.h"
#include "compiler/codegen/cuda/nvrtc_compile.h"
#include "runtime/gpu/gpu_module.h"
#include "tests/unit/compiler/codegen/cuda/cuda_test_util.h"
#include "tests/unit/compiler/codegen/cuda/emulation_check.h"

namespace tunefarm::codegen::cuda {
namespace {

std::string ExamplesDir() { return std::string(TUNEFARM_SOURCE_DIR) + "/examples"; }

std::vector<std::string> GpuExampleNames() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(ExamplesDir())) {
    if (entry.path().extension() != ".te") continue;
    if (absl::StrContains(ReadFile(entry.path().string()), "thread_axis(")) {
      names.push_back(entry.path().stem().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

// "# bind: n=1000" on the first line.
std::map<std::string, int64_t> Bindings(const std::string& source) {
  std::map<std::string, int64_t> values;
  absl::string_view first = absl::string_view(source).substr(0, source.find('\n'));
  absl::ConsumePrefix(&first, "# bind:");
  for (absl::string_view item : absl::StrSplit(first, ',', absl::SkipWhitespace())) {
    std::vector<std::string> kv = absl::StrSplit(absl::StripAsciiWhitespace(item), '=');
    int64_t v = 0;
    if (kv.size() == 2 && absl::SimpleAtoi(kv[1], &v)) values[kv[0]] = v;
  }
  return values;
}

TEST(CudaExamplesTest, ThereAreGpuExamples) {
  EXPECT_THAT(GpuExampleNames(), ::testing::IsSupersetOf({"conv2d_gpu", "split_bind_gpu"}));
}

class CudaExamplesTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CudaExamplesTest, CompilesToPtxThatAssemblesForSm90) {
  const std::string source = ReadFile(ExamplesDir() + "/" + GetParam() + ".te");
  absl::StatusOr<ir::PrimFunc> f = LowerScriptForCuda(source, GetParam());
  ASSERT_TRUE(f.ok()) << f.status();
  if (std::getenv("TUNEFARM_DUMP_CUDA") != nullptr) {  // for reading the generated code
    absl::StatusOr<std::string> cuda = GenerateCudaSource({*f});
    std::cout << (cuda.ok() ? *cuda : cuda.status().ToString()) << "\n";
  }
  absl::StatusOr<runtime::gpu::GpuModuleImage> image =
      BuildCuda(*f, *target::ParseCudaTarget("cuda"));
  ASSERT_TRUE(image.ok()) << image.status();
  EXPECT_EQ(image->arch, "sm_90");
  EXPECT_THAT(image->code, ::testing::HasSubstr(".target sm_90"));
  ASSERT_EQ(image->functions.size(), 1u);
  const runtime::gpu::GpuHostFunction& host = image->functions[0];
  EXPECT_EQ(host.signature.name, GetParam());
  ASSERT_FALSE(host.launches.empty());

  absl::StatusOr<std::vector<KernelResources>> report = PtxasReport(image->code, "sm_90");
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->size(), host.launches.size());
  for (const KernelResources& k : *report) {
    EXPECT_GT(k.registers, 0) << k.kernel;
    EXPECT_LE(k.registers, 255) << k.kernel;
    std::cout << GetParam() << ": " << k.kernel << " uses " << k.registers << " registers, "
              << k.shared_bytes << " bytes shared\n";
  }

  std::map<std::string, int64_t> values = Bindings(source);
  for (const runtime::gpu::GpuLaunch& launch : host.launches) {
    EXPECT_THAT(image->code, ::testing::HasSubstr(".entry " + launch.kernel));
    int64_t threads = 1;
    for (int d = 0; d < 3; ++d) {
      absl::StatusOr<int64_t> grid = runtime::gpu::EvalLaunchExpr(launch.grid[d], values);
      absl::StatusOr<int64_t> block = runtime::gpu::EvalLaunchExpr(launch.block[d], values);
      ASSERT_TRUE(grid.ok()) << launch.grid[d] << ": " << grid.status();
      ASSERT_TRUE(block.ok()) << launch.block[d] << ": " << block.status();
      EXPECT_GE(*grid, 1);
      EXPECT_GE(*block, 1);
      threads *= *block;
    }
    EXPECT_LE(threads, 1024) << launch.kernel;
  }
}

TEST_P(CudaExamplesTest, EmulatedOnTheHostMatchesTheInterpreter) {
  const std::string source = ReadFile(ExamplesDir() + "/" + GetParam() + ".te");
  absl::StatusOr<ir::PrimFunc> f = LowerScriptForCuda(source, GetParam());
  ASSERT_TRUE(f.ok()) << f.status();
  ExpectEmulationMatchesInterpreter(*f, Bindings(source));
}

INSTANTIATE_TEST_SUITE_P(Examples, CudaExamplesTest, ::testing::ValuesIn(GpuExampleNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

}  // namespace
}  // namespace tunefarm::codegen::cuda

// The AArch64 path end to end: the tiled matmul example exported for aarch64-linux-gnu runs under
// qemu-aarch64 with the cross-compiled runner (runtime/core only) at 2 threads and computes what
// the host JIT computes. Skipped, with the reason, where the runner or qemu is missing.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <unistd.h>

#include "absl/strings/str_split.h"
#include "compiler/passes/lower.h"
#include "compiler/script/script.h"
#include "tests/testing/deployed_programs.h"
#include "tests/testing/files.h"
#include "tests/unit/compiler/codegen/llvm/codegen_test_util.h"

#ifndef TUNEFARM_AARCH64_RUNNER
#define TUNEFARM_AARCH64_RUNNER ""
#endif

namespace tunefarm::codegen {
namespace {

using namespace testing;  // NOLINT

constexpr int64_t kRunnerLength = 67;

void WriteAll(const std::string& path, const runtime::NDArray& a) {
  std::ofstream out(path, std::ios::binary);
  out.write(static_cast<const char*>(a.data()), static_cast<std::streamsize>(a.NumBytes()));
}

absl::StatusOr<ir::PrimFunc> MatmulExample() {
  const std::string source =
      fixtures::ReadFile(std::string(TUNEFARM_SOURCE_DIR) + "/examples/matmul_tiled.te")
          .value_or("");
  absl::StatusOr<script::ScriptResult> script = script::RunScript(source, "matmul_tiled.te");
  if (!script.ok()) return script.status();
  passes::PassOptions options;
  options.target = passes::LoweringTarget::kLlvm;
  return passes::Lower(script->schedule, script->args, "matmul_tiled", options);
}

TEST(AArch64RunnerTest, TheQemuRunMatchesTheHostJit) {
  const std::string runner = TUNEFARM_AARCH64_RUNNER;
  if (runner.empty()) GTEST_SKIP() << "no aarch64-linux-gnu-g++ at configure time";
  if (access(runner.c_str(), X_OK) != 0) {
    GTEST_SKIP() << runner << " is not built (ninja tf_kernel_runner_aarch64)";
  }
  std::string missing;
  const std::string qemu = fixtures::QemuAarch64Command(&missing);
  if (qemu.empty()) GTEST_SKIP() << missing;

  absl::StatusOr<ir::PrimFunc> f = MatmulExample();
  ASSERT_TRUE(f.ok()) << f.status();
  absl::StatusOr<LlvmTarget> target =
      ParseLlvmTarget("llvm -mtriple=aarch64-linux-gnu -mattr=+neon");
  ASSERT_TRUE(target.ok());
  const std::string dir = ::testing::TempDir() + "/aarch64_" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  absl::Status exported = ExportLibrary({*f}, *target, dir + "/matmul.so");
  ASSERT_TRUE(exported.ok()) << exported;

  runtime::NDArray a = MakeArray(kF32, {kRunnerLength, kRunnerLength}),
                   b = MakeArray(kF32, {kRunnerLength, kRunnerLength});
  runtime::NDArray c = MakeArray(kF32, {kRunnerLength, kRunnerLength});
  Fill(a, 81);
  Fill(b, 82);
  WriteAll(dir + "/a.bin", a);
  WriteAll(dir + "/b.bin", b);
  const std::string command = qemu + " " + runner + " " + dir +
                              "/matmul.so matmul_tiled --bind n=" + std::to_string(kRunnerLength) +
                              " --input 0=" + dir + "/a.bin --input 1=" + dir +
                              "/b.bin --threads 2 --output " + dir + "/out.bin 2> " + dir +
                              "/err.txt";
  ASSERT_EQ(std::system(command.c_str()), 0) << command << "\n"
                                             << fixtures::ReadFile(dir + "/err.txt").value_or("");
  const std::string out = fixtures::ReadFile(dir + "/out.bin").value_or("");
  ASSERT_EQ(out.size(), 3 * a.NumBytes());
  runtime::NDArray from_qemu = MakeArray(kF32, {kRunnerLength, kRunnerLength});
  std::memcpy(from_qemu.data(), out.data() + 2 * a.NumBytes(), a.NumBytes());

  ASSERT_TRUE(RunJit(*f, {&a, &b, &c}).ok());
  EXPECT_EQ(Mismatch(from_qemu, c, 1e-5, 1e-5), "");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tunefarm::codegen

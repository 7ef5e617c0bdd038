// The AArch64 path end to end: the tiled matmul example exported for aarch64-linux-gnu runs under
// qemu-aarch64 with the cross-compiled runner (runtime/core only) at 2 threads and computes what
// the host JIT computes; so does an int8 matmul tensorized onto the dot intrinsic, which is `sdot`
// there (+dotprod, which qemu emulates; dot_int8_tensorize_test checks the instruction is in the
// code). Skipped, with the reason, where the runner or qemu is missing.
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

// int8 C[8, 16] = A[8, 32] x B, B packed [16/4][32/4][4][4] for the 4-lane sdot.
absl::StatusOr<ir::PrimFunc> Int8MatmulOnSdot() {
  const std::string source = R"(
A = placeholder((8, 32), dtype="int8", name="A")
Bp = placeholder((4, 8, 4, 4), dtype="int8", name="Bp")
k = reduce_axis((0, 32), name="k")
C = compute((8, 16), lambda i, j: sum(A[i, k].astype("int32") *
            Bp[j // 4, k // 4, j % 4, k % 4].astype("int32"), axis=k), name="C")
s = create_schedule(C)
jo, ji = s[C].split(C.op.axis[1], factor=4)
ko, ki = s[C].split(C.op.reduce_axis[0], factor=4)
s[C].reorder(C.op.axis[0], jo, ko, ji, ki)
s[C].tensorize(ji, dot_int8_intrin(4, "int8", "int8"))
args = [A, Bp, C]
)";
  absl::StatusOr<script::ScriptResult> script = script::RunScript(source, "int8_sdot.te");
  if (!script.ok()) return script.status();
  passes::PassOptions options;
  options.target = passes::LoweringTarget::kLlvm;
  return passes::Lower(script->schedule, script->args, "int8_sdot", options);
}

// The runner under qemu, or the reason the test skips.
std::string RunnerUnderQemu(std::string* why) {
  const std::string runner = TUNEFARM_AARCH64_RUNNER;
  if (runner.empty()) {
    *why = "no aarch64-linux-gnu-g++ at configure time";
    return "";
  }
  if (access(runner.c_str(), X_OK) != 0) {
    *why = runner + " is not built (ninja tf_kernel_runner_aarch64)";
    return "";
  }
  const std::string qemu = fixtures::QemuAarch64Command(why);
  return qemu.empty() ? "" : qemu + " " + runner;
}

TEST(AArch64RunnerTest, AnInt8MatmulOnSdotMatchesTheHostJitUnderQemu) {
  std::string missing;
  const std::string run = RunnerUnderQemu(&missing);
  if (run.empty()) GTEST_SKIP() << missing;
  absl::StatusOr<ir::PrimFunc> f = Int8MatmulOnSdot();
  ASSERT_TRUE(f.ok()) << f.status();
  absl::StatusOr<LlvmTarget> target =
      ParseLlvmTarget("llvm -mtriple=aarch64-linux-gnu -mattr=+neon,+dotprod");
  ASSERT_TRUE(target.ok());
  const std::string dir = ::testing::TempDir() + "/aarch64_sdot_" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  ASSERT_TRUE(ExportLibrary({*f}, *target, dir + "/sdot.so").ok());
  const ir::DataType i8 = ir::DataType::Int(8), i32 = ir::DataType::Int(32);
  runtime::NDArray a = MakeArray(i8, {8, 32}), b = MakeArray(i8, {4, 8, 4, 4});
  runtime::NDArray c = MakeArray(i32, {8, 16});
  // Every byte value, the extremes -128 * -128 included.
  for (int64_t i = 0; i < a.NumElements(); ++i)
    static_cast<int8_t*>(a.data())[i] = (i * 37) % 256 - 128;
  for (int64_t i = 0; i < b.NumElements(); ++i)
    static_cast<int8_t*>(b.data())[i] = (i * 91 + 5) % 256 - 128;
  static_cast<int8_t*>(a.data())[0] = -128;
  static_cast<int8_t*>(b.data())[0] = -128;
  WriteAll(dir + "/a.bin", a);
  WriteAll(dir + "/b.bin", b);
  const std::string command = run + " " + dir + "/sdot.so int8_sdot --input 0=" + dir +
                              "/a.bin --input 1=" + dir + "/b.bin --output " + dir +
                              "/out.bin 2> " + dir + "/err.txt";
  ASSERT_EQ(std::system(command.c_str()), 0) << command << "\n"
                                             << fixtures::ReadFile(dir + "/err.txt").value_or("");
  const std::string out = fixtures::ReadFile(dir + "/out.bin").value_or("");
  ASSERT_EQ(out.size(), a.NumBytes() + b.NumBytes() + c.NumBytes());
  runtime::NDArray from_qemu = MakeArray(i32, {8, 16});
  std::memcpy(from_qemu.data(), out.data() + a.NumBytes() + b.NumBytes(), c.NumBytes());
  ASSERT_TRUE(RunJit(*f, {&a, &b, &c}).ok());
  EXPECT_EQ(Mismatch(from_qemu, c, 0, 0), "");
  std::filesystem::remove_all(dir);
}

TEST(AArch64RunnerTest, TheQemuRunMatchesTheHostJit) {
  std::string missing;
  const std::string run = RunnerUnderQemu(&missing);
  if (run.empty()) GTEST_SKIP() << missing;

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
  const std::string command =
      run + " " + dir + "/matmul.so matmul_tiled --bind n=" + std::to_string(kRunnerLength) +
      " --input 0=" + dir + "/a.bin --input 1=" + dir + "/b.bin --threads 2 --output " + dir +
      "/out.bin 2> " + dir + "/err.txt";
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

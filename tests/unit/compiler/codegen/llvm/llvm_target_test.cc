// ParseLlvmTarget: the three accepted forms, the canonical string, whether code runs on this host,
// and errors that say what is accepted.
#include "compiler/codegen/llvm/llvm_target.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace tunefarm::codegen {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(TargetTest, PlainLlvmIsTheHostWithItsCpuAndFeatures) {
  absl::StatusOr<LlvmTarget> t = ParseLlvmTarget("llvm");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_TRUE(t->is_host);
  EXPECT_FALSE(t->cpu.empty());
  EXPECT_FALSE(t->features.empty());
  EXPECT_TRUE(t->is_x86_64() || t->is_aarch64());
  EXPECT_THAT(t->ToString(), StartsWith("llvm -mtriple=" + t->triple + " -mcpu=" + t->cpu));
  // The canonical string parses back to the same target.
  absl::StatusOr<LlvmTarget> again = ParseLlvmTarget(t->ToString());
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->ToString(), t->ToString());
  EXPECT_TRUE(again->is_host);
}

TEST(TargetTest, X86WithACpu) {
  absl::StatusOr<LlvmTarget> t = ParseLlvmTarget("llvm -mtriple=x86_64-linux-gnu -mcpu=znver3");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->triple, "x86_64-unknown-linux-gnu");
  EXPECT_EQ(t->cpu, "znver3");
  EXPECT_EQ(t->features, "");
  EXPECT_TRUE(t->is_x86_64());
  EXPECT_EQ(t->ToString(), "llvm -mtriple=x86_64-unknown-linux-gnu -mcpu=znver3");
}

TEST(TargetTest, AArch64WithNeonIsACrossTarget) {
  absl::StatusOr<LlvmTarget> t = ParseLlvmTarget("llvm -mtriple=aarch64-linux-gnu -mattr=+neon");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->triple, "aarch64-unknown-linux-gnu");
  EXPECT_EQ(t->cpu, "generic");
  EXPECT_EQ(t->features, "+neon");
  EXPECT_TRUE(t->is_aarch64());
  if (ParseLlvmTarget("llvm")->is_x86_64()) {
    EXPECT_FALSE(t->is_host);
  }
  EXPECT_EQ(t->ToString(), "llvm -mtriple=aarch64-unknown-linux-gnu -mcpu=generic -mattr=+neon");
}

TEST(TargetTest, AFeatureTheHostLacksIsNotTheHost) {
  absl::StatusOr<LlvmTarget> host = ParseLlvmTarget("llvm");
  ASSERT_TRUE(host.ok());
  if (!host->is_x86_64()) GTEST_SKIP() << "x86 host features";
  // AMX exists only on some Xeons: the answer must follow the host's own features.
  absl::StatusOr<LlvmTarget> amx =
      ParseLlvmTarget("llvm -mtriple=x86_64-linux-gnu -mattr=+amx-tile");
  ASSERT_TRUE(amx.ok()) << amx.status();
  EXPECT_EQ(amx->is_host, host->features.find("+amx-tile") != std::string::npos);
}

// The baseline x86-64 CPU implies no SIMD beyond SSE2, so it runs on every x86-64 host even when
// a hypervisor hides system instructions the host's own CPU model has.
TEST(TargetTest, AnOlderCpuOfTheSameArchitectureRunsHere) {
  absl::StatusOr<LlvmTarget> host = ParseLlvmTarget("llvm");
  ASSERT_TRUE(host.ok()) << host.status();
  if (!host->is_x86_64()) GTEST_SKIP() << "x86 host CPUs";
  for (const char* text : {"llvm -mcpu=x86-64", "llvm -mtriple=x86_64-linux-gnu -mcpu=x86-64-v2"}) {
    absl::StatusOr<LlvmTarget> old = ParseLlvmTarget(text);
    ASSERT_TRUE(old.ok()) << old.status();
    EXPECT_TRUE(old->is_host) << text;
  }
}

TEST(TargetTest, BadStringsListWhatIsAccepted) {
  for (const char* text :
       {"", "cuda", "llvm -mfoo=bar", "llvm -mtriple=x86_64-linux-gnu -mtriple=x"}) {
    absl::StatusOr<LlvmTarget> t = ParseLlvmTarget(text);
    ASSERT_FALSE(t.ok()) << text;
    EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(t.status().message(), HasSubstr("accepted: 'llvm'")) << text;
    EXPECT_THAT(t.status().message(), HasSubstr("aarch64")) << text;
  }
}

TEST(TargetTest, UnsupportedArchitectureOrOs) {
  absl::StatusOr<LlvmTarget> riscv = ParseLlvmTarget("llvm -mtriple=riscv64-linux-gnu");
  ASSERT_FALSE(riscv.ok());
  EXPECT_THAT(riscv.status().message(), HasSubstr("architecture 'riscv64'"));
  absl::StatusOr<LlvmTarget> windows = ParseLlvmTarget("llvm -mtriple=x86_64-pc-windows-msvc");
  ASSERT_FALSE(windows.ok());
  EXPECT_THAT(windows.status().message(), HasSubstr("OS 'windows'"));
}

TEST(TargetTest, UnknownCpuForTheTripleNamesValidOnes) {
  absl::StatusOr<LlvmTarget> t = ParseLlvmTarget("llvm -mtriple=aarch64-linux-gnu -mcpu=znver3");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(t.status().message(), HasSubstr("unknown -mcpu=znver3 for aarch64"));
  EXPECT_THAT(t.status().message(), HasSubstr("valid CPUs include: "));
  EXPECT_THAT(t.status().message(), HasSubstr("a64fx"));
}

TEST(TargetTest, UnknownOrUnsignedFeature) {
  absl::StatusOr<LlvmTarget> unknown =
      ParseLlvmTarget("llvm -mtriple=aarch64-linux-gnu -mattr=+avx2");
  ASSERT_FALSE(unknown.ok());
  EXPECT_THAT(unknown.status().message(), HasSubstr("unknown feature '+avx2'"));
  EXPECT_THAT(unknown.status().message(), HasSubstr("valid features include: +"));
  absl::StatusOr<LlvmTarget> unsigned_f =
      ParseLlvmTarget("llvm -mtriple=aarch64-linux-gnu -mattr=neon");
  ASSERT_FALSE(unsigned_f.ok());
  EXPECT_THAT(unsigned_f.status().message(), HasSubstr("must start with + or -"));
}

}  // namespace
}  // namespace tunefarm::codegen

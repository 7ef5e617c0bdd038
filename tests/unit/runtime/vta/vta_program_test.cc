#include "runtime/vta/vta_program.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <string>
#include <variant>
#include <vector>

#include "runtime/vta/vta_config.h"
#include "runtime/vta/vta_isa.h"
#include "runtime/vta/vta_matmul_program.h"
#include "tests/testing/files.h"
#include "tests/testing/golden.h"

namespace tunefarm::runtime::vta {
namespace {

TEST(VtaProgramTest, AppendsInstructionsAndMicroOps) {
  VtaProgram program;
  VtaMemoryShape shape;
  shape.x_size = 4;
  shape.x_stride = 4;
  EXPECT_EQ(program.Load(VtaBuffer::kWeight, shape), 0);
  EXPECT_EQ(program.Store(shape, {.pop_prev = true}), 1);
  EXPECT_EQ(program.Finish(), 2);
  EXPECT_EQ(program.AddUop({1, 2, 3}), 0u);
  EXPECT_EQ(program.AddUop({4, 5, 6}), 1u);
  program.dep(0).push_next = true;
  EXPECT_TRUE(std::get<VtaLoad>(program.instructions()[0]).dep.push_next);
  EXPECT_TRUE(std::get<VtaStore>(program.instructions()[1]).dep.pop_prev);

  absl::StatusOr<std::string> bytes = program.EncodeInstructions();
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  absl::StatusOr<std::vector<VtaInstruction>> decoded = DecodeProgram(*bytes, VtaConfig{});
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  ASSERT_EQ(decoded->size(), 3u);
  EXPECT_EQ(std::get<VtaLoad>((*decoded)[0]).buffer, VtaBuffer::kWeight);
  absl::StatusOr<std::string> uops = program.EncodeUopTable();
  ASSERT_TRUE(uops.ok());
  EXPECT_EQ(uops->size(), 8u);
}

// The seeds of tests/fuzz/corpus/vta_program (TUNEFARM_UPDATE_GOLDEN=1 rewrites them): a whole
// 1x16x16 matmul, the same cut short, and one with an opcode the ISA lacks.
TEST(VtaProgramTest, FuzzSeedsAreThisEncoding) {
  VtaMatmulLayout layout;
  layout.b_offset = 256;
  layout.c_offset = 512;
  layout.uop_offset = 1024;
  absl::StatusOr<VtaProgram> matmul =
      BuildMatmulProgram(VtaConfig{}, 1, 16, 16, layout, VtaMatmulOptions{.shift = 3});
  ASSERT_TRUE(matmul.ok()) << matmul.status();
  absl::StatusOr<std::string> bytes = matmul->EncodeInstructions();
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  ASSERT_TRUE(DecodeProgram(*bytes, VtaConfig{}).ok());
  std::string bad_opcode = *bytes;
  bad_opcode[16] = static_cast<char>(bad_opcode[16] | 7);
  const std::string dir = fixtures::SourcePath("tests/fuzz/corpus/vta_program/");
  fixtures::ExpectMatchesGolden(*bytes, dir + "matmul_1x16x16");
  fixtures::ExpectMatchesGolden(bytes->substr(0, bytes->size() - 9), dir + "truncated");
  fixtures::ExpectMatchesGolden(bad_opcode, dir + "bad_opcode");
}

}  // namespace
}  // namespace tunefarm::runtime::vta

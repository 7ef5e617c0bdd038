#include "runtime/vta/vta_isa.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <string>
#include <variant>
#include <vector>

#include "absl/strings/str_cat.h"
#include "runtime/vta/vta_config.h"

namespace tunefarm::runtime::vta {
namespace {

using ::testing::HasSubstr;

std::vector<VtaInstruction> EveryOpcode() {
  VtaMemoryShape padded = VtaMemoryShape{3, 70000, 4, 5, 9};
  padded.pad_top = 1;
  padded.pad_bottom = 2;
  padded.pad_left = 15;
  padded.pad_right = 4;
  VtaGemm gemm;
  gemm.dep = {.pop_prev = true, .push_next = true};
  gemm.loop = VtaUopLoop{7, 19, 3, 11};
  gemm.acc_factor_outer = 2047;
  gemm.acc_factor_inner = 5;
  gemm.inp_factor_outer = 1;
  gemm.inp_factor_inner = 2;
  gemm.wgt_factor_outer = 1023;
  gemm.wgt_factor_inner = 4;
  VtaGemm reset = gemm;
  reset.reset = true;
  reset.dep = {.pop_next = true, .push_prev = true};
  std::vector<VtaInstruction> program = {
      VtaLoad{{.pop_next = true}, VtaBuffer::kInput, padded},
      VtaLoad{{.push_next = true}, VtaBuffer::kWeight, VtaMemoryShape{1, 2, 3, 4, 5}},
      VtaLoad{{}, VtaBuffer::kUop, VtaMemoryShape{100, 4000000000u, 1, 8000, 8000}},
      VtaLoad{{.pop_prev = true}, VtaBuffer::kAcc, VtaMemoryShape{2, 3, 2, 2, 65535}},
      gemm,
      reset,
      VtaStore{{.pop_prev = true, .push_prev = true}, VtaMemoryShape{2040, 1, 1, 8, 8}},
      VtaFinish{{.pop_prev = true, .pop_next = true, .push_prev = true, .push_next = true}},
  };
  for (VtaAluOp op :
       {VtaAluOp::kAdd, VtaAluOp::kMax, VtaAluOp::kMin, VtaAluOp::kShr, VtaAluOp::kMul}) {
    VtaAlu alu;
    alu.op = op;
    alu.use_imm = op != VtaAluOp::kMax;
    alu.imm = static_cast<int16_t>(-32768 + static_cast<int>(op));
    alu.loop = VtaUopLoop{8191, 8192, 16383, 1};
    alu.dst_factor_outer = 1;
    alu.src_factor_inner = 2047;
    program.push_back(alu);
  }
  return program;
}

TEST(VtaIsaTest, EveryOpcodeRoundTrips) {
  const std::vector<VtaInstruction> program = EveryOpcode();
  absl::StatusOr<std::string> bytes = EncodeProgram(program);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  ASSERT_EQ(bytes->size(), program.size() * 16);
  absl::StatusOr<std::vector<VtaInstruction>> decoded = DecodeProgram(*bytes, VtaConfig{});
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  ASSERT_EQ(decoded->size(), program.size());
  for (size_t i = 0; i < program.size(); ++i) {
    EXPECT_EQ(OpcodeOf((*decoded)[i]), OpcodeOf(program[i])) << i;
  }
  absl::StatusOr<std::string> again = EncodeProgram(*decoded);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *bytes);

  const auto& load = std::get<VtaLoad>((*decoded)[0]);
  EXPECT_TRUE(load.dep.pop_next);
  EXPECT_FALSE(load.dep.push_next);
  EXPECT_EQ(load.shape.dram_base, 70000u);
  EXPECT_EQ(load.shape.pad_left, 15u);
  EXPECT_EQ(std::get<VtaLoad>((*decoded)[2]).shape.dram_base, 4000000000u);
  const auto& gemm = std::get<VtaGemm>((*decoded)[4]);
  EXPECT_FALSE(gemm.reset);
  EXPECT_EQ(gemm.loop.uop_end, 19u);
  EXPECT_EQ(gemm.acc_factor_outer, 2047u);
  EXPECT_EQ(gemm.wgt_factor_outer, 1023u);
  EXPECT_TRUE(std::get<VtaGemm>((*decoded)[5]).reset);
  const auto& alu = std::get<VtaAlu>((*decoded)[11]);
  EXPECT_EQ(alu.op, VtaAluOp::kShr);
  EXPECT_EQ(alu.imm, -32765);
  EXPECT_EQ(alu.loop.outer_extent, 16383u);
  EXPECT_FALSE(std::get<VtaAlu>((*decoded)[9]).use_imm);
}

TEST(VtaIsaTest, ModulesFollowTheOpcodeAndBuffer) {
  const std::vector<VtaInstruction> program = EveryOpcode();
  EXPECT_EQ(ModuleOf(program[0]), VtaModule::kLoad);
  EXPECT_EQ(ModuleOf(program[1]), VtaModule::kLoad);
  EXPECT_EQ(ModuleOf(program[2]), VtaModule::kCompute);
  EXPECT_EQ(ModuleOf(program[3]), VtaModule::kCompute);
  EXPECT_EQ(ModuleOf(program[4]), VtaModule::kCompute);
  EXPECT_EQ(ModuleOf(program[6]), VtaModule::kStore);
  EXPECT_EQ(ModuleOf(program[7]), VtaModule::kCompute);
  EXPECT_EQ(UopExecutions(program[4]), 12 * 3 * 11);
  EXPECT_EQ(UopExecutions(program[0]), 0);
}

std::string EncodeOne(const VtaInstruction& insn) {
  absl::StatusOr<std::string> bytes = EncodeInstruction(insn, 0);
  EXPECT_TRUE(bytes.ok()) << bytes.status();
  return bytes.ok() ? *bytes : std::string(16, '\0');
}

// Two valid FINISHes, then `insn`: errors must name instruction 2.
absl::Status DecodeThird(const VtaInstruction& insn) {
  const std::string finish = EncodeOne(VtaFinish{});
  return DecodeProgram(finish + finish + EncodeOne(insn), VtaConfig{}).status();
}

TEST(VtaIsaTest, RefusesATruncatedStream) {
  const std::string finish = EncodeOne(VtaFinish{});
  for (size_t cut : {size_t{1}, size_t{15}}) {
    absl::Status s =
        DecodeProgram((finish + finish + finish).substr(0, 32 + cut), VtaConfig{}).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(s.message(), HasSubstr("instruction 2: truncated"));
  }
  absl::StatusOr<std::vector<VtaInstruction>> empty = DecodeProgram("", VtaConfig{});
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
}

TEST(VtaIsaTest, RefusesUnknownOpcodes) {
  const std::string finish = EncodeOne(VtaFinish{});
  for (int opcode : {5, 6, 7}) {
    std::string bytes = finish + finish;
    bytes[16] = static_cast<char>((bytes[16] & ~7) | opcode);
    absl::Status s = DecodeProgram(bytes, VtaConfig{}).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(s.message(), HasSubstr(absl::StrCat("instruction 1: unknown opcode ", opcode)));
  }
}

TEST(VtaIsaTest, RefusesReservedBits) {
  std::string bytes = EncodeOne(VtaFinish{});
  bytes[15] = static_cast<char>(0x80);
  EXPECT_THAT(DecodeProgram(bytes, VtaConfig{}).status().message(),
              HasSubstr("instruction 0 (FINISH): reserved bits"));
}

TEST(VtaIsaTest, RefusesFieldsOutOfRangeForTheConfig) {
  struct Case {
    VtaInstruction insn;
    std::string message;
  };
  VtaGemm long_gemm;
  long_gemm.loop = VtaUopLoop{0, 8192, 16383, 16383};
  VtaGemm past_uops;
  past_uops.loop = VtaUopLoop{0, 9000, 1, 1};
  VtaGemm empty_range;
  empty_range.loop = VtaUopLoop{5, 5, 1, 1};
  VtaGemm zero_outer;
  zero_outer.loop.outer_extent = 0;
  VtaAlu bad_op;
  bad_op.op = static_cast<VtaAluOp>(6);
  VtaStore padded_store{{}, VtaMemoryShape{0, 0, 1, 1, 1}};
  padded_store.shape.pad_top = 1;
  const std::vector<Case> cases = {
      {VtaLoad{{}, VtaBuffer::kInput, VtaMemoryShape{2040, 0, 1, 16, 16}},
       "instruction 2 (LOAD): sram range [2040, 2056) passes the end of the input buffer (2048"},
      {VtaLoad{{}, VtaBuffer::kWeight, VtaMemoryShape{0, 0, 0, 1, 1}},
       "instruction 2 (LOAD): y_size is 0"},
      {VtaLoad{{}, VtaBuffer::kWeight, VtaMemoryShape{0, 0, 1, 0, 1}},
       "instruction 2 (LOAD): x_size is 0"},
      {VtaLoad{{}, VtaBuffer::kInput, VtaMemoryShape{0, 0, 2, 4, 3}},
       "x_stride 3 is less than x_size 4"},
      {VtaLoad{{}, VtaBuffer::kOutput, VtaMemoryShape{0, 0, 1, 1, 1}},
       "buffer output cannot be loaded"},
      {VtaLoad{{}, static_cast<VtaBuffer>(6), VtaMemoryShape{0, 0, 1, 1, 1}}, "unknown buffer 6"},
      {VtaLoad{{.pop_prev = true}, VtaBuffer::kInput, VtaMemoryShape{0, 0, 1, 1, 1}},
       "instruction 2 (LOAD): pop_prev is set but the load module has no previous module"},
      {VtaStore{{.push_next = true}, VtaMemoryShape{0, 0, 1, 1, 1}},
       "push_next is set but the store module has no next module"},
      {VtaStore{{}, VtaMemoryShape{2047, 0, 1, 2, 2}}, "passes the end of the output buffer (2048"},
      {padded_store, "padding is only for loads of data"},
      {long_gemm,
       "instruction 2 (GEMM): outer_extent x inner_extent x uops = 2198754828288 micro-op "
       "executions"},
      {past_uops, "uop_end 9000 passes the end of the uop buffer (8192"},
      {empty_range, "uop range [5, 5) is empty"},
      {zero_outer, "outer_extent is 0"},
      {bad_op, "instruction 2 (ALU): unknown alu_op 6"},
  };
  for (const Case& c : cases) {
    absl::Status s = DecodeThird(c.insn);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << c.message;
    EXPECT_THAT(s.message(), HasSubstr(c.message));
    // The simulator refuses the same instruction built in memory.
    EXPECT_FALSE(ValidateInstruction(c.insn, VtaConfig{}, 2).ok()) << c.message;
  }
}

TEST(VtaIsaTest, EncodingRefusesValuesWiderThanTheirField) {
  VtaLoad load{{}, VtaBuffer::kInput, VtaMemoryShape{70000, 0, 1, 1, 1}};
  absl::StatusOr<std::string> bytes = EncodeProgram({VtaInstruction{VtaFinish{}}, load});
  EXPECT_EQ(bytes.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bytes.status().message(),
              HasSubstr("instruction 1: sram_base 70000 does not fit its 16 bits"));
  VtaGemm gemm;
  gemm.wgt_factor_inner = 1024;
  EXPECT_THAT(EncodeInstruction(gemm, 4).status().message(),
              HasSubstr("instruction 4: wgt_factor_inner 1024 does not fit its 10 bits"));
}

TEST(VtaIsaTest, UopsRoundTripInFourBytes) {
  const std::vector<VtaUop> uops = {{0, 0, 0}, {2047, 2047, 1023}, {1, 2, 3}, {1024, 5, 512}};
  absl::StatusOr<std::string> bytes = EncodeUops(uops);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  ASSERT_EQ(bytes->size(), uops.size() * 4);
  for (size_t i = 0; i < uops.size(); ++i) {
    uint32_t word = 0;
    for (int b = 0; b < 4; ++b) {
      word |= uint32_t{static_cast<unsigned char>((*bytes)[i * 4 + b])} << (8 * b);
    }
    EXPECT_EQ(DecodeUop(word), uops[i]) << i;
  }
  EXPECT_THAT(EncodeUops({VtaUop{0, 0, 1024}}).status().message(),
              HasSubstr("micro-op 0: indices (acc 0, inp 0, wgt 1024) do not fit"));
}

TEST(VtaIsaTest, ConfigsAreValidated) {
  EXPECT_TRUE(ValidateVtaConfig(VtaConfig{}).ok());
  VtaConfig zero_block;
  zero_block.block_in = 0;
  EXPECT_THAT(ValidateVtaConfig(zero_block).message(), HasSubstr("block_in must be positive"));
  VtaConfig ragged;
  ragged.input_buffer_bytes = 100;
  EXPECT_THAT(ValidateVtaConfig(ragged).message(), HasSubstr("input_buffer_bytes (100 bytes)"));
  VtaConfig huge;
  huge.acc_buffer_bytes = 1 << 20;
  EXPECT_THAT(ValidateVtaConfig(huge).message(), HasSubstr("acc_buffer_bytes has 16384 entries"));
  EXPECT_FALSE(DecodeProgram("", zero_block).ok());
}

}  // namespace
}  // namespace tunefarm::runtime::vta

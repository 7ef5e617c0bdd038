#include "runtime/vta/vta_simulator.h"

#include <cstdint>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "runtime/vta/vta_config.h"
#include "runtime/vta/vta_isa.h"
#include "runtime/vta/vta_program.h"

namespace tunefarm::runtime::vta {
namespace {

using ::testing::HasSubstr;

VtaGemm Gemm(uint32_t uop_begin, uint32_t uop_end, uint32_t outer, uint32_t inner) {
  VtaGemm gemm;
  gemm.loop = VtaUopLoop{uop_begin, uop_end, outer, inner};
  return gemm;
}

// Writes the program's micro-op table at `offset` (bytes) of DRAM.
void PutUops(const VtaProgram& program, std::vector<uint8_t>& dram, size_t offset) {
  absl::StatusOr<std::string> bytes = program.EncodeUopTable();
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  std::copy(bytes->begin(), bytes->end(), dram.begin() + static_cast<ptrdiff_t>(offset));
}

TEST(VtaSimulatorTest, LoadCostsOverheadPlusBytesOverBandwidth) {
  for (int64_t bandwidth : {8, 7}) {
    VtaConfig config;
    config.dma_bytes_per_cycle = bandwidth;
    std::vector<uint8_t> dram(4096);
    // 5 input entries of 16 bytes: 80 bytes, ceil(80 / 8) = 10 or ceil(80 / 7) = 12 cycles.
    const std::vector<VtaInstruction> program = {
        VtaLoad{{}, VtaBuffer::kInput, VtaMemoryShape{0, 2, 1, 5, 5}}};
    absl::StatusOr<VtaRunStats> stats = VtaSimulator(config).Run(program, absl::MakeSpan(dram));
    ASSERT_TRUE(stats.ok()) << stats.status();
    const int64_t expected = 16 + (80 + bandwidth - 1) / bandwidth;
    EXPECT_EQ(stats->total_cycles, expected);
    EXPECT_EQ(stats->module(VtaModule::kLoad).busy_cycles, expected);
    EXPECT_EQ(stats->module(VtaModule::kLoad).dram_bytes, 80);
    EXPECT_EQ(stats->bytes_loaded, 80);
    EXPECT_EQ(stats->count(VtaOpcode::kLoad), 1);
  }
}

TEST(VtaSimulatorTest, GemmCostsOverheadPlusMicroOpExecutions) {
  VtaProgram program;
  for (uint32_t i = 0; i < 3; ++i) program.AddUop({i, i, i});
  std::vector<uint8_t> dram(4096);
  PutUops(program, dram, 64);
  program.Load(VtaBuffer::kUop, VtaMemoryShape{0, 16, 1, 3, 3});  // 12 bytes: 16 + 2 cycles
  VtaGemm gemm = Gemm(0, 3, 2, 5);                                // 30 executions
  gemm.acc_factor_outer = 3;
  gemm.acc_factor_inner = 6;
  program.Append(gemm);
  program.Finish();
  absl::StatusOr<VtaRunStats> stats =
      VtaSimulator(VtaConfig{}).Run(program.instructions(), absl::MakeSpan(dram));
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->module(VtaModule::kCompute).busy_cycles, 18 + 4 + 30);
  EXPECT_EQ(stats->total_cycles, 52);
  EXPECT_EQ(stats->gemm_macs, 30 * 256);
  EXPECT_EQ(stats->count(VtaOpcode::kGemm), 1);
  EXPECT_EQ(stats->count(VtaOpcode::kFinish), 1);
}

TEST(VtaSimulatorTest, ComputeStartsWhenTheLoadItPopsEnds) {
  VtaProgram program;
  program.AddUop({0, 0, 0});
  std::vector<uint8_t> dram(8192);
  PutUops(program, dram, 0);
  program.Load(VtaBuffer::kUop, VtaMemoryShape{0, 0, 1, 1, 1});  // compute: 16 + 1 = 17 cycles
  // load: 16 input entries, 256 bytes: 16 + 32 = 48 cycles.
  program.Load(VtaBuffer::kInput, VtaMemoryShape{0, 4, 1, 16, 16}, {.push_next = true});
  VtaGemm gemm = Gemm(0, 1, 1, 1);
  gemm.dep.pop_prev = true;
  program.Append(gemm);
  absl::StatusOr<VtaRunStats> stats =
      VtaSimulator(VtaConfig{}).Run(program.instructions(), absl::MakeSpan(dram));
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->module(VtaModule::kLoad).end_cycle, 48);
  EXPECT_EQ(stats->module(VtaModule::kCompute).stall_cycles, 48 - 17);
  EXPECT_EQ(stats->module(VtaModule::kCompute).end_cycle, 48 + 4 + 1);
  EXPECT_EQ(stats->total_cycles, 53);
}

TEST(VtaSimulatorTest, GemmIsBitExactAndStoreKeepsTheLowByte) {
  VtaProgram program;
  program.AddUop({1, 0, 0});
  std::vector<uint8_t> dram(4096);
  PutUops(program, dram, 0);
  // Input entry at DRAM entry 4 (byte 64): 16 values; weight tile at DRAM tile 1 (byte 256).
  std::vector<int32_t> inp(16), wgt(256);
  for (int k = 0; k < 16; ++k) {
    inp[k] = k % 2 ? 100 : -7 * k;
    dram[64 + k] = static_cast<uint8_t>(inp[k]);
  }
  for (int i = 0; i < 256; ++i) {
    wgt[i] = (i * 37) % 255 - 127;
    dram[256 + i] = static_cast<uint8_t>(wgt[i]);
  }
  program.Load(VtaBuffer::kUop, VtaMemoryShape{0, 0, 1, 1, 1});
  program.Load(VtaBuffer::kInput, VtaMemoryShape{0, 4, 1, 1, 1});
  program.Load(VtaBuffer::kWeight, VtaMemoryShape{0, 1, 1, 1, 1}, {.push_next = true});
  VtaGemm gemm = Gemm(0, 1, 1, 1);
  gemm.dep = {.pop_prev = true, .push_next = true};
  program.Append(gemm);
  program.Store(VtaMemoryShape{1, 100, 1, 1, 1}, {.pop_prev = true});  // bytes 1600..1615
  absl::StatusOr<VtaRunStats> stats =
      VtaSimulator(VtaConfig{}).Run(program.instructions(), absl::MakeSpan(dram));
  ASSERT_TRUE(stats.ok()) << stats.status();
  for (int o = 0; o < 16; ++o) {
    int32_t sum = 0;
    for (int k = 0; k < 16; ++k) sum += inp[k] * wgt[o * 16 + k];
    EXPECT_EQ(static_cast<int8_t>(dram[1600 + o]), static_cast<int8_t>(sum & 0xff)) << o;
  }
  EXPECT_EQ(stats->bytes_stored, 16);
  EXPECT_EQ(stats->gemm_macs, 256);
}

// Loads int32 accumulators from DRAM, applies `alu` to entry 0, and reads all 32 bits of entry 0
// back through the narrowing store: store the low byte, shift right by 8, four times.
std::vector<int32_t> RunAlu(const std::vector<int32_t>& acc0, const std::vector<int32_t>& acc1,
                            VtaAlu alu) {
  VtaProgram program;
  program.AddUop({0, 1, 0});
  std::vector<uint8_t> dram(4096);
  PutUops(program, dram, 0);
  for (int e = 0; e < 16; ++e) {
    for (int b = 0; b < 4; ++b) {
      dram[64 + 4 * e + b] = static_cast<uint8_t>(static_cast<uint32_t>(acc0[e]) >> (8 * b));
      dram[128 + 4 * e + b] = static_cast<uint8_t>(static_cast<uint32_t>(acc1[e]) >> (8 * b));
    }
  }
  program.Load(VtaBuffer::kUop, VtaMemoryShape{0, 0, 1, 1, 1});
  program.Load(VtaBuffer::kAcc, VtaMemoryShape{0, 1, 1, 2, 2});  // DRAM entries 1, 2 of 64 bytes
  alu.loop = VtaUopLoop{0, 1, 1, 1};
  alu.dep.push_next = true;
  program.Append(alu);
  for (int byte = 0; byte < 4; ++byte) {
    const bool last = byte == 3;
    program.Store(VtaMemoryShape{0, static_cast<uint32_t>(100 + byte), 1, 1, 1},
                  {.pop_prev = true, .push_prev = !last});
    if (last) break;
    VtaAlu shift;
    shift.op = VtaAluOp::kShr;
    shift.use_imm = true;
    shift.imm = 8;
    shift.dep = {.pop_next = true, .push_next = true};
    program.Append(shift);
  }
  absl::StatusOr<VtaRunStats> stats =
      VtaSimulator(VtaConfig{}).Run(program.instructions(), absl::MakeSpan(dram));
  EXPECT_TRUE(stats.ok()) << stats.status();
  std::vector<int32_t> out(16);
  for (int e = 0; e < 16; ++e) {
    uint32_t word = 0;
    for (int b = 0; b < 4; ++b) word |= uint32_t{dram[1600 + 16 * b + e]} << (8 * b);
    out[e] = static_cast<int32_t>(word);
  }
  return out;
}

VtaAlu Imm(VtaAluOp op, int16_t imm) {
  VtaAlu alu;
  alu.op = op;
  alu.use_imm = true;
  alu.imm = imm;
  return alu;
}

TEST(VtaSimulatorTest, AluOpsAreBitExactOnInt32) {
  constexpr int32_t kMax = 2147483647, kMin = -2147483647 - 1;
  std::vector<int32_t> a(16), b(16);
  const int32_t values[16] = {0,    1,     -1,     7,         -7,         300, -300, kMax,
                              kMin, 65536, -65536, 123456789, -987654321, 128, -129, 46341};
  for (int e = 0; e < 16; ++e) {
    a[e] = values[e];
    b[e] = values[15 - e] ^ 0x5a5a;
  }
  const auto wrap = [](int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); };
  VtaAlu add = Imm(VtaAluOp::kAdd, 0);
  add.use_imm = false;
  VtaAlu max = add, min = add;
  max.op = VtaAluOp::kMax;
  min.op = VtaAluOp::kMin;
  const std::vector<int32_t> sum = RunAlu(a, b, add);
  const std::vector<int32_t> maxed = RunAlu(a, b, max);
  const std::vector<int32_t> mined = RunAlu(a, b, min);
  const std::vector<int32_t> plus_one = RunAlu(a, b, Imm(VtaAluOp::kAdd, 1));
  const std::vector<int32_t> shr3 = RunAlu(a, b, Imm(VtaAluOp::kShr, 3));
  const std::vector<int32_t> shl4 = RunAlu(a, b, Imm(VtaAluOp::kShr, -4));
  const std::vector<int32_t> times = RunAlu(a, b, Imm(VtaAluOp::kMul, -3));
  const std::vector<int32_t> shr_big = RunAlu(a, b, Imm(VtaAluOp::kShr, 40));
  for (int e = 0; e < 16; ++e) {
    SCOPED_TRACE(e);
    EXPECT_EQ(sum[e], wrap(int64_t{a[e]} + b[e]));
    EXPECT_EQ(maxed[e], std::max(a[e], b[e]));
    EXPECT_EQ(mined[e], std::min(a[e], b[e]));
    EXPECT_EQ(plus_one[e], wrap(int64_t{a[e]} + 1));
    EXPECT_EQ(shr3[e], a[e] >> 3);  // arithmetic: -7 >> 3 == -1
    EXPECT_EQ(shl4[e], wrap(int64_t{a[e]} * 16));
    EXPECT_EQ(times[e], wrap(int64_t{a[e]} * -3));
    EXPECT_EQ(shr_big[e], a[e] < 0 ? -1 : 0);
  }
  EXPECT_EQ(plus_one[7], kMin);
}

TEST(VtaSimulatorTest, LoadPaddingIsZeros) {
  VtaProgram program;
  program.AddUop({0, 0, 0});
  program.AddUop({1, 1, 0});
  std::vector<uint8_t> dram(4096, 1);  // every input and weight value is 1
  PutUops(program, dram, 0);
  program.Load(VtaBuffer::kUop, VtaMemoryShape{0, 0, 1, 2, 2});
  VtaMemoryShape padded = VtaMemoryShape{0, 4, 1, 1, 1};
  padded.pad_left = 1;  // input entry 0 is padding, entry 1 comes from DRAM
  program.Load(VtaBuffer::kInput, padded);
  program.Load(VtaBuffer::kWeight, VtaMemoryShape{0, 1, 1, 1, 1}, {.push_next = true});
  VtaGemm gemm = Gemm(0, 2, 1, 1);
  gemm.dep = {.pop_prev = true, .push_next = true};
  program.Append(gemm);
  program.Store(VtaMemoryShape{0, 100, 1, 2, 2}, {.pop_prev = true});
  absl::StatusOr<VtaRunStats> stats =
      VtaSimulator(VtaConfig{}).Run(program.instructions(), absl::MakeSpan(dram));
  ASSERT_TRUE(stats.ok()) << stats.status();
  for (int o = 0; o < 16; ++o) {
    EXPECT_EQ(dram[1600 + o], 0) << o;
    EXPECT_EQ(dram[1616 + o], 16) << o;
  }
  EXPECT_EQ(stats->bytes_loaded, 16 + 256 + 8);  // padding is not read from DRAM
}

TEST(VtaSimulatorTest, DeadlockNamesTheWaitingInstruction) {
  VtaProgram program;
  program.Load(VtaBuffer::kInput, VtaMemoryShape{0, 0, 1, 1, 1});
  VtaGemm gemm = Gemm(0, 1, 1, 1);
  gemm.dep.pop_prev = true;
  program.Append(gemm);
  std::vector<uint8_t> dram(4096);
  absl::Status s =
      VtaSimulator(VtaConfig{}).Run(program.instructions(), absl::MakeSpan(dram)).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("deadlock: instruction 1 (GEMM) on the compute module waits "
                                     "for a token on the load->compute queue"));
}

TEST(VtaSimulatorTest, ATokenLeftBehindIsAnError) {
  VtaProgram program;
  program.Load(VtaBuffer::kInput, VtaMemoryShape{0, 0, 1, 1, 1});
  program.Load(VtaBuffer::kInput, VtaMemoryShape{0, 0, 1, 1, 1}, {.push_next = true});
  program.Finish();
  std::vector<uint8_t> dram(4096);
  absl::Status s =
      VtaSimulator(VtaConfig{}).Run(program.instructions(), absl::MakeSpan(dram)).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("instruction 1 (LOAD) pushed a token on the load->compute "
                                     "queue that no instruction pops"));
}

TEST(VtaSimulatorTest, PushingOntoAFullQueueIsAnError) {
  VtaConfig config;
  config.queue_depth = 2;
  VtaProgram program;
  program.Append(Gemm(0, 1, 1000, 1));  // keeps compute busy while the loads run ahead
  for (int i = 0; i < 3; ++i) {
    program.Load(VtaBuffer::kInput, VtaMemoryShape{0, 0, 1, 1, 1}, {.push_next = true});
    VtaGemm gemm = Gemm(0, 1, 1, 1);
    gemm.dep.pop_prev = true;
    program.Append(gemm);
  }
  std::vector<uint8_t> dram(4096);
  absl::Status s = VtaSimulator(config).Run(program.instructions(), absl::MakeSpan(dram)).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(),
              HasSubstr("instruction 5 (LOAD): push onto the full load->compute queue (depth 2)"));
  // With room for three tokens the same program runs.
  config.queue_depth = 3;
  EXPECT_TRUE(VtaSimulator(config).Run(program.instructions(), absl::MakeSpan(dram)).ok());
}

TEST(VtaSimulatorTest, DramAccessesOutOfBoundsAreErrors) {
  std::vector<uint8_t> dram(4096);
  const std::vector<VtaInstruction> load = {
      VtaLoad{{}, VtaBuffer::kInput, VtaMemoryShape{0, 250, 2, 3, 4}}};
  absl::Status s = VtaSimulator(VtaConfig{}).Run(load, absl::MakeSpan(dram)).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("instruction 0 (LOAD): DRAM bytes [4000, 4112) pass the end "
                                     "of DRAM (4096 bytes)"));
  const std::vector<VtaInstruction> store = {VtaFinish{},
                                             VtaStore{{}, VtaMemoryShape{0, 4294967295u, 1, 1, 1}}};
  EXPECT_THAT(VtaSimulator(VtaConfig{}).Run(store, absl::MakeSpan(dram)).status().message(),
              HasSubstr("instruction 1 (STORE): DRAM bytes [68719476720, 68719476736)"));
}

TEST(VtaSimulatorTest, MicroOpIndicesPastABufferAreErrors) {
  VtaProgram program;
  program.AddUop({2047, 0, 0});
  std::vector<uint8_t> dram(4096);
  PutUops(program, dram, 0);
  program.Load(VtaBuffer::kUop, VtaMemoryShape{0, 0, 1, 1, 1});
  VtaGemm gemm = Gemm(0, 1, 2, 1);
  gemm.acc_factor_outer = 1;
  program.Append(gemm);
  absl::Status s =
      VtaSimulator(VtaConfig{}).Run(program.instructions(), absl::MakeSpan(dram)).status();
  EXPECT_THAT(s.message(), HasSubstr("instruction 1 (GEMM): micro-op 0 at loop (1, 0) addresses "
                                     "acc entry 2048, past the buffer's 2048 entries"));
}

TEST(VtaSimulatorTest, RefusesAnInvalidConfigOrInstruction) {
  VtaConfig config;
  config.dma_bytes_per_cycle = 0;
  std::vector<uint8_t> dram(64);
  EXPECT_THAT(VtaSimulator(config).Run({}, absl::MakeSpan(dram)).status().message(),
              HasSubstr("dma_bytes_per_cycle must be positive"));
  const std::vector<VtaInstruction> bad = {VtaFinish{}, Gemm(0, 1, 0, 1)};
  EXPECT_THAT(VtaSimulator(VtaConfig{}).Run(bad, absl::MakeSpan(dram)).status().message(),
              HasSubstr("instruction 1 (GEMM): outer_extent is 0"));
}

}  // namespace
}  // namespace tunefarm::runtime::vta

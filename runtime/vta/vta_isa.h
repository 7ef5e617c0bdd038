// The instruction set of the simulated accelerator as typed values, and its binary form: 16 bytes
// an instruction, 4 bytes a micro-op. DecodeProgram parses bytes from outside (a worker's
// client): anything truncated, unknown or out of range for the config is refused, naming the
// instruction and the field.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/vta/vta_config.h"

namespace tunefarm::runtime::vta {

// The encoding's 3-bit opcode.
enum class VtaOpcode : uint8_t { kLoad = 0, kStore = 1, kGemm = 2, kFinish = 3, kAlu = 4 };
inline constexpr int kVtaOpcodeCount = 5;

// The on-chip buffers. LOAD fills uop, weight, input or acc; STORE drains output.
enum class VtaBuffer : uint8_t { kUop = 0, kWeight = 1, kInput = 2, kAcc = 3, kOutput = 4 };

// The three modules that each run their own instructions in program order. LOAD of input or
// weight runs on the load module; LOAD of uop or acc, GEMM, ALU and FINISH on compute; STORE on
// the store module. Queues link load->compute, compute->load, compute->store, store->compute.
enum class VtaModule : uint8_t { kLoad = 0, kCompute = 1, kStore = 2 };
inline constexpr int kVtaModuleCount = 3;

// "prev" and "next" are the neighbours in load -> compute -> store: the load module has no prev
// and the store module no next. A pop waits for a token the neighbour pushed towards this module;
// pops happen before the instruction runs, pushes after it ends.
struct VtaDependence {
  bool pop_prev = false;
  bool pop_next = false;
  bool push_prev = false;
  bool push_next = false;
};

// A 2-D copy between DRAM and a scratchpad. DRAM addresses count entries of the buffer's entry
// size (vta_config.h), from byte 0 of DRAM: row y, column x is DRAM entry dram_base + y *
// x_stride + x. The scratchpad side is dense: (y_size + pad_top + pad_bottom) rows of (x_size +
// pad_left + pad_right) entries from sram_base, the padding filled with zeros (LOAD only).
struct VtaMemoryShape {
  uint32_t sram_base = 0;
  uint32_t dram_base = 0;
  uint32_t y_size = 1;
  uint32_t x_size = 1;
  uint32_t x_stride = 1;
  uint32_t pad_top = 0;
  uint32_t pad_bottom = 0;
  uint32_t pad_left = 0;
  uint32_t pad_right = 0;
};

struct VtaLoad {
  VtaDependence dep;
  VtaBuffer buffer = VtaBuffer::kInput;
  VtaMemoryShape shape;
};

// Output buffer entries to DRAM (no padding).
struct VtaStore {
  VtaDependence dep;
  VtaMemoryShape shape;
};

// The loops GEMM and ALU share: for outer in [0, outer_extent), inner in [0, inner_extent), each
// micro-op of [uop_begin, uop_end) runs once with its indices offset by outer * factor_outer +
// inner * factor_inner (per index).
struct VtaUopLoop {
  uint32_t uop_begin = 0;
  uint32_t uop_end = 1;
  uint32_t outer_extent = 1;
  uint32_t inner_extent = 1;
};

// acc[a] += inp[i] x wgt[w]^T for each micro-op execution, or acc[a] = 0 when `reset`.
struct VtaGemm {
  VtaDependence dep;
  bool reset = false;
  VtaUopLoop loop;
  uint32_t acc_factor_outer = 0, acc_factor_inner = 0;
  uint32_t inp_factor_outer = 0, inp_factor_inner = 0;
  uint32_t wgt_factor_outer = 0, wgt_factor_inner = 0;
};

// Element-wise on int32 accumulator entries: dst = op(dst, src or imm). SHR shifts right
// arithmetically by the operand (a negative one shifts left); ADD and MUL wrap around.
enum class VtaAluOp : uint8_t { kAdd = 0, kMax = 1, kMin = 2, kShr = 3, kMul = 4 };
inline constexpr int kVtaAluOpCount = 5;

// A micro-op's acc index is the destination entry and its inp index the source entry (unless
// use_imm); its wgt index is unused.
struct VtaAlu {
  VtaDependence dep;
  VtaAluOp op = VtaAluOp::kAdd;
  bool use_imm = false;
  int16_t imm = 0;
  VtaUopLoop loop;
  uint32_t dst_factor_outer = 0, dst_factor_inner = 0;
  uint32_t src_factor_outer = 0, src_factor_inner = 0;
};

// Ends the program on the compute module; costs nothing.
struct VtaFinish {
  VtaDependence dep;
};

using VtaInstruction = std::variant<VtaLoad, VtaStore, VtaGemm, VtaAlu, VtaFinish>;

// Entry indices into the acc, input and weight buffers.
struct VtaUop {
  uint32_t acc = 0;
  uint32_t inp = 0;
  uint32_t wgt = 0;
  bool operator==(const VtaUop&) const = default;
};

inline constexpr int64_t kVtaInstructionBytes = 16;
inline constexpr int64_t kVtaUopBytes = 4;
// The widest values the encoding holds (larger configs are refused by ValidateVtaConfig).
inline constexpr uint32_t kVtaMaxSramEntries = 1u << 16;
inline constexpr uint32_t kVtaMaxUopEntries = 1u << 13;
inline constexpr uint32_t kVtaMaxAccEntries = 1u << 11;
inline constexpr uint32_t kVtaMaxInputEntries = 1u << 11;
inline constexpr uint32_t kVtaMaxWeightEntries = 1u << 10;
// Micro-op executions one GEMM or ALU instruction may ask for (loop extents x uop count).
inline constexpr int64_t kVtaMaxUopExecutions = (int64_t{1} << 31) - 1;

VtaOpcode OpcodeOf(const VtaInstruction& instruction);
const VtaDependence& DependenceOf(const VtaInstruction& instruction);
VtaModule ModuleOf(const VtaInstruction& instruction);
const char* OpcodeName(VtaOpcode opcode);
const char* ModuleName(VtaModule module);
// Micro-op executions of a GEMM or ALU (0 for the other opcodes).
int64_t UopExecutions(const VtaInstruction& instruction);

// InvalidArgument "instruction N (OPCODE): ..." naming the field when the instruction cannot run
// on `config`: zero sizes, an sram range past its buffer's end, a stride below the width, an
// empty micro-op range, too many micro-op executions, a dependence flag towards a neighbour the
// module lacks. DRAM ranges and micro-op indices are checked when the program runs.
absl::Status ValidateInstruction(const VtaInstruction& instruction, const VtaConfig& config,
                                 int64_t index);

// 16 bytes, little-endian. InvalidArgument (naming `index`) when a field does not fit its bits.
absl::StatusOr<std::string> EncodeInstruction(const VtaInstruction& instruction, int64_t index);
absl::StatusOr<std::string> EncodeProgram(absl::Span<const VtaInstruction> program);

// Parses and validates (ValidateInstruction) every instruction. Refused: a length that is not a
// whole number of instructions, an unknown opcode, buffer or ALU op, reserved bits that are set.
absl::StatusOr<std::vector<VtaInstruction>> DecodeProgram(std::string_view bytes,
                                                          const VtaConfig& config);

// 4 bytes, little-endian: acc in bits 0-10, inp in 11-21, wgt in 22-31. InvalidArgument when an
// index does not fit. Every 4 bytes decode to some micro-op.
absl::StatusOr<std::string> EncodeUops(absl::Span<const VtaUop> uops);
VtaUop DecodeUop(uint32_t word);

}  // namespace tunefarm::runtime::vta

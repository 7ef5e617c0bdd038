#include "runtime/vta/vta_isa.h"

#include <cstdint>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace tunefarm::runtime::vta {
namespace {

// Every instruction's fields in encoding order after the 7 common bits (opcode, then the four
// dependence flags). One list per opcode serves the encoder and the decoder, so the two cannot
// disagree on a bit.
template <typename Visitor>
void VisitDependence(VtaDependence& dep, Visitor& v) {
  v("pop_prev", dep.pop_prev, 1);
  v("pop_next", dep.pop_next, 1);
  v("push_prev", dep.push_prev, 1);
  v("push_next", dep.push_next, 1);
}

template <typename Visitor>
void VisitShape(VtaMemoryShape& s, Visitor& v) {
  v("sram_base", s.sram_base, 16);
  v("dram_base", s.dram_base, 32);
  v("y_size", s.y_size, 16);
  v("x_size", s.x_size, 16);
  v("x_stride", s.x_stride, 16);
  v("pad_top", s.pad_top, 4);
  v("pad_bottom", s.pad_bottom, 4);
  v("pad_left", s.pad_left, 4);
  v("pad_right", s.pad_right, 4);
}

template <typename Visitor>
void VisitLoop(VtaUopLoop& loop, Visitor& v) {
  v("uop_begin", loop.uop_begin, 13);
  v("uop_end", loop.uop_end, 14);
  v("outer_extent", loop.outer_extent, 14);
  v("inner_extent", loop.inner_extent, 14);
}

template <typename Visitor>
void VisitFields(VtaLoad& insn, Visitor& v) {
  VisitDependence(insn.dep, v);
  v("buffer", insn.buffer, 3);
  VisitShape(insn.shape, v);
}

template <typename Visitor>
void VisitFields(VtaStore& insn, Visitor& v) {
  VisitDependence(insn.dep, v);
  VtaBuffer output = VtaBuffer::kOutput;  // spelled out so a store's bits name its buffer
  v("buffer", output, 3);
  VisitShape(insn.shape, v);
  if (output != VtaBuffer::kOutput) v.Fail("buffer", "a STORE reads the output buffer only");
}

template <typename Visitor>
void VisitFields(VtaGemm& insn, Visitor& v) {
  VisitDependence(insn.dep, v);
  v("reset", insn.reset, 1);
  VisitLoop(insn.loop, v);
  v("acc_factor_outer", insn.acc_factor_outer, 11);
  v("acc_factor_inner", insn.acc_factor_inner, 11);
  v("inp_factor_outer", insn.inp_factor_outer, 11);
  v("inp_factor_inner", insn.inp_factor_inner, 11);
  v("wgt_factor_outer", insn.wgt_factor_outer, 10);
  v("wgt_factor_inner", insn.wgt_factor_inner, 10);
}

template <typename Visitor>
void VisitFields(VtaAlu& insn, Visitor& v) {
  VisitDependence(insn.dep, v);
  v("alu_op", insn.op, 3);
  v("use_imm", insn.use_imm, 1);
  v("imm", insn.imm, 16);
  VisitLoop(insn.loop, v);
  v("dst_factor_outer", insn.dst_factor_outer, 11);
  v("dst_factor_inner", insn.dst_factor_inner, 11);
  v("src_factor_outer", insn.src_factor_outer, 11);
  v("src_factor_inner", insn.src_factor_inner, 11);
}

template <typename Visitor>
void VisitFields(VtaFinish& insn, Visitor& v) {
  VisitDependence(insn.dep, v);
}

template <typename T>
uint64_t ToRaw(const T& field) {
  if constexpr (std::is_same_v<T, int16_t>) {
    return static_cast<uint16_t>(field);
  } else {
    return static_cast<uint64_t>(field);
  }
}

// Instructions are two little-endian 64-bit words; fields fill them from bit 0 up.
class BitWriter {
 public:
  explicit BitWriter(int64_t index) : index_(index) {}

  template <typename T>
  void operator()(absl::string_view name, T& field, int bits) {
    const uint64_t raw = ToRaw(field);
    if (raw >> bits != 0) {
      Fail(name, absl::StrCat(raw, " does not fit its ", bits, " bits"));
      return;
    }
    Put(raw, bits);
  }
  void Put(uint64_t raw, int bits) {
    for (int b = 0; b < bits; ++b, ++pos_) {
      if ((raw >> b) & 1) words_[pos_ / 64] |= uint64_t{1} << (pos_ % 64);
    }
  }
  void Fail(absl::string_view name, absl::string_view why) {
    if (!status_.ok()) return;
    status_ =
        absl::InvalidArgumentError(absl::StrCat("instruction ", index_, ": ", name, " ", why));
  }
  const absl::Status& status() const { return status_; }
  std::string Bytes() const {
    std::string out(kVtaInstructionBytes, '\0');
    for (int i = 0; i < kVtaInstructionBytes; ++i) {
      out[i] = static_cast<char>((words_[i / 8] >> (8 * (i % 8))) & 0xff);
    }
    return out;
  }

 private:
  int64_t index_;
  uint64_t words_[2] = {0, 0};
  int pos_ = 0;
  absl::Status status_;
};

class BitReader {
 public:
  explicit BitReader(std::string_view bytes) {
    for (int i = 0; i < kVtaInstructionBytes; ++i) {
      words_[i / 8] |= uint64_t{static_cast<unsigned char>(bytes[i])} << (8 * (i % 8));
    }
  }

  template <typename T>
  void operator()(absl::string_view /*name*/, T& field, int bits) {
    const uint64_t raw = Get(bits);
    if constexpr (std::is_same_v<T, bool>) {
      field = raw != 0;
    } else if constexpr (std::is_same_v<T, int16_t>) {
      field = static_cast<int16_t>(static_cast<uint16_t>(raw));
    } else {
      field = static_cast<T>(raw);
    }
  }
  uint64_t Get(int bits) {
    uint64_t raw = 0;
    for (int b = 0; b < bits; ++b, ++pos_) {
      raw |= ((words_[pos_ / 64] >> (pos_ % 64)) & 1) << b;
    }
    return raw;
  }
  void Fail(absl::string_view name, absl::string_view why) {
    if (failure_.empty()) failure_ = absl::StrCat(name, " ", why);
  }
  const std::string& failure() const { return failure_; }
  bool RestIsZero() const {
    for (int p = pos_; p < 128; ++p) {
      if ((words_[p / 64] >> (p % 64)) & 1) return false;
    }
    return true;
  }

 private:
  uint64_t words_[2] = {0, 0};
  int pos_ = 0;
  std::string failure_;
};

const char* BufferName(VtaBuffer buffer) {
  switch (buffer) {
    case VtaBuffer::kUop:
      return "uop";
    case VtaBuffer::kWeight:
      return "weight";
    case VtaBuffer::kInput:
      return "input";
    case VtaBuffer::kAcc:
      return "acc";
    case VtaBuffer::kOutput:
      return "output";
  }
  return "unknown";
}

int64_t BufferEntries(VtaBuffer buffer, const VtaConfig& config) {
  switch (buffer) {
    case VtaBuffer::kUop:
      return config.uop_buffer_entries;
    case VtaBuffer::kWeight:
      return config.WeightEntries();
    case VtaBuffer::kInput:
      return config.InputEntries();
    case VtaBuffer::kAcc:
      return config.AccEntries();
    case VtaBuffer::kOutput:
      return config.OutputEntries();
  }
  return 0;
}

absl::Status Invalid(int64_t index, VtaOpcode opcode, absl::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrCat("instruction ", index, " (", OpcodeName(opcode), "): ", what));
}

absl::Status CheckDependence(const VtaInstruction& insn, int64_t index) {
  const VtaDependence& dep = DependenceOf(insn);
  const VtaModule module = ModuleOf(insn);
  const auto lacks = [&](absl::string_view flag, absl::string_view neighbour) {
    return Invalid(index, OpcodeOf(insn),
                   absl::StrCat(flag, " is set but the ", ModuleName(module), " module has no ",
                                neighbour, " module"));
  };
  if (module == VtaModule::kLoad && dep.pop_prev) return lacks("pop_prev", "previous");
  if (module == VtaModule::kLoad && dep.push_prev) return lacks("push_prev", "previous");
  if (module == VtaModule::kStore && dep.pop_next) return lacks("pop_next", "next");
  if (module == VtaModule::kStore && dep.push_next) return lacks("push_next", "next");
  return absl::OkStatus();
}

absl::Status CheckShape(const VtaMemoryShape& s, VtaBuffer buffer, const VtaConfig& config,
                        int64_t index, VtaOpcode opcode) {
  if (s.y_size == 0) return Invalid(index, opcode, "y_size is 0");
  if (s.x_size == 0) return Invalid(index, opcode, "x_size is 0");
  if (s.x_stride < s.x_size) {
    return Invalid(index, opcode,
                   absl::StrCat("x_stride ", s.x_stride, " is less than x_size ", s.x_size));
  }
  const bool padded = s.pad_top != 0 || s.pad_bottom != 0 || s.pad_left != 0 || s.pad_right != 0;
  if (padded && (opcode == VtaOpcode::kStore || buffer == VtaBuffer::kUop)) {
    return Invalid(
        index, opcode,
        absl::StrCat("padding is only for loads of data, not the ", BufferName(buffer), " buffer"));
  }
  const int64_t rows = int64_t{s.y_size} + s.pad_top + s.pad_bottom;
  const int64_t cols = int64_t{s.x_size} + s.pad_left + s.pad_right;
  const int64_t end = int64_t{s.sram_base} + rows * cols;
  const int64_t entries = BufferEntries(buffer, config);
  if (end > entries) {
    return Invalid(index, opcode,
                   absl::StrCat("sram range [", s.sram_base, ", ", end, ") passes the end of the ",
                                BufferName(buffer), " buffer (", entries, " entries)"));
  }
  return absl::OkStatus();
}

absl::Status CheckLoop(const VtaUopLoop& loop, const VtaConfig& config, int64_t index,
                       VtaOpcode opcode) {
  if (loop.uop_begin >= loop.uop_end) {
    return Invalid(index, opcode,
                   absl::StrCat("uop range [", loop.uop_begin, ", ", loop.uop_end, ") is empty"));
  }
  if (loop.uop_end > config.uop_buffer_entries) {
    return Invalid(index, opcode,
                   absl::StrCat("uop_end ", loop.uop_end, " passes the end of the uop buffer (",
                                config.uop_buffer_entries, " entries)"));
  }
  if (loop.outer_extent == 0) return Invalid(index, opcode, "outer_extent is 0");
  if (loop.inner_extent == 0) return Invalid(index, opcode, "inner_extent is 0");
  const uint64_t executions =
      uint64_t{loop.outer_extent} * loop.inner_extent * (uint64_t{loop.uop_end} - loop.uop_begin);
  if (executions > static_cast<uint64_t>(kVtaMaxUopExecutions)) {
    return Invalid(index, opcode,
                   absl::StrCat("outer_extent x inner_extent x uops = ", executions,
                                " micro-op executions, more than ", kVtaMaxUopExecutions));
  }
  return absl::OkStatus();
}

template <typename Insn>
void DecodeFields(BitReader& reader, VtaInstruction& out) {
  Insn insn;
  VisitFields(insn, reader);
  out = insn;
}

}  // namespace

VtaOpcode OpcodeOf(const VtaInstruction& instruction) {
  constexpr VtaOpcode kByIndex[] = {VtaOpcode::kLoad, VtaOpcode::kStore, VtaOpcode::kGemm,
                                    VtaOpcode::kAlu, VtaOpcode::kFinish};
  return kByIndex[instruction.index()];
}

const VtaDependence& DependenceOf(const VtaInstruction& instruction) {
  return std::visit([](const auto& insn) -> const VtaDependence& { return insn.dep; }, instruction);
}

VtaModule ModuleOf(const VtaInstruction& instruction) {
  if (const auto* load = std::get_if<VtaLoad>(&instruction)) {
    const bool data = load->buffer == VtaBuffer::kInput || load->buffer == VtaBuffer::kWeight;
    return data ? VtaModule::kLoad : VtaModule::kCompute;
  }
  if (std::holds_alternative<VtaStore>(instruction)) return VtaModule::kStore;
  return VtaModule::kCompute;
}

const char* OpcodeName(VtaOpcode opcode) {
  switch (opcode) {
    case VtaOpcode::kLoad:
      return "LOAD";
    case VtaOpcode::kStore:
      return "STORE";
    case VtaOpcode::kGemm:
      return "GEMM";
    case VtaOpcode::kFinish:
      return "FINISH";
    case VtaOpcode::kAlu:
      return "ALU";
  }
  return "unknown";
}

const char* ModuleName(VtaModule module) {
  switch (module) {
    case VtaModule::kLoad:
      return "load";
    case VtaModule::kCompute:
      return "compute";
    case VtaModule::kStore:
      return "store";
  }
  return "unknown";
}

int64_t UopExecutions(const VtaInstruction& instruction) {
  const VtaUopLoop* loop = nullptr;
  if (const auto* gemm = std::get_if<VtaGemm>(&instruction)) loop = &gemm->loop;
  if (const auto* alu = std::get_if<VtaAlu>(&instruction)) loop = &alu->loop;
  if (loop == nullptr || loop->uop_end <= loop->uop_begin) return 0;
  return int64_t{loop->outer_extent} * loop->inner_extent * (loop->uop_end - loop->uop_begin);
}

absl::Status ValidateInstruction(const VtaInstruction& instruction, const VtaConfig& config,
                                 int64_t index) {
  if (absl::Status s = CheckDependence(instruction, index); !s.ok()) return s;
  const VtaOpcode opcode = OpcodeOf(instruction);
  if (const auto* load = std::get_if<VtaLoad>(&instruction)) {
    if (static_cast<int>(load->buffer) > static_cast<int>(VtaBuffer::kOutput)) {
      return Invalid(index, opcode,
                     absl::StrCat("unknown buffer ", static_cast<int>(load->buffer)));
    }
    if (load->buffer == VtaBuffer::kOutput) {
      return Invalid(index, opcode, "buffer output cannot be loaded (compute writes it)");
    }
    return CheckShape(load->shape, load->buffer, config, index, opcode);
  }
  if (const auto* store = std::get_if<VtaStore>(&instruction)) {
    return CheckShape(store->shape, VtaBuffer::kOutput, config, index, opcode);
  }
  if (const auto* gemm = std::get_if<VtaGemm>(&instruction)) {
    return CheckLoop(gemm->loop, config, index, opcode);
  }
  if (const auto* alu = std::get_if<VtaAlu>(&instruction)) {
    if (static_cast<int>(alu->op) >= kVtaAluOpCount) {
      return Invalid(index, opcode, absl::StrCat("unknown alu_op ", static_cast<int>(alu->op)));
    }
    return CheckLoop(alu->loop, config, index, opcode);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> EncodeInstruction(const VtaInstruction& instruction, int64_t index) {
  BitWriter writer(index);
  writer.Put(static_cast<uint64_t>(OpcodeOf(instruction)), 3);
  VtaInstruction copy = instruction;  // the visitors take fields by reference
  std::visit([&](auto& insn) { VisitFields(insn, writer); }, copy);
  if (!writer.status().ok()) return writer.status();
  return writer.Bytes();
}

absl::StatusOr<std::string> EncodeProgram(absl::Span<const VtaInstruction> program) {
  std::string out;
  out.reserve(program.size() * kVtaInstructionBytes);
  for (size_t i = 0; i < program.size(); ++i) {
    absl::StatusOr<std::string> bytes = EncodeInstruction(program[i], static_cast<int64_t>(i));
    if (!bytes.ok()) return bytes.status();
    out += *bytes;
  }
  return out;
}

absl::StatusOr<std::vector<VtaInstruction>> DecodeProgram(std::string_view bytes,
                                                          const VtaConfig& config) {
  if (absl::Status s = ValidateVtaConfig(config); !s.ok()) return s;
  const size_t count = bytes.size() / kVtaInstructionBytes;
  if (bytes.size() % kVtaInstructionBytes != 0) {
    return absl::InvalidArgumentError(absl::StrCat("instruction ", count, ": truncated, ",
                                                   bytes.size() % kVtaInstructionBytes, " of its ",
                                                   kVtaInstructionBytes, " bytes present"));
  }
  std::vector<VtaInstruction> program;
  program.reserve(count);  // bounded by the stream's own length
  for (size_t i = 0; i < count; ++i) {
    const int64_t index = static_cast<int64_t>(i);
    BitReader reader(bytes.substr(i * kVtaInstructionBytes, kVtaInstructionBytes));
    const uint64_t opcode = reader.Get(3);
    VtaInstruction insn;
    switch (opcode) {
      case static_cast<uint64_t>(VtaOpcode::kLoad):
        DecodeFields<VtaLoad>(reader, insn);
        break;
      case static_cast<uint64_t>(VtaOpcode::kStore):
        DecodeFields<VtaStore>(reader, insn);
        break;
      case static_cast<uint64_t>(VtaOpcode::kGemm):
        DecodeFields<VtaGemm>(reader, insn);
        break;
      case static_cast<uint64_t>(VtaOpcode::kAlu):
        DecodeFields<VtaAlu>(reader, insn);
        break;
      case static_cast<uint64_t>(VtaOpcode::kFinish):
        DecodeFields<VtaFinish>(reader, insn);
        break;
      default:
        return absl::InvalidArgumentError(
            absl::StrCat("instruction ", index, ": unknown opcode ", opcode));
    }
    if (!reader.failure().empty()) {
      return Invalid(index, OpcodeOf(insn), reader.failure());
    }
    if (!reader.RestIsZero()) {
      return Invalid(index, OpcodeOf(insn), "reserved bits past the last field are set");
    }
    if (absl::Status s = ValidateInstruction(insn, config, index); !s.ok()) return s;
    program.push_back(insn);
  }
  return program;
}

absl::StatusOr<std::string> EncodeUops(absl::Span<const VtaUop> uops) {
  std::string out;
  out.reserve(uops.size() * kVtaUopBytes);
  for (size_t i = 0; i < uops.size(); ++i) {
    const VtaUop& u = uops[i];
    if (u.acc >= kVtaMaxAccEntries || u.inp >= kVtaMaxInputEntries ||
        u.wgt >= kVtaMaxWeightEntries) {
      return absl::InvalidArgumentError(absl::StrCat("micro-op ", i, ": indices (acc ", u.acc,
                                                     ", inp ", u.inp, ", wgt ", u.wgt,
                                                     ") do not fit 11, 11 and 10 bits"));
    }
    const uint32_t word = u.acc | (u.inp << 11) | (u.wgt << 22);
    for (int b = 0; b < kVtaUopBytes; ++b)
      out.push_back(static_cast<char>((word >> (8 * b)) & 0xff));
  }
  return out;
}

VtaUop DecodeUop(uint32_t word) { return VtaUop{word & 0x7ff, (word >> 11) & 0x7ff, word >> 22}; }

}  // namespace tunefarm::runtime::vta

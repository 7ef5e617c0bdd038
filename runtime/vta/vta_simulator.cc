#include "runtime/vta/vta_simulator.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "absl/strings/str_cat.h"

namespace tunefarm::runtime::vta {
namespace {

enum Queue { kLoadToCompute = 0, kComputeToLoad, kComputeToStore, kStoreToCompute, kQueueCount };

constexpr const char* kQueueNames[kQueueCount] = {"load->compute", "compute->load",
                                                  "compute->store", "store->compute"};

struct Token {
  int64_t time;
  int64_t pushed_by;  // instruction index, for errors about tokens nobody pops
};

// The queues an instruction pops from and pushes onto, given its module's neighbours.
std::vector<Queue> PopQueues(VtaModule module, const VtaDependence& dep) {
  std::vector<Queue> queues;
  if (module == VtaModule::kLoad && dep.pop_next) queues.push_back(kComputeToLoad);
  if (module == VtaModule::kCompute && dep.pop_prev) queues.push_back(kLoadToCompute);
  if (module == VtaModule::kCompute && dep.pop_next) queues.push_back(kStoreToCompute);
  if (module == VtaModule::kStore && dep.pop_prev) queues.push_back(kComputeToStore);
  return queues;
}

std::vector<Queue> PushQueues(VtaModule module, const VtaDependence& dep) {
  std::vector<Queue> queues;
  if (module == VtaModule::kLoad && dep.push_next) queues.push_back(kLoadToCompute);
  if (module == VtaModule::kCompute && dep.push_prev) queues.push_back(kComputeToLoad);
  if (module == VtaModule::kCompute && dep.push_next) queues.push_back(kComputeToStore);
  if (module == VtaModule::kStore && dep.push_prev) queues.push_back(kStoreToCompute);
  return queues;
}

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

uint32_t ReadLittleEndian32(const uint8_t* p) {
  return uint32_t{p[0]} | (uint32_t{p[1]} << 8) | (uint32_t{p[2]} << 16) | (uint32_t{p[3]} << 24);
}

int32_t AluApply(VtaAluOp op, int32_t x, int32_t y) {
  switch (op) {
    case VtaAluOp::kAdd:
      return static_cast<int32_t>(static_cast<uint32_t>(x) + static_cast<uint32_t>(y));
    case VtaAluOp::kMax:
      return std::max(x, y);
    case VtaAluOp::kMin:
      return std::min(x, y);
    case VtaAluOp::kShr: {
      // Shifts of 32 or more would be undefined in C++; they saturate at 31.
      if (y >= 0) return x >> std::min(y, 31);
      const int64_t left = std::min<int64_t>(-int64_t{y}, 31);
      return static_cast<int32_t>(static_cast<uint32_t>(x) << left);
    }
    case VtaAluOp::kMul:
      return static_cast<int32_t>(static_cast<uint32_t>(x) * static_cast<uint32_t>(y));
  }
  return x;
}

// The on-chip state and the functional effect of each instruction.
class Machine {
 public:
  Machine(const VtaConfig& config, absl::Span<uint8_t> dram, VtaRunStats& stats)
      : config_(config),
        dram_(dram),
        stats_(stats),
        input_(config.InputEntries() * config.InputEntryBytes()),
        weight_(config.WeightEntries() * config.WeightEntryBytes()),
        acc_(config.AccEntries() * config.batch * config.block_out),
        output_(config.OutputEntries() * config.OutputEntryBytes()),
        uops_(config.uop_buffer_entries) {}

  // Runs the instruction's effect and returns its cost in cycles.
  absl::StatusOr<int64_t> Execute(const VtaInstruction& insn, int64_t index) {
    index_ = index;
    opcode_ = OpcodeOf(insn);
    if (const auto* load = std::get_if<VtaLoad>(&insn)) return Load(*load);
    if (const auto* store = std::get_if<VtaStore>(&insn)) return Store(*store);
    if (const auto* gemm = std::get_if<VtaGemm>(&insn)) return Gemm(*gemm);
    if (const auto* alu = std::get_if<VtaAlu>(&insn)) return Alu(*alu);
    return 0;  // FINISH
  }

 private:
  absl::Status Error(absl::string_view what) const {
    return absl::InvalidArgumentError(
        absl::StrCat("instruction ", index_, " (", OpcodeName(opcode_), "): ", what));
  }

  // The DRAM byte offset of the shape's first entry, once its whole strided extent is in DRAM.
  absl::StatusOr<uint64_t> CheckDram(const VtaMemoryShape& s, int64_t entry_bytes) const {
    const uint64_t end_entry =
        uint64_t{s.dram_base} + uint64_t{s.y_size - 1} * s.x_stride + s.x_size;
    const uint64_t begin = uint64_t{s.dram_base} * entry_bytes;
    const uint64_t end = end_entry * entry_bytes;
    if (end > dram_.size()) {
      return Error(absl::StrCat("DRAM bytes [", begin, ", ", end, ") pass the end of DRAM (",
                                dram_.size(), " bytes)"));
    }
    return begin;
  }

  int64_t DmaCost(int64_t bytes) const {
    return config_.load_store_overhead_cycles + CeilDiv(bytes, config_.dma_bytes_per_cycle);
  }

  absl::StatusOr<int64_t> Load(const VtaLoad& load) {
    const VtaMemoryShape& s = load.shape;
    int64_t entry_bytes = kVtaUopBytes;
    if (load.buffer == VtaBuffer::kInput) entry_bytes = config_.InputEntryBytes();
    if (load.buffer == VtaBuffer::kWeight) entry_bytes = config_.WeightEntryBytes();
    if (load.buffer == VtaBuffer::kAcc) entry_bytes = config_.AccEntryBytes();
    absl::StatusOr<uint64_t> base = CheckDram(s, entry_bytes);
    if (!base.ok()) return base.status();
    const int64_t cols = int64_t{s.x_size} + s.pad_left + s.pad_right;
    const int64_t rows = int64_t{s.y_size} + s.pad_top + s.pad_bottom;
    for (int64_t y = 0; y < rows; ++y) {
      for (int64_t x = 0; x < cols; ++x) {
        const int64_t entry = s.sram_base + y * cols + x;
        const bool pad = y < s.pad_top || y >= s.pad_top + s.y_size || x < s.pad_left ||
                         x >= s.pad_left + s.x_size;
        const uint8_t* src = pad ? nullptr
                                 : dram_.data() + *base +
                                       ((y - s.pad_top) * s.x_stride + (x - s.pad_left)) *
                                           static_cast<uint64_t>(entry_bytes);
        StoreEntry(load.buffer, entry, entry_bytes, src);
      }
    }
    const int64_t bytes = int64_t{s.y_size} * s.x_size * entry_bytes;
    stats_.bytes_loaded += bytes;
    return DmaCost(bytes);
  }

  // One entry from DRAM (or zeros when `src` is null) into a buffer.
  void StoreEntry(VtaBuffer buffer, int64_t entry, int64_t entry_bytes, const uint8_t* src) {
    switch (buffer) {
      case VtaBuffer::kUop:
        uops_[entry] = src ? DecodeUop(ReadLittleEndian32(src)) : VtaUop{};
        return;
      case VtaBuffer::kAcc:
        for (int64_t e = 0; e < entry_bytes / 4; ++e) {
          acc_[entry * (entry_bytes / 4) + e] =
              src ? static_cast<int32_t>(ReadLittleEndian32(src + 4 * e)) : 0;
        }
        return;
      case VtaBuffer::kInput:
      case VtaBuffer::kWeight: {
        int8_t* dst =
            (buffer == VtaBuffer::kInput ? input_.data() : weight_.data()) + entry * entry_bytes;
        for (int64_t b = 0; b < entry_bytes; ++b) dst[b] = src ? static_cast<int8_t>(src[b]) : 0;
        return;
      }
      case VtaBuffer::kOutput:
        return;  // refused by ValidateInstruction
    }
  }

  absl::StatusOr<int64_t> Store(const VtaStore& store) {
    const VtaMemoryShape& s = store.shape;
    const int64_t entry_bytes = config_.OutputEntryBytes();
    absl::StatusOr<uint64_t> base = CheckDram(s, entry_bytes);
    if (!base.ok()) return base.status();
    for (int64_t y = 0; y < s.y_size; ++y) {
      for (int64_t x = 0; x < s.x_size; ++x) {
        const int8_t* src = output_.data() + (s.sram_base + y * s.x_size + x) * entry_bytes;
        uint8_t* dst =
            dram_.data() + *base + (y * s.x_stride + x) * static_cast<uint64_t>(entry_bytes);
        for (int64_t b = 0; b < entry_bytes; ++b) dst[b] = static_cast<uint8_t>(src[b]);
      }
    }
    const int64_t bytes = int64_t{s.y_size} * s.x_size * entry_bytes;
    stats_.bytes_stored += bytes;
    return DmaCost(bytes);
  }

  absl::Status CheckIndex(absl::string_view buffer, int64_t value, int64_t entries, uint32_t uop,
                          int64_t outer, int64_t inner) const {
    if (value < entries) return absl::OkStatus();
    return Error(absl::StrCat("micro-op ", uop, " at loop (", outer, ", ", inner, ") addresses ",
                              buffer, " entry ", value, ", past the buffer's ", entries,
                              " entries"));
  }

  void NarrowToOutput(int64_t acc_entry) {
    const int64_t n = int64_t{config_.batch} * config_.block_out;
    for (int64_t e = 0; e < n; ++e) {
      output_[acc_entry * n + e] =
          static_cast<int8_t>(static_cast<uint32_t>(acc_[acc_entry * n + e]) & 0xff);
    }
  }

  absl::StatusOr<int64_t> Gemm(const VtaGemm& gemm) {
    const VtaUopLoop& loop = gemm.loop;
    const int64_t bi = config_.block_in, bo = config_.block_out;
    for (int64_t o = 0; o < loop.outer_extent; ++o) {
      for (int64_t i = 0; i < loop.inner_extent; ++i) {
        for (uint32_t u = loop.uop_begin; u < loop.uop_end; ++u) {
          const VtaUop& uop = uops_[u];
          const int64_t a = uop.acc + o * gemm.acc_factor_outer + i * gemm.acc_factor_inner;
          const int64_t x = uop.inp + o * gemm.inp_factor_outer + i * gemm.inp_factor_inner;
          const int64_t w = uop.wgt + o * gemm.wgt_factor_outer + i * gemm.wgt_factor_inner;
          if (absl::Status s = CheckIndex("acc", a, config_.AccEntries(), u, o, i); !s.ok())
            return s;
          int32_t* acc = acc_.data() + a * config_.batch * bo;
          if (gemm.reset) {
            std::fill(acc, acc + config_.batch * bo, 0);
            NarrowToOutput(a);
            continue;
          }
          if (absl::Status s = CheckIndex("input", x, config_.InputEntries(), u, o, i); !s.ok())
            return s;
          if (absl::Status s = CheckIndex("weight", w, config_.WeightEntries(), u, o, i); !s.ok())
            return s;
          const int8_t* inp = input_.data() + x * config_.InputEntryBytes();
          const int8_t* wgt = weight_.data() + w * config_.WeightEntryBytes();
          for (int64_t b = 0; b < config_.batch; ++b) {
            for (int64_t c = 0; c < bo; ++c) {
              uint32_t sum = static_cast<uint32_t>(acc[b * bo + c]);
              for (int64_t k = 0; k < bi; ++k) {
                sum += static_cast<uint32_t>(int32_t{inp[b * bi + k]} * int32_t{wgt[c * bi + k]});
              }
              acc[b * bo + c] = static_cast<int32_t>(sum);
            }
          }
          NarrowToOutput(a);
          stats_.gemm_macs += config_.MacsPerGemmUop();
        }
      }
    }
    return config_.gemm_overhead_cycles + UopExecutions(gemm);
  }

  absl::StatusOr<int64_t> Alu(const VtaAlu& alu) {
    const VtaUopLoop& loop = alu.loop;
    const int64_t n = int64_t{config_.batch} * config_.block_out;
    for (int64_t o = 0; o < loop.outer_extent; ++o) {
      for (int64_t i = 0; i < loop.inner_extent; ++i) {
        for (uint32_t u = loop.uop_begin; u < loop.uop_end; ++u) {
          const VtaUop& uop = uops_[u];
          const int64_t d = uop.acc + o * alu.dst_factor_outer + i * alu.dst_factor_inner;
          const int64_t s = uop.inp + o * alu.src_factor_outer + i * alu.src_factor_inner;
          if (absl::Status st = CheckIndex("acc", d, config_.AccEntries(), u, o, i); !st.ok())
            return st;
          if (!alu.use_imm) {
            if (absl::Status st = CheckIndex("acc", s, config_.AccEntries(), u, o, i); !st.ok())
              return st;
          }
          for (int64_t e = 0; e < n; ++e) {
            const int32_t operand = alu.use_imm ? int32_t{alu.imm} : acc_[s * n + e];
            acc_[d * n + e] = AluApply(alu.op, acc_[d * n + e], operand);
          }
          NarrowToOutput(d);
        }
      }
    }
    return config_.alu_overhead_cycles + UopExecutions(alu);
  }

  const VtaConfig& config_;
  absl::Span<uint8_t> dram_;
  VtaRunStats& stats_;
  std::vector<int8_t> input_;
  std::vector<int8_t> weight_;
  std::vector<int32_t> acc_;
  std::vector<int8_t> output_;
  std::vector<VtaUop> uops_;
  int64_t index_ = 0;
  VtaOpcode opcode_ = VtaOpcode::kFinish;
};

const char* NeighbourOf(Queue popped) {
  switch (popped) {
    case kComputeToLoad:
    case kComputeToStore:
      return "compute";
    case kLoadToCompute:
      return "load";
    case kStoreToCompute:
      return "store";
    case kQueueCount:
      break;
  }
  return "unknown";
}

}  // namespace

absl::StatusOr<VtaRunStats> VtaSimulator::Run(absl::Span<const VtaInstruction> program,
                                              absl::Span<uint8_t> dram) const {
  if (absl::Status s = ValidateVtaConfig(config_); !s.ok()) return s;
  std::array<std::vector<int64_t>, kVtaModuleCount> streams;
  for (size_t i = 0; i < program.size(); ++i) {
    if (absl::Status s = ValidateInstruction(program[i], config_, static_cast<int64_t>(i));
        !s.ok()) {
      return s;
    }
    streams[static_cast<int>(ModuleOf(program[i]))].push_back(static_cast<int64_t>(i));
  }
  VtaRunStats stats;
  Machine machine(config_, dram, stats);
  std::array<std::deque<Token>, kQueueCount> queues;
  std::array<size_t, kVtaModuleCount> next{};
  std::array<int64_t, kVtaModuleCount> clock{};

  while (true) {
    // The module whose next instruction can start earliest (its pops met) runs it.
    std::optional<int> chosen;
    int64_t chosen_start = 0;
    bool any_left = false;
    for (int m = 0; m < kVtaModuleCount; ++m) {
      if (next[m] == streams[m].size()) continue;
      any_left = true;
      const VtaInstruction& insn = program[streams[m][next[m]]];
      int64_t start = clock[m];
      bool ready = true;
      for (Queue q : PopQueues(static_cast<VtaModule>(m), DependenceOf(insn))) {
        if (queues[q].empty()) {
          ready = false;
          break;
        }
        start = std::max(start, queues[q].front().time);
      }
      if (ready && (!chosen || start < chosen_start)) {
        chosen = m;
        chosen_start = start;
      }
    }
    if (!any_left) break;
    if (!chosen) {
      // Every module left waits on an empty queue, and only these modules could fill them.
      int64_t first = -1;
      Queue empty = kLoadToCompute;
      for (int m = 0; m < kVtaModuleCount; ++m) {
        if (next[m] == streams[m].size()) continue;
        const int64_t index = streams[m][next[m]];
        if (first >= 0 && index > first) continue;
        first = index;
        for (Queue q : PopQueues(static_cast<VtaModule>(m), DependenceOf(program[index]))) {
          if (queues[q].empty()) empty = q;
        }
      }
      return absl::InvalidArgumentError(absl::StrCat(
          "deadlock: instruction ", first, " (", OpcodeName(OpcodeOf(program[first])), ") on the ",
          ModuleName(ModuleOf(program[first])), " module waits for a token on the ",
          kQueueNames[empty], " queue that no ", NeighbourOf(empty), " instruction will push"));
    }

    const int m = *chosen;
    const int64_t index = streams[m][next[m]++];
    const VtaInstruction& insn = program[index];
    const VtaModule module = static_cast<VtaModule>(m);
    for (Queue q : PopQueues(module, DependenceOf(insn))) queues[q].pop_front();
    const int64_t dram_bytes_before = stats.bytes_loaded + stats.bytes_stored;
    absl::StatusOr<int64_t> cost = machine.Execute(insn, index);
    if (!cost.ok()) return cost.status();
    VtaModuleStats& ms = stats.modules[m];
    ms.dram_bytes += stats.bytes_loaded + stats.bytes_stored - dram_bytes_before;
    ms.stall_cycles += chosen_start - clock[m];
    ms.busy_cycles += *cost;
    clock[m] = chosen_start + *cost;
    ms.end_cycle = clock[m];
    stats.instructions[static_cast<int>(OpcodeOf(insn))] += 1;
    for (Queue q : PushQueues(module, DependenceOf(insn))) {
      if (static_cast<int64_t>(queues[q].size()) >= config_.queue_depth) {
        return absl::InvalidArgumentError(absl::StrCat(
            "instruction ", index, " (", OpcodeName(OpcodeOf(insn)), "): push onto the full ",
            kQueueNames[q], " queue (depth ", config_.queue_depth, ")"));
      }
      queues[q].push_back(Token{clock[m], index});
    }
  }

  for (int q = 0; q < kQueueCount; ++q) {
    if (queues[q].empty()) continue;
    const int64_t index = queues[q].front().pushed_by;
    return absl::InvalidArgumentError(
        absl::StrCat("instruction ", index, " (", OpcodeName(OpcodeOf(program[index])),
                     ") pushed a token on the ", kQueueNames[q],
                     " queue that no instruction pops (", queues[q].size(), " left at the end)"));
  }
  for (const VtaModuleStats& ms : stats.modules) {
    stats.total_cycles = std::max(stats.total_cycles, ms.end_cycle);
  }
  return stats;
}

}  // namespace tunefarm::runtime::vta

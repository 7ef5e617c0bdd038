// Runs accelerator programs bit-exactly against a DRAM the caller owns and counts the cycles the
// three modules (load, compute, store) take under the cycle model below, so schedules for the
// accelerator can be checked and compared without an FPGA.
//
// Cycle model. Each module has its own clock and runs its instructions in program order. An
// instruction starts at the later of its module's clock and the end times carried by the tokens
// it pops, and ends after its cost:
//   LOAD, STORE  load_store_overhead_cycles + ceil(DRAM bytes moved / dma_bytes_per_cycle)
//   GEMM         gemm_overhead_cycles + micro-op executions (one batch x block_in x block_out
//                product per cycle; a reset execution costs the same)
//   ALU          alu_overhead_cycles + micro-op executions (one accumulator entry per cycle)
//   FINISH       0
// Padding a LOAD writes costs nothing beyond the DRAM bytes. Tokens a module pushes carry its
// instruction's end time. The run's total is the latest module end.
//
// Data. Buffers start zeroed on each run. GEMM and ALU change accumulator entries and write each
// changed entry's narrowed copy (the low 8 bits of every int32, as VTA keeps them) to the same
// entry of the output buffer, which is what STORE copies to DRAM; a program clamps with MAX/MIN
// first. A LOAD of acc does not touch the output buffer.
//
// The functional effects run in order of start time (ties: load, compute, store), so a program
// whose tokens order every conflicting access gets the same data whatever the timing.
#pragma once

#include <array>
#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/vta/vta_config.h"
#include "runtime/vta/vta_isa.h"

namespace tunefarm::runtime::vta {

struct VtaModuleStats {
  int64_t end_cycle = 0;     // when its last instruction ended
  int64_t busy_cycles = 0;   // sum of its instructions' costs
  int64_t stall_cycles = 0;  // waiting on tokens (start minus the module's clock, summed)
  int64_t dram_bytes = 0;    // DRAM bytes its LOADs and STOREs moved
};

struct VtaRunStats {
  int64_t total_cycles = 0;
  std::array<VtaModuleStats, kVtaModuleCount> modules;  // indexed by VtaModule
  std::array<int64_t, kVtaOpcodeCount> instructions{};  // executed, indexed by VtaOpcode
  int64_t gemm_macs = 0;  // multiply-accumulates of non-reset GEMM micro-op executions
  int64_t bytes_loaded = 0;
  int64_t bytes_stored = 0;

  const VtaModuleStats& module(VtaModule m) const { return modules[static_cast<int>(m)]; }
  int64_t count(VtaOpcode op) const { return instructions[static_cast<int>(op)]; }
};

class VtaSimulator {
 public:
  explicit VtaSimulator(const VtaConfig& config) : config_(config) {}

  // Validates the config and every instruction, then runs the program. Errors (InvalidArgument,
  // naming the instruction by its index in `program`): a DRAM range outside `dram`, a micro-op
  // index past its buffer, a push onto a full queue, a deadlock (pops no push will ever meet),
  // tokens left in a queue at the end. DRAM may be partly written when an error is returned.
  absl::StatusOr<VtaRunStats> Run(absl::Span<const VtaInstruction> program,
                                  absl::Span<uint8_t> dram) const;

  const VtaConfig& config() const { return config_; }

 private:
  VtaConfig config_;
};

}  // namespace tunefarm::runtime::vta

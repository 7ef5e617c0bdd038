// An accelerator program's bytes (what a client would hand a `vta-sim` worker): any bytes are
// refused by DecodeProgram or decode to instructions that the simulator runs to a result or an
// error, never a crash or a hang.
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "runtime/vta/vta_config.h"
#include "runtime/vta/vta_isa.h"
#include "runtime/vta/vta_simulator.h"

namespace vta = tunefarm::runtime::vta;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const vta::VtaConfig config;
  absl::StatusOr<std::vector<vta::VtaInstruction>> program = vta::DecodeProgram(bytes, config);
  if (!program.ok()) return 0;
  if (program->size() * vta::kVtaInstructionBytes != size) std::abort();
  // A valid GEMM may ask for 2^31 micro-op executions: bound the work, not the parser.
  int64_t executions = 0;
  for (const vta::VtaInstruction& insn : *program) executions += vta::UopExecutions(insn);
  if (executions > (int64_t{1} << 16)) return 0;
  std::vector<uint8_t> dram(64 * 1024);
  for (size_t i = 0; i < dram.size(); ++i) dram[i] = static_cast<uint8_t>(i * 131 >> 3);
  absl::StatusOr<vta::VtaRunStats> stats =
      vta::VtaSimulator(config).Run(*program, absl::MakeSpan(dram));
  if (stats.ok() && stats->total_cycles < 0) std::abort();
  return 0;
}

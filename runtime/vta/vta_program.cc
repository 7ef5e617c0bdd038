#include "runtime/vta/vta_program.h"

#include <cstdint>
#include <variant>

namespace tunefarm::runtime::vta {

int64_t VtaProgram::Load(VtaBuffer buffer, const VtaMemoryShape& shape, VtaDependence dep) {
  return Append(VtaLoad{dep, buffer, shape});
}

int64_t VtaProgram::Store(const VtaMemoryShape& shape, VtaDependence dep) {
  return Append(VtaStore{dep, shape});
}

int64_t VtaProgram::Append(const VtaInstruction& instruction) {
  instructions_.push_back(instruction);
  return static_cast<int64_t>(instructions_.size()) - 1;
}

int64_t VtaProgram::Finish(VtaDependence dep) { return Append(VtaFinish{dep}); }

uint32_t VtaProgram::AddUop(const VtaUop& uop) {
  uops_.push_back(uop);
  return static_cast<uint32_t>(uops_.size() - 1);
}

VtaDependence& VtaProgram::dep(int64_t index) {
  return std::visit([](auto& insn) -> VtaDependence& { return insn.dep; },
                    instructions_.at(static_cast<size_t>(index)));
}

}  // namespace tunefarm::runtime::vta

// A program for the simulated accelerator being written: instructions and the micro-ops they
// index, appended one by one, then encoded (vta_isa.h) or handed to VtaSimulator. For tests and
// hand-written kernels; a code generator would append the same way.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/vta/vta_isa.h"

namespace tunefarm::runtime::vta {

class VtaProgram {
 public:
  // Each returns the new instruction's index, for adding dependence flags afterwards.
  int64_t Load(VtaBuffer buffer, const VtaMemoryShape& shape, VtaDependence dep = {});
  int64_t Store(const VtaMemoryShape& shape, VtaDependence dep = {});
  int64_t Append(const VtaInstruction& instruction);
  int64_t Finish(VtaDependence dep = {});

  // Appends a micro-op to the table that a uop LOAD brings on chip; returns its index there.
  uint32_t AddUop(const VtaUop& uop);

  VtaDependence& dep(int64_t index);

  const std::vector<VtaInstruction>& instructions() const { return instructions_; }
  const std::vector<VtaUop>& uops() const { return uops_; }

  absl::StatusOr<std::string> EncodeInstructions() const { return EncodeProgram(instructions_); }
  absl::StatusOr<std::string> EncodeUopTable() const { return EncodeUops(uops_); }

 private:
  std::vector<VtaInstruction> instructions_;
  std::vector<VtaUop> uops_;
};

}  // namespace tunefarm::runtime::vta

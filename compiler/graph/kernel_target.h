// The device a model's kernels are built for: a CPU through LLVM (its vector width and cores set
// the templates' defaults) or a CUDA GPU (the GPU templates, lowered for `cuda`).
#pragma once

#include <cstdint>

#include "compiler/passes/pass.h"
#include "compiler/topi/cpu_info.h"

namespace tunefarm::graph {

struct KernelTarget {
  enum class Device : uint8_t { kCpu, kCuda };
  Device device = Device::kCpu;
  topi::CpuInfo cpu;  // kCpu only

  static KernelTarget Cpu(const topi::CpuInfo& cpu) { return {Device::kCpu, cpu}; }
  static KernelTarget Cuda() { return {Device::kCuda, topi::CpuInfo()}; }
  bool is_cuda() const { return device == Device::kCuda; }
  // PassOptions::target of the lowering pipeline.
  passes::LoweringTarget lowering_target() const {
    return is_cuda() ? passes::LoweringTarget::kCuda : passes::LoweringTarget::kLlvm;
  }
};

}  // namespace tunefarm::graph

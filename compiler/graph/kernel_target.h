// The device a model's kernels are built for: its target (a CPU through LLVM or a CUDA GPU) and
// the CPU its templates' knobs are sized for (vector width, cores).
#pragma once

#include "compiler/passes/pass.h"
#include "compiler/target/target.h"
#include "compiler/target/target_cpu.h"
#include "compiler/topi/cpu_info.h"

namespace tunefarm::graph {

struct KernelTarget {
  target::Target target;
  topi::CpuInfo cpu;  // the host's for a GPU target (what launches the kernels)

  static KernelTarget For(const target::Target& t) { return {t, target::CpuInfoOf(t)}; }
  // This machine, as `llvm` builds for it.
  static KernelTarget Host() { return For(target::Target::Host()); }
  bool is_gpu() const { return target.is_gpu(); }
  // PassOptions::target of the lowering pipeline.
  passes::LoweringTarget lowering_target() const { return target.lowering(); }
};

}  // namespace tunefarm::graph

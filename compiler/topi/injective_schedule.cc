#include "compiler/topi/injective_schedule.h"

#include <algorithm>

namespace tunefarm::topi {
namespace {

// Below this many elements a parallel launch costs more than the loop.
constexpr int64_t kMinParallelElements = 1 << 14;

}  // namespace

int64_t AxisExtent(const ir::IterVar& axis) {
  std::optional<int64_t> extent = ir::AsConstInt(axis->dom.extent);
  return extent ? *extent : 1;
}

InjectiveScheduleConfig DefaultInjectiveConfig(const std::vector<int64_t>& shape,
                                               const CpuInfo& cpu) {
  int64_t elements = 1;
  for (int64_t d : shape) elements *= d;
  InjectiveScheduleConfig config;
  config.vector_lanes = cpu.Lanes(4);
  config.parallel = cpu.cores > 1 && elements >= kMinParallelElements;
  return config;
}

ir::IterVar ScheduleInjectiveStage(schedule::Stage& stage, const InjectiveScheduleConfig& config) {
  const std::vector<ir::IterVar> axes = stage.op()->axis;
  if (axes.empty()) return ir::IterVar();
  ir::IterVar last = axes.back();
  const int64_t extent = AxisExtent(last);
  const int64_t lanes = config.vector_lanes;
  ir::IterVar chunk;  // the loop over vectors of the last axis
  if (lanes > 1 && extent >= lanes) {
    ir::IterVar vec;
    stage.split(last, ir::IntImm(ir::DataType::Int(32), lanes), &chunk, &vec);
    stage.vectorize(vec);
    if (config.unroll > 1 && extent >= lanes * config.unroll) {
      ir::IterVar outer, inner;
      stage.split(chunk, ir::IntImm(ir::DataType::Int(32), config.unroll), &outer, &inner);
      stage.unroll(inner);
      chunk = outer;
    }
  }
  ir::IterVar outer = axes.size() > 1 ? axes[0] : (chunk.defined() ? chunk : last);
  for (size_t d = 1; d + 1 < axes.size(); ++d) {
    ir::IterVar fused;
    stage.fuse(outer, axes[d], &fused);
    outer = fused;
  }
  if (config.parallel) stage.parallel(outer);
  return outer;
}

}  // namespace tunefarm::topi

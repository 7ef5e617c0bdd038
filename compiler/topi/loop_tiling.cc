#include "compiler/topi/loop_tiling.h"

#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {

ir::IterVar SplitBy(schedule::Stage& s, const ir::IterVar& axis, int64_t factor,
                    ir::IterVar* inner) {
  ir::IterVar outer;
  s.split(axis, Imm(factor), &outer, inner);
  return outer;
}

std::pair<ir::IterVar, ir::IterVar> SplitVectors(schedule::Stage& s, const ir::IterVar& cols,
                                                 int64_t lanes, bool vectorize) {
  ir::IterVar lane;
  ir::IterVar vectors = SplitBy(s, cols, lanes, &lane);
  s.unroll(vectors);
  if (vectorize) {
    s.vectorize(lane);
  } else {
    s.unroll(lane);
  }
  return {vectors, lane};
}

ir::IterVar FuseOuter(schedule::Stage& s, const std::vector<ir::IterVar>& axes, bool parallel) {
  ir::IterVar fused;
  for (const ir::IterVar& iv : axes) {
    if (!iv.defined()) continue;
    if (!fused.defined()) {
      fused = iv;
      continue;
    }
    ir::IterVar next;
    s.fuse(fused, iv, &next);
    fused = next;
  }
  if (parallel && fused.defined()) s.parallel(fused);
  return fused;
}

void Reorder(schedule::Stage& s, const std::vector<ir::IterVar>& axes) {
  std::vector<ir::IterVar> order;
  for (const ir::IterVar& iv : axes) {
    if (iv.defined()) order.push_back(iv);
  }
  s.reorder(order);
}

}  // namespace tunefarm::topi

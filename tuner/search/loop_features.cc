#include "tuner/search/loop_features.h"

#include <algorithm>
#include <cmath>

namespace tunefarm::tuner {
namespace {

int AccessSlotFeatures(const LoopFeatureOptions& o) {
  return kAccessFixedFeatures + kAccessLevelFeatures * o.max_loops;
}

int NestSlotFeatures(const LoopFeatureOptions& o) {
  return kNestHeaderFeatures + kLoopSlotFeatures * o.max_loops +
         AccessSlotFeatures(o) * o.max_accesses;
}

int KindSlot(ir::ForKind kind) {
  switch (kind) {
    case ir::ForKind::kSerial:
      return 0;
    case ir::ForKind::kParallel:
      return 1;
    case ir::ForKind::kVectorized:
      return 2;
    case ir::ForKind::kUnrolled:
      return 3;
    case ir::ForKind::kThreadBinding:
      return 4;
  }
  return 0;
}

void WriteNest(const LoopNest& nest, const LoopFeatureOptions& o, float* out) {
  const int loops = std::min<int>(o.max_loops, static_cast<int>(nest.loops.size()));
  const int accesses = std::min<int>(o.max_accesses, static_cast<int>(nest.accesses.size()));
  float* p = out;
  *p++ = 1;
  *p++ = LogScale(nest.iterations);
  *p++ = LogScale(nest.cost);
  *p++ = LogScale(static_cast<double>(nest.ops.float_add));
  *p++ = LogScale(static_cast<double>(nest.ops.float_mul));
  *p++ = LogScale(static_cast<double>(nest.ops.float_fma));
  *p++ = LogScale(static_cast<double>(nest.ops.float_other));
  *p++ = LogScale(static_cast<double>(nest.ops.int_ops));
  *p++ = LogScale(static_cast<double>(nest.loops.size()));
  *p++ = LogScale(static_cast<double>(nest.accesses.size()));
  for (int l = 0; l < o.max_loops; ++l, p += kLoopSlotFeatures) {
    if (l >= loops) continue;
    const LoopInfo& loop = nest.loops[l];
    p[0] = LogScale(static_cast<double>(loop.extent));
    p[1] = LogScale(loop.depth);
    p[2 + KindSlot(loop.kind)] = 1;
    p[7] = LogScale(static_cast<double>(loop.prod_above));
    p[8] = LogScale(static_cast<double>(loop.prod_below));
  }
  for (int a = 0; a < o.max_accesses; ++a, p += AccessSlotFeatures(o)) {
    if (a >= accesses) continue;
    const AccessInfo& acc = nest.accesses[a];
    p[0] = acc.is_store ? 1 : 0;
    p[1] = acc.is_store ? 0 : 1;
    p[2] = LogScale(acc.element_bytes);
    p[3] = LogScale(acc.lanes);
    p[4] = LogScale(acc.count);
    float* level = p + kAccessFixedFeatures;
    for (int l = 0; l < loops && l < static_cast<int>(acc.strides.size()); ++l) {
      level[l * kAccessLevelFeatures + 0] = LogScale(static_cast<double>(acc.strides[l]));
      level[l * kAccessLevelFeatures + 1] = LogScale(acc.touched_bytes[l]);
      level[l * kAccessLevelFeatures + 2] = LogScale(acc.reuse[l]);
    }
  }
}

}  // namespace

float LogScale(double x) {
  return static_cast<float>(x >= 0 ? std::log2(1 + x) : -std::log2(1 - x));
}

int LoopFeatureLength(const LoopFeatureOptions& options) {
  return options.max_nests * NestSlotFeatures(options);
}

std::vector<float> LoopFeatureVector(const std::vector<LoopNest>& nests,
                                     const LoopFeatureOptions& options) {
  std::vector<float> out(static_cast<size_t>(LoopFeatureLength(options)), 0.0f);
  const int n = std::min<int>(options.max_nests, static_cast<int>(nests.size()));
  for (int i = 0; i < n; ++i) {
    WriteNest(nests[i], options, out.data() + static_cast<size_t>(i) * NestSlotFeatures(options));
  }
  return out;
}

}  // namespace tunefarm::tuner

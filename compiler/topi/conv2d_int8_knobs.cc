#include "compiler/topi/conv2d_int8_knobs.h"

#include <vector>

#include "compiler/ir/op.h"
#include "compiler/topi/common_knobs.h"

namespace tunefarm::topi {

absl::Status DefineConv2dInt8Knobs(space::ConfigSpace& space, const Conv2dInt8Tensors& t,
                                   const CpuInfo& cpu) {
  const Conv2dInt8Config def = DefaultConv2dInt8Config(t, cpu);
  const int64_t width = ir::AsConstInt(t.out.shape()[3]).value_or(1);
  const int registers = cpu.vector_registers;
  const std::vector<int64_t> reg_w =
      KnobValues({1, 2, 4, 7, 8, 14, 16, 28}, def.reg_w,
                 [&](int64_t v) { return v <= width && v + 2 <= registers; });
  if (absl::Status st = DefineIntKnob(space, "reg_w", reg_w); !st.ok()) return st;
  return DefineFlagKnob(space, "parallel", true, def.parallel);
}

absl::StatusOr<Conv2dInt8Config> Conv2dInt8ConfigFromKnobs(const space::Config& config) {
  KnobReader r(config);
  Conv2dInt8Config c;
  c.reg_w = r.Int("reg_w");
  c.parallel = r.Flag("parallel");
  if (!r.ok()) return r.status();
  return c;
}

absl::StatusOr<space::Config> Conv2dInt8KnobsFromConfig(const space::ConfigSpace& space,
                                                        const Conv2dInt8Config& c) {
  return NearestConfig(space, {{"reg_w", c.reg_w}, {"parallel", int64_t{c.parallel}}},
                       "conv2d_int8 knobs");
}

}  // namespace tunefarm::topi

#include "compiler/topi/depthwise_conv2d_knobs.h"

#include <vector>

#include "compiler/topi/common_knobs.h"
#include "compiler/topi/injective_schedule.h"
#include "compiler/topi/loop_tiling.h"

namespace tunefarm::topi {

absl::Status DefineDepthwiseConv2dKnobs(space::ConfigSpace& space, const DepthwiseConv2dTensors& t,
                                        const Window2d& window, const CpuInfo& cpu) {
  if (!t.out.defined() || !t.kernel.defined()) {
    return absl::InvalidArgumentError("depthwise_conv2d knobs: no depthwise_conv2d tensors");
  }
  const DepthwiseConv2dScheduleConfig def = DefaultDepthwiseConv2dConfig(t, cpu);
  const int64_t ow = AxisExtent(t.out.op()->axis[3]);
  const int64_t window_size = ir::AsConstInt(t.kernel.shape()[2]).value_or(1) *
                              ir::AsConstInt(t.kernel.shape()[3]).value_or(1);
  const std::vector<int64_t> lanes = VectorLaneChoices(cpu);
  const int64_t narrowest = lanes.front();
  const std::vector<int64_t> reg_w_vectors =
      KnobValues({1, 2, 3, 4, 5, 6, 7, 8}, def.reg_w_vectors,
                 [&](int64_t v) { return v == 1 || v * narrowest <= RoundUpTo(ow, narrowest); });
  std::vector<absl::Status> defined = {
      DefineIntKnob(space, "vector_lanes", lanes),
      DefineIntKnob(space, "reg_w_vectors", reg_w_vectors),
      DefineFlagKnob(space, "unroll_window", window_size > 1, def.unroll_window),
      DefineFlagKnob(space, "pad_inline", window.has_padding(), def.pad_inline),
      DefineFlagKnob(space, "parallel", true, def.parallel),
  };
  for (const absl::Status& st : defined) {
    if (!st.ok()) return st;
  }
  KnobView v_lanes, v_vectors;
  if (absl::Status st =
          ViewKnobs(space, {{"vector_lanes", &v_lanes}, {"reg_w_vectors", &v_vectors}});
      !st.ok()) {
    return st;
  }
  return space.AddConstraint("tile within the output row", [=](const space::Config& c) {
    const int64_t l = v_lanes.Int(c), nv = v_vectors.Int(c);
    return nv == 1 || nv * l <= RoundUpTo(ow, l);
  });
}

absl::StatusOr<DepthwiseConv2dScheduleConfig> DepthwiseConv2dConfigFromKnobs(
    const space::Config& config, const CpuInfo& cpu) {
  (void)cpu;
  KnobReader r(config);
  DepthwiseConv2dScheduleConfig c;
  c.vector_lanes = r.Int("vector_lanes");
  c.reg_w_vectors = r.Int("reg_w_vectors");
  c.unroll_window = r.Flag("unroll_window");
  c.pad_inline = r.Flag("pad_inline");
  c.parallel = r.Flag("parallel");
  if (!r.ok()) return r.status();
  return c;
}

absl::StatusOr<space::Config> DepthwiseConv2dKnobsFromConfig(
    const space::ConfigSpace& space, const DepthwiseConv2dScheduleConfig& c) {
  return NearestConfig(space,
                       {{"vector_lanes", c.vector_lanes},
                        {"reg_w_vectors", c.reg_w_vectors},
                        {"unroll_window", int64_t{c.unroll_window}},
                        {"pad_inline", int64_t{c.pad_inline}},
                        {"parallel", int64_t{c.parallel}}},
                       "depthwise_conv2d knobs");
}

}  // namespace tunefarm::topi

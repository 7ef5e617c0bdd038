#include "compiler/topi/conv2d_knobs.h"

#include <vector>

#include "compiler/topi/common_knobs.h"
#include "compiler/topi/injective_schedule.h"
#include "compiler/topi/loop_tiling.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {

absl::Status DefineConv2dKnobs(space::ConfigSpace& space, const Conv2dTensors& t,
                               const Window2d& window, const CpuInfo& cpu) {
  if (!t.out.defined() || !t.kernel.defined()) {
    return absl::InvalidArgumentError("conv2d knobs: no conv2d tensors");
  }
  const Conv2dScheduleConfig def = DefaultConv2dConfig(t, cpu);
  const int64_t o = AxisExtent(t.out.op()->axis[1]), ow = AxisExtent(t.out.op()->axis[3]);
  const int64_t kw = ir::AsConstInt(t.kernel.shape()[3]).value_or(1);
  const int registers = cpu.vector_registers;
  const std::vector<int64_t> lanes = VectorLaneChoices(cpu);
  const int64_t narrowest = lanes.front();

  const std::vector<int64_t> reg_w_vectors =
      KnobValues({1, 2, 3, 4}, def.reg_w_vectors,
                 [&](int64_t v) { return v == 1 || v * narrowest <= RoundUpTo(ow, narrowest); });
  const std::vector<int64_t> reg_o = KnobValues({1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16}, def.reg_o,
                                                [&](int64_t v) { return v <= o; });
  std::vector<absl::Status> defined = {
      DefineIntKnob(space, "vector_lanes", lanes),
      DefineIntKnob(space, "reg_w_vectors", reg_w_vectors),
      DefineIntKnob(space, "reg_o", reg_o),
      space.DefineChoice("order", {"channel_first", "window_first"}),
      DefineFlagKnob(space, "unroll_kw", kw > 1, def.unroll_kw),
      DefineFlagKnob(space, "pad_inline", window.has_padding(), def.pad_inline),
      DefineFlagKnob(space, "parallel", true, def.parallel),
  };
  for (const absl::Status& st : defined) {
    if (!st.ok()) return st;
  }
  KnobView v_lanes, v_vectors, v_reg_o;
  if (absl::Status st = ViewKnobs(
          space, {{"vector_lanes", &v_lanes}, {"reg_w_vectors", &v_vectors}, {"reg_o", &v_reg_o}});
      !st.ok()) {
    return st;
  }
  std::vector<absl::Status> constrained = {
      space.AddConstraint("register tile fits the vector registers",
                          [=](const space::Config& c) {
                            const int64_t nv = v_vectors.Int(c);
                            return FitsRegisters(v_reg_o.Int(c) * nv, nv, registers);
                          }),
      space.AddConstraint("register tile within the output row",
                          [=](const space::Config& c) {
                            const int64_t l = v_lanes.Int(c), nv = v_vectors.Int(c);
                            return nv == 1 || nv * l <= RoundUpTo(ow, l);
                          }),
  };
  for (const absl::Status& st : constrained) {
    if (!st.ok()) return st;
  }
  return absl::OkStatus();
}

absl::StatusOr<Conv2dScheduleConfig> Conv2dConfigFromKnobs(const space::Config& config,
                                                           const CpuInfo& cpu) {
  (void)cpu;
  KnobReader r(config);
  Conv2dScheduleConfig c;
  c.vector_lanes = r.Int("vector_lanes");
  c.reg_w_vectors = r.Int("reg_w_vectors");
  c.reg_o = r.Int("reg_o");
  c.order = r.Name("order") == "channel_first" ? ConvReduceOrder::kChannelFirst
                                               : ConvReduceOrder::kWindowFirst;
  c.unroll_kw = r.Flag("unroll_kw");
  c.pad_inline = r.Flag("pad_inline");
  c.parallel = r.Flag("parallel");
  if (!r.ok()) return r.status();
  return c;
}

absl::StatusOr<space::Config> Conv2dKnobsFromConfig(const space::ConfigSpace& space,
                                                    const Conv2dScheduleConfig& c) {
  return NearestConfig(
      space,
      {{"vector_lanes", c.vector_lanes},
       {"reg_w_vectors", c.reg_w_vectors},
       {"reg_o", c.reg_o},
       {"order", c.order == ConvReduceOrder::kChannelFirst ? "channel_first" : "window_first"},
       {"unroll_kw", int64_t{c.unroll_kw}},
       {"pad_inline", int64_t{c.pad_inline}},
       {"parallel", int64_t{c.parallel}}},
      "conv2d knobs");
}

}  // namespace tunefarm::topi

#include "compiler/topi/depthwise_conv2d_nchwc_knobs.h"

#include "absl/strings/str_cat.h"
#include "compiler/topi/common_knobs.h"
#include "compiler/topi/loop_tiling.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {

absl::Status DefineDepthwiseConv2dNchwcKnobs(space::ConfigSpace& space,
                                             const std::vector<int64_t>& data_shape, int64_t kh,
                                             int64_t kw, const Window2d& window, const CpuInfo& cpu,
                                             std::optional<int64_t> channel_block) {
  const std::string op = "depthwise_conv2d_nchwc knobs";
  if (data_shape.size() != 4) {
    return absl::InvalidArgumentError(absl::StrCat(op, ": the data shape must be NCHW"));
  }
  absl::StatusOr<WindowOutput> out =
      SlideWindow(op, absl::StrCat("data ", ShapeString(data_shape), ", window ", kh, "x", kw),
                  window, data_shape[2], data_shape[3], kh, kw);
  if (!out.ok()) return out.status();
  const int64_t lanes = cpu.Lanes(4), channels = data_shape[1];
  const int registers = cpu.vector_registers;
  if (channel_block && (*channel_block <= 0 || *channel_block % lanes != 0)) {
    return absl::InvalidArgumentError(absl::StrCat(op, ": the layout's channel block ",
                                                   *channel_block, " must be whole vectors of ",
                                                   lanes, " lanes"));
  }
  const DepthwiseConv2dNchwcScheduleConfig def =
      DefaultDepthwiseConv2dNchwcConfig(data_shape, kh, kw, window, cpu, channel_block);
  const std::vector<int64_t> blocks =
      channel_block ? std::vector<int64_t>{*channel_block}
                    : KnobValues({lanes, 2 * lanes, 4 * lanes}, def.channel_block,
                                 [&](int64_t v) { return v <= RoundUpTo(channels, lanes); });
  const std::vector<int64_t> reg_w = KnobValues({1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 28},
                                                def.reg_w, [&](int64_t v) { return v <= out->w; });
  std::vector<absl::Status> defined = {
      DefineIntKnob(space, "channel_block", blocks),
      DefineIntKnob(space, "reg_w", reg_w),
      DefineFlagKnob(space, "unroll_window", kh * kw > 1, def.unroll_window),
      DefineFlagKnob(space, "pad_inline", window.has_padding(), def.pad_inline),
      DefineFlagKnob(space, "parallel", true, def.parallel),
  };
  for (const absl::Status& st : defined) {
    if (!st.ok()) return st;
  }
  KnobView v_block, v_reg_w;
  if (absl::Status st = ViewKnobs(space, {{"channel_block", &v_block}, {"reg_w", &v_reg_w}});
      !st.ok()) {
    return st;
  }
  return space.AddConstraint("register tile fits the vector registers",
                             [=](const space::Config& c) {
                               const int64_t nv = v_block.Int(c) / lanes;
                               return FitsRegisters(v_reg_w.Int(c) * nv, nv, registers);
                             });
}

absl::StatusOr<DepthwiseConv2dNchwcScheduleConfig> DepthwiseConv2dNchwcConfigFromKnobs(
    const space::Config& config, const CpuInfo& cpu) {
  KnobReader r(config);
  DepthwiseConv2dNchwcScheduleConfig c;
  c.vector_lanes = cpu.Lanes(4);
  c.channel_block = r.Int("channel_block");
  c.reg_w = r.Int("reg_w");
  c.unroll_window = r.Flag("unroll_window");
  c.pad_inline = r.Flag("pad_inline");
  c.parallel = r.Flag("parallel");
  if (!r.ok()) return r.status();
  return c;
}

absl::StatusOr<space::Config> DepthwiseConv2dNchwcKnobsFromConfig(
    const space::ConfigSpace& space, const DepthwiseConv2dNchwcScheduleConfig& c) {
  return NearestConfig(space,
                       {{"channel_block", c.channel_block},
                        {"reg_w", c.reg_w},
                        {"unroll_window", int64_t{c.unroll_window}},
                        {"pad_inline", int64_t{c.pad_inline}},
                        {"parallel", int64_t{c.parallel}}},
                       "depthwise_conv2d_nchwc knobs");
}

}  // namespace tunefarm::topi

#include "compiler/topi/conv2d_nchwc_knobs.h"

#include "absl/strings/str_cat.h"
#include "compiler/topi/common_knobs.h"
#include "compiler/topi/loop_tiling.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {

absl::Status DefineConv2dNchwcKnobs(space::ConfigSpace& space,
                                    const std::vector<int64_t>& data_shape,
                                    const std::vector<int64_t>& kernel_shape,
                                    const Window2d& window, const CpuInfo& cpu,
                                    const std::optional<NchwcBlocks>& blocks) {
  if (data_shape.size() != 4 || kernel_shape.size() != 4) {
    return absl::InvalidArgumentError(
        "conv2d_nchwc knobs: the data (NCHW) and kernel (OIHW) shapes must have rank 4");
  }
  const int64_t c = data_shape[1], o = kernel_shape[0], kw = kernel_shape[3];
  absl::StatusOr<WindowOutput> out = SlideWindow(
      "conv2d_nchwc knobs",
      absl::StrCat("data ", ShapeString(data_shape), ", kernel ", ShapeString(kernel_shape)),
      window, data_shape[2], data_shape[3], kernel_shape[2], kw);
  if (!out.ok()) return out.status();
  const int64_t lanes = cpu.Lanes(4);
  const int registers = cpu.vector_registers;
  if (blocks && (blocks->ic_block <= 0 || blocks->oc_block <= 0 ||
                 blocks->oc_block % BlockVectorLanes(blocks->oc_block, cpu) != 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("conv2d_nchwc knobs: the layout's blocks ic ", blocks->ic_block, ", oc ",
                     blocks->oc_block, " must be positive and the oc block whole vectors of ",
                     lanes, " lanes or a fraction ", "down to 4"));
  }
  const Conv2dNchwcScheduleConfig def =
      DefaultConv2dNchwcConfig(data_shape, kernel_shape, window, cpu, blocks);

  const std::vector<int64_t> ic_block = blocks ? std::vector<int64_t>{blocks->ic_block}
                                               : KnobValues({1, 2, 4, 8, 16, 32, 64}, def.ic_block,
                                                            [&](int64_t v) { return v <= c; });
  const std::vector<int64_t> oc_block =
      blocks ? std::vector<int64_t>{blocks->oc_block}
             : KnobValues({NarrowOcBlock(o, cpu), lanes, 2 * lanes, 3 * lanes, 4 * lanes},
                          def.oc_block, [&](int64_t v) { return v <= RoundUpTo(o, lanes); });
  const std::vector<int64_t> reg_w = KnobValues({1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 28},
                                                def.reg_w, [&](int64_t v) { return v <= out->w; });
  std::vector<absl::Status> defined = {
      DefineIntKnob(space, "ic_block", ic_block),
      DefineIntKnob(space, "oc_block", oc_block),
      DefineIntKnob(space, "reg_w", reg_w),
      space.DefineChoice("order", {"channel_first", "window_first"}),
      DefineFlagKnob(space, "unroll_kw", kw > 1, def.unroll_kw),
      DefineFlagKnob(space, "pad_inline", window.has_padding(), def.pad_inline),
      DefineFlagKnob(space, "parallel", true, def.parallel),
      DefineFlagKnob(space, "oc_blocks_inner", true, def.oc_blocks_inner),
  };
  for (const absl::Status& st : defined) {
    if (!st.ok()) return st;
  }
  KnobView v_oc, v_reg_w;
  if (absl::Status st = ViewKnobs(space, {{"oc_block", &v_oc}, {"reg_w", &v_reg_w}}); !st.ok()) {
    return st;
  }
  return space.AddConstraint("register tile fits the vector registers",
                             [=](const space::Config& cfg) {
                               const int64_t oc = v_oc.Int(cfg);
                               const int64_t nv = oc / BlockVectorLanes(oc, cpu);
                               return FitsRegisters(v_reg_w.Int(cfg) * nv, nv, registers);
                             });
}

absl::StatusOr<Conv2dNchwcScheduleConfig> Conv2dNchwcConfigFromKnobs(const space::Config& config,
                                                                     const CpuInfo& cpu) {
  KnobReader r(config);
  Conv2dNchwcScheduleConfig c;
  c.ic_block = r.Int("ic_block");
  c.oc_block = r.Int("oc_block");
  c.vector_lanes = BlockVectorLanes(c.oc_block, cpu);
  c.reg_w = r.Int("reg_w");
  c.order = r.Name("order") == "channel_first" ? ConvReduceOrder::kChannelFirst
                                               : ConvReduceOrder::kWindowFirst;
  c.unroll_kw = r.Flag("unroll_kw");
  c.pad_inline = r.Flag("pad_inline");
  c.parallel = r.Flag("parallel");
  c.oc_blocks_inner = r.Flag("oc_blocks_inner");
  if (!r.ok()) return r.status();
  return c;
}

absl::StatusOr<space::Config> Conv2dNchwcKnobsFromConfig(const space::ConfigSpace& space,
                                                         const Conv2dNchwcScheduleConfig& c) {
  return NearestConfig(
      space,
      {{"ic_block", c.ic_block},
       {"oc_block", c.oc_block},
       {"reg_w", c.reg_w},
       {"order", c.order == ConvReduceOrder::kChannelFirst ? "channel_first" : "window_first"},
       {"unroll_kw", int64_t{c.unroll_kw}},
       {"pad_inline", int64_t{c.pad_inline}},
       {"parallel", int64_t{c.parallel}},
       {"oc_blocks_inner", int64_t{c.oc_blocks_inner}}},
      "conv2d_nchwc knobs");
}

}  // namespace tunefarm::topi

#include "compiler/topi/conv2d_winograd_knobs.h"

#include "absl/strings/str_cat.h"
#include "compiler/topi/common_knobs.h"

namespace tunefarm::topi {

absl::Status DefineConv2dWinogradKnobs(space::ConfigSpace& space, int64_t oc_block,
                                       const CpuInfo& cpu) {
  const int64_t lanes = cpu.Lanes(4);
  const int registers = cpu.vector_registers;
  if (oc_block <= 0 || oc_block % lanes != 0) {
    return absl::InvalidArgumentError(absl::StrCat("conv2d_winograd knobs: the oc block ", oc_block,
                                                   " must be whole vectors of ", lanes));
  }
  const Conv2dWinogradScheduleConfig def = DefaultConv2dWinogradConfig(4, cpu);
  std::vector<absl::Status> defined = {
      DefineIntKnob(space, "tile", {2, 4, 6}),
      DefineIntKnob(space, "reg_p", {1, 2, 3, 4, 6, 8}),
      DefineFlagKnob(space, "parallel", true, def.parallel),
  };
  for (const absl::Status& st : defined) {
    if (!st.ok()) return st;
  }
  KnobView v_reg_p;
  if (absl::Status st = ViewKnobs(space, {{"reg_p", &v_reg_p}}); !st.ok()) return st;
  const int64_t vectors = oc_block / lanes;
  return space.AddConstraint("register block fits the vector registers",
                             [=](const space::Config& cfg) {
                               return FitsRegisters(v_reg_p.Int(cfg) * vectors, vectors, registers);
                             });
}

absl::StatusOr<Conv2dWinogradScheduleConfig> Conv2dWinogradConfigFromKnobs(
    const space::Config& config, const CpuInfo& cpu) {
  KnobReader r(config);
  Conv2dWinogradScheduleConfig c;
  c.vector_lanes = cpu.Lanes(4);
  c.tile = r.Int("tile");
  c.reg_p = r.Int("reg_p");
  c.parallel = r.Flag("parallel");
  if (!r.ok()) return r.status();
  return c;
}

absl::StatusOr<space::Config> Conv2dWinogradKnobsFromConfig(const space::ConfigSpace& space,
                                                            const Conv2dWinogradScheduleConfig& c) {
  return NearestConfig(space,
                       {{"tile", c.tile}, {"reg_p", c.reg_p}, {"parallel", int64_t{c.parallel}}},
                       "conv2d_winograd knobs");
}

}  // namespace tunefarm::topi

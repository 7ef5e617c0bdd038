#include "compiler/topi/blocked_window_schedule.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "compiler/topi/epilogue.h"
#include "compiler/topi/injective_schedule.h"
#include "compiler/topi/loop_tiling.h"
#include "compiler/topi/pad.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {

std::string BlockedWindowScheduleConfig::ToString() const {
  return absl::StrCat("channel block ", channel_block, ", reg ", reg_w, " columns x ",
                      channel_block / std::max<int64_t>(vector_lanes, 1), "x", vector_lanes,
                      " lanes", unroll_window ? ", unroll window" : "",
                      pad_inline ? ", pad inline" : "", parallel ? ", parallel" : "");
}

BlockedWindowScheduleConfig DefaultBlockedWindowConfig(int64_t out_width, const CpuInfo& cpu,
                                                       std::optional<int64_t> channel_block) {
  BlockedWindowScheduleConfig c;
  c.vector_lanes = cpu.Lanes(4);
  // One vector of channels: 10-40 % faster than two on an AMD EPYC (MobileNet 3x3 layers),
  // since each (window tap, column) step is one FMA either way and a narrower block makes a
  // longer register tile of columns possible.
  c.channel_block = channel_block.value_or(c.vector_lanes);
  c.vector_lanes = BlockVectorLanes(c.channel_block, cpu);  // a narrow conv's block of 4 or 8
  const int64_t vectors = std::max<int64_t>(1, c.channel_block / c.vector_lanes);
  // Accumulators, the kernel vectors of one window position and one input vector must fit.
  const int64_t max_w = std::max<int64_t>(1, (cpu.vector_registers - vectors - 1) / vectors);
  const int64_t ow = std::max<int64_t>(1, out_width);
  c.reg_w = LargestDivisor(ow, std::min<int64_t>(max_w, 8));
  if (c.reg_w < 4) c.reg_w = std::min<int64_t>({ow, max_w, 4});
  // A depthwise window does 9 multiply-adds per output, a pool fewer operations still: a padded
  // copy of the input costs about as much as the window itself, so read through a bounds check
  // instead (1.6-3.5x measured on an AMD EPYC for depthwise 3x3, stride 1 and 2).
  c.pad_inline = true;
  c.parallel = cpu.cores > 1;
  return c;
}

absl::StatusOr<ScheduledOp> ScheduleBlockedWindowReduction(
    const BlockedWindowScheduleConfig& config, const BlockedWindowStages& t,
    const std::string& op) {
  if (config.vector_lanes <= 0 || config.reg_w <= 0 || config.channel_block <= 0 ||
      config.channel_block % config.vector_lanes != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(op,
                     " schedule: vector_lanes and reg_w must be positive and the channel block "
                     "whole vectors (",
                     config.ToString(), ")"));
  }
  if (config.channel_block != t.channel_block) {
    return absl::FailedPreconditionError(
        absl::StrCat(op, " schedule: the tensors have channel block ", t.channel_block,
                     " but the config asks for ", config.channel_block,
                     "; transform the layouts with the config's block"));
  }
  const te::Tensor& result = t.out;
  schedule::Schedule s = schedule::Schedule::Create({result.op()});
  SchedulePad(s, t.padded, t.data, config.pad_inline,
              InjectiveScheduleConfig{config.vector_lanes, 1, config.parallel});
  absl::StatusOr<te::Tensor> acc = s.cache_write(t.reduced, "local");
  if (!acc.ok()) return acc.status();
  if (!result.same_as(t.reduced)) {
    absl::Status inlined = InlineEpilogue(s, t.reduced, result, {t.padded}, op.c_str());
    if (!inlined.ok()) return inlined;
  }

  schedule::Stage& out = s[result];
  const auto axes = out.op()->axis;  // n, cb, oh, ow, c
  ir::IterVar wi;
  ir::IterVar wo = SplitBy(out, axes[3], config.reg_w, &wi);
  auto [cv, cl] = SplitVectors(out, axes[4], config.vector_lanes);
  Reorder(out, {axes[0], axes[1], axes[2], wo, wi, cv, cl});
  out.unroll(wi);
  FuseOuter(out, {axes[0], axes[1], axes[2]}, config.parallel);

  schedule::Stage& a = s[*acc];
  a.compute_at(out, wo);
  const auto acc_axes = a.op()->axis;
  const auto& r = a.op()->reduce_axis;  // ry, rx
  auto [av, al] = SplitVectors(a, acc_axes[4], config.vector_lanes);
  Reorder(a, {acc_axes[0], acc_axes[1], acc_axes[2], r[0], r[1], acc_axes[3], av, al});
  a.unroll(acc_axes[3]);
  if (config.unroll_window) a.unroll(r[0]).unroll(r[1]);
  if (!s.error().ok()) return s.error();
  return ScheduledOp{s, t.args};
}

}  // namespace tunefarm::topi

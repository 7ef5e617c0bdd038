#include "compiler/topi/conv2d_nchwc.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/topi/epilogue.h"
#include "compiler/topi/injective_schedule.h"
#include "compiler/topi/loop_tiling.h"
#include "compiler/topi/pad.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {

namespace {

// The blocked convolution of both computes: output block ob reads kernel.shape[1] data blocks,
// all of them when dense (out_blocks_per_group 0), else its group's.
absl::StatusOr<Conv2dNchwcTensors> BlockedConvCompute(const std::string& op, const te::Tensor& data,
                                                      const te::Tensor& kernel,
                                                      const Window2d& window,
                                                      int64_t out_blocks_per_group) {
  absl::StatusOr<std::vector<int64_t>> ds = StaticShape(op, data, 5);
  if (!ds.ok()) return ds.status();
  absl::StatusOr<std::vector<int64_t>> ks = StaticShape(op, kernel, 6);
  if (!ks.ok()) return ks.status();
  const std::string shapes =
      absl::StrCat("data ", ShapeString(*ds), " (NCHWc), kernel ", ShapeString(*ks), " (OIHWio)");
  const int64_t n = (*ds)[0], cb = (*ds)[1], h = (*ds)[2], w = (*ds)[3], ic = (*ds)[4];
  const int64_t ob = (*ks)[0], kb = (*ks)[1], kh = (*ks)[2], kw = (*ks)[3], oc = (*ks)[5];
  const bool grouped = out_blocks_per_group > 0;
  if ((*ks)[4] != ic || data.dtype() != kernel.dtype()) {
    return absl::InvalidArgumentError(
        absl::StrCat(op, " (", shapes, "): the kernel's input block must be the data's (", ic,
                     " channels) and the dtypes must agree"));
  }
  if (!grouped && kb != cb) {
    return absl::InvalidArgumentError(absl::StrCat(
        op, " (", shapes, "): the kernel's input channel blocks must be the data's (", cb, ")"));
  }
  if (grouped && (ob % out_blocks_per_group != 0 || ob / out_blocks_per_group * kb != cb)) {
    return absl::InvalidArgumentError(absl::StrCat(
        op, " (", shapes, "): ", out_blocks_per_group, " output blocks per group must divide the ",
        ob, " output blocks into groups that each read ", kb, " of the data's ", cb, " blocks"));
  }
  absl::StatusOr<WindowOutput> out = SlideWindow(op, shapes, window, h, w, kh, kw);
  if (!out.ok()) return out.status();
  Conv2dNchwcTensors t{data, kernel, data, te::Tensor(), ic, oc};
  absl::StatusOr<te::Tensor> padded = PadWindowCompute(data, window, ir::Expr(0.0f), "conv2d_pad");
  if (!padded.ok()) return padded.status();
  t.padded = *padded;
  ir::IterVar rc = te::reduce_axis({Imm(0), Imm(kb)}, "rc");
  ir::IterVar ry = te::reduce_axis({Imm(0), Imm(kh)}, "ry");
  ir::IterVar rx = te::reduce_axis({Imm(0), Imm(kw)}, "rx");
  ir::IterVar ri = te::reduce_axis({Imm(0), Imm(ic)}, "ri");
  auto body = [&](const std::vector<ir::Var>& i) {
    ir::Expr y = i[2] * Imm(window.stride_h) + ry->var * Imm(window.dilation_h);
    ir::Expr x = i[3] * Imm(window.stride_w) + rx->var * Imm(window.dilation_w);
    ir::Expr block = rc->var;
    if (grouped) {
      ir::Expr group = out_blocks_per_group == 1 ? ir::Expr(i[1])
                                                 : ir::FloorDiv(i[1], Imm(out_blocks_per_group));
      block = group * Imm(kb) + rc->var;
    }
    return te::sum(t.padded({i[0], block, y, x, ri->var}) *
                       kernel({i[1], rc->var, ry->var, rx->var, ri->var, i[4]}),
                   {rc, ry, rx, ri});
  };
  absl::StatusOr<te::Tensor> result =
      te::compute({Imm(n), Imm(ob), Imm(out->h), Imm(out->w), Imm(oc)}, body, op,
                  {"n", "ob", "oh", "ow", "oi"});
  if (!result.ok()) return result.status();
  t.out = *result;
  return t;
}

}  // namespace

absl::StatusOr<Conv2dNchwcTensors> Conv2dNchwcCompute(const te::Tensor& data,
                                                      const te::Tensor& kernel,
                                                      const Window2d& window) {
  return BlockedConvCompute("conv2d_nchwc", data, kernel, window, 0);
}

absl::StatusOr<Conv2dNchwcTensors> GroupConv2dNchwcCompute(const te::Tensor& data,
                                                           const te::Tensor& kernel,
                                                           const Window2d& window,
                                                           int64_t out_blocks_per_group) {
  if (out_blocks_per_group < 1) {
    return absl::InvalidArgumentError(absl::StrCat("group_conv2d_nchwc: out_blocks_per_group ",
                                                   out_blocks_per_group, " must be positive"));
  }
  return BlockedConvCompute("group_conv2d_nchwc", data, kernel, window, out_blocks_per_group);
}

std::string Conv2dNchwcScheduleConfig::ToString() const {
  return absl::StrCat("ic ", ic_block, ", oc ", oc_block, ", reg ", reg_w, " columns x ",
                      oc_block / std::max<int64_t>(vector_lanes, 1), "x", vector_lanes, " lanes, ",
                      order == ConvReduceOrder::kChannelFirst ? "cb,kh,kw,ci" : "kh,kw,cb,ci",
                      unroll_kw ? ", unroll kw" : "", pad_inline ? ", pad inline" : "",
                      parallel ? ", parallel" : "", oc_blocks_inner ? ", oc blocks inner" : "");
}

int64_t NarrowOcBlock(int64_t filters, const CpuInfo& cpu) {
  const int64_t lanes = cpu.Lanes(4);
  int64_t block = std::min<int64_t>(4, lanes);
  while (block < filters && block < lanes) block *= 2;
  return block;
}

Conv2dNchwcScheduleConfig DefaultConv2dNchwcConfig(const std::vector<int64_t>& data_shape,
                                                   const std::vector<int64_t>& kernel_shape,
                                                   const Window2d& window, const CpuInfo& cpu,
                                                   const std::optional<NchwcBlocks>& blocks) {
  Conv2dNchwcScheduleConfig c;
  c.vector_lanes = cpu.Lanes(4);
  const int64_t channels = data_shape.size() > 1 ? data_shape[1] : 1;
  const int64_t filters = kernel_shape.empty() ? 1 : kernel_shape[0];
  // Two vectors of output channels when there are enough of them, a narrower block when there
  // are not one vector's worth; the input block divides C.
  c.oc_block = filters >= 2 * c.vector_lanes ? 2 * c.vector_lanes
               : filters >= c.vector_lanes   ? c.vector_lanes
                                             : NarrowOcBlock(filters, cpu);
  c.ic_block = LargestDivisor(channels, c.oc_block);
  if (blocks) {
    c.ic_block = blocks->ic_block;
    c.oc_block = blocks->oc_block;
  }
  c.vector_lanes = BlockVectorLanes(c.oc_block, cpu);
  const int64_t oc_vectors = std::max<int64_t>(1, c.oc_block / c.vector_lanes);
  // Accumulators, the kernel vectors of one channel step and one broadcast input must fit.
  const int64_t max_w = std::max<int64_t>(1, (cpu.vector_registers - oc_vectors - 1) / oc_vectors);
  int64_t ow = 1;
  if (data_shape.size() == 4 && kernel_shape.size() == 4) {
    absl::StatusOr<WindowOutput> out = SlideWindow("conv2d_nchwc", "", window, data_shape[2],
                                                   data_shape[3], kernel_shape[2], kernel_shape[3]);
    if (out.ok()) ow = out->w;
  }
  // A whole output row in one tile where it fits (small feature maps): with the padding read
  // inline and the kernel's columns unrolled, every padded product is then known at compile
  // time and dropped (skip_padding_taps); wider rows are cut into tiles of at most 8.
  c.reg_w = ow <= max_w ? ow : LargestDivisor(ow, std::min<int64_t>(max_w, 8));
  if (c.reg_w < 4) c.reg_w = std::min<int64_t>({ow, max_w, 4});
  const int64_t kw = kernel_shape.size() == 4 ? kernel_shape[3] : 1;
  c.pad_inline = window.has_padding();
  c.unroll_kw = kw > 1 && kw <= 5;
  c.parallel = cpu.cores > 1;
  return c;
}

absl::StatusOr<ScheduledOp> ScheduleConv2dNchwc(const Conv2dNchwcScheduleConfig& config,
                                                const Conv2dNchwcTensors& t,
                                                const te::Tensor& output) {
  if (config.vector_lanes <= 0 || config.reg_w <= 0 || config.oc_block <= 0 ||
      config.oc_block % config.vector_lanes != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "conv2d_nchwc schedule: vector_lanes and reg_w must be positive and oc_block whole "
        "vectors (",
        config.ToString(), ")"));
  }
  if (config.ic_block != t.ic_block || config.oc_block != t.oc_block) {
    return absl::FailedPreconditionError(
        absl::StrCat("conv2d_nchwc schedule: the tensors have blocks ic ", t.ic_block, ", oc ",
                     t.oc_block, " but the config asks for ic ", config.ic_block, ", oc ",
                     config.oc_block, "; transform the layouts with the config's blocks"));
  }
  const te::Tensor& result = output.defined() ? output : t.out;
  schedule::Schedule s = schedule::Schedule::Create({result.op()});
  InjectiveScheduleConfig pad_config{config.vector_lanes, 1, config.parallel};
  SchedulePad(s, t.padded, t.data, config.pad_inline, pad_config);
  absl::StatusOr<te::Tensor> acc = s.cache_write(t.out, "local");
  if (!acc.ok()) return acc.status();
  if (!result.same_as(t.out)) {
    absl::Status inlined = InlineEpilogue(s, t.out, result, {t.padded}, "conv2d_nchwc");
    if (!inlined.ok()) return inlined;
  }

  schedule::Stage& out = s[result];
  const auto axes = out.op()->axis;  // n, ob, oh, ow, oi
  ir::IterVar wi;
  ir::IterVar wo = SplitBy(out, axes[3], config.reg_w, &wi);
  auto [ov, ol] = SplitVectors(out, axes[4], config.vector_lanes);
  const ir::IterVar& outer = config.oc_blocks_inner ? axes[2] : axes[1];
  const ir::IterVar& inner = config.oc_blocks_inner ? axes[1] : axes[2];
  Reorder(out, {axes[0], outer, inner, wo, wi, ov, ol});
  out.unroll(wi);
  FuseOuter(out, {axes[0], outer, inner}, config.parallel);

  schedule::Stage& a = s[*acc];
  a.compute_at(out, wo);
  const auto acc_axes = a.op()->axis;
  const auto& r = a.op()->reduce_axis;  // rc, ry, rx, ri
  auto [av, al] = SplitVectors(a, acc_axes[4], config.vector_lanes);
  if (config.order == ConvReduceOrder::kChannelFirst) {
    Reorder(a,
            {acc_axes[0], acc_axes[1], acc_axes[2], r[0], r[1], r[2], r[3], acc_axes[3], av, al});
  } else {
    Reorder(a,
            {acc_axes[0], acc_axes[1], acc_axes[2], r[1], r[2], r[0], r[3], acc_axes[3], av, al});
  }
  a.unroll(acc_axes[3]);
  if (config.unroll_kw) a.unroll(r[2]);
  if (!s.error().ok()) return s.error();
  return ScheduledOp{s, {t.data, t.kernel, result}};
}

}  // namespace tunefarm::topi

#include "compiler/topi/layout_transform.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {
namespace {

absl::Status CheckBlock(const std::string& op, int64_t block) {
  if (block > 0) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(op, ": block ", block, " must be positive"));
}

// `value` where `index` < `extent`, else 0; no check when `block` divides `extent`.
ir::Expr ZeroPast(ir::Expr index, int64_t extent, int64_t block, ir::Expr value) {
  if (extent % block == 0) return value;
  return ir::IfThenElse(index < Imm(extent), value, ir::MakeZero(value.dtype()));
}

}  // namespace

absl::StatusOr<te::Tensor> NchwToNchwcCompute(const te::Tensor& data, int64_t block) {
  if (absl::Status st = CheckBlock("nchw_to_nchwc", block); !st.ok()) return st;
  absl::StatusOr<std::vector<int64_t>> s = StaticShape("nchw_to_nchwc", data, 4);
  if (!s.ok()) return s.status();
  const int64_t c = (*s)[1];
  auto body = [&](const std::vector<ir::Var>& i) {
    ir::Expr channel = i[1] * Imm(block) + i[4];
    return ZeroPast(channel, c, block, data({i[0], channel, i[2], i[3]}));
  };
  return te::compute({Imm((*s)[0]), Imm(CeilDiv(c, block)), Imm((*s)[2]), Imm((*s)[3]), Imm(block)},
                     body, "nchwc", {"n", "cb", "h", "w", "ci"});
}

absl::StatusOr<te::Tensor> NchwcToNchwCompute(const te::Tensor& data, int64_t channels) {
  absl::StatusOr<std::vector<int64_t>> s = StaticShape("nchwc_to_nchw", data, 5);
  if (!s.ok()) return s.status();
  const int64_t block = (*s)[4];
  if (channels <= 0 || channels > (*s)[1] * block) {
    return absl::InvalidArgumentError(
        absl::StrCat("nchwc_to_nchw: ", channels, " channels do not fit data ", ShapeString(*s)));
  }
  auto body = [&](const std::vector<ir::Var>& i) {
    return data({i[0], ir::FloorDiv(i[1], Imm(block)), i[2], i[3], ir::FloorMod(i[1], Imm(block))});
  };
  return te::compute({Imm((*s)[0]), Imm(channels), Imm((*s)[2]), Imm((*s)[3])}, body, "nchw",
                     {"n", "c", "h", "w"});
}

absl::StatusOr<te::Tensor> OihwToBlockedCompute(const te::Tensor& kernel, int64_t ic_block,
                                                int64_t oc_block) {
  for (int64_t block : {ic_block, oc_block}) {
    if (absl::Status st = CheckBlock("oihw_to_blocked", block); !st.ok()) return st;
  }
  absl::StatusOr<std::vector<int64_t>> s = StaticShape("oihw_to_blocked", kernel, 4);
  if (!s.ok()) return s.status();
  const int64_t o = (*s)[0], c = (*s)[1];
  auto body = [&](const std::vector<ir::Var>& i) {
    ir::Expr out_channel = i[0] * Imm(oc_block) + i[5];
    ir::Expr in_channel = i[1] * Imm(ic_block) + i[4];
    ir::Expr value = kernel({out_channel, in_channel, i[2], i[3]});
    return ZeroPast(out_channel, o, oc_block, ZeroPast(in_channel, c, ic_block, value));
  };
  return te::compute({Imm(CeilDiv(o, oc_block)), Imm(CeilDiv(c, ic_block)), Imm((*s)[2]),
                      Imm((*s)[3]), Imm(ic_block), Imm(oc_block)},
                     body, "kernel_blocked", {"ob", "cb", "kh", "kw", "ci", "oi"});
}

absl::StatusOr<ScheduledOp> ScheduleLayoutTransform(const LayoutTransformScheduleConfig& config,
                                                    const te::Tensor& in, const te::Tensor& out) {
  schedule::Schedule s = schedule::Schedule::Create({out.op()});
  ScheduleInjectiveStage(s[out], config);
  if (!s.error().ok()) return s.error();
  return ScheduledOp{s, {in, out}};
}

}  // namespace tunefarm::topi

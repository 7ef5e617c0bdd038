#include "compiler/topi/dense_int8.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "compiler/intrin/dot_int8.h"
#include "compiler/ir/op.h"
#include "compiler/topi/epilogue.h"
#include "compiler/topi/loop_tiling.h"

namespace tunefarm::topi {
namespace {

using schedule::Stage;

std::optional<int64_t> Dim(const te::Tensor& t, size_t i) { return ir::AsConstInt(t.shape()[i]); }

}  // namespace

std::string DenseInt8Config::ToString() const {
  return absl::StrCat("lanes ", lanes, ", tile ", reg_m, "x", reg_n(), ", unroll_k ", unroll_k,
                      parallel ? ", parallel" : "");
}

DenseInt8Config DefaultDenseInt8Config(int64_t m, int64_t n, int64_t /*k*/, const CpuInfo& cpu) {
  DenseInt8Config c;
  c.lanes = std::clamp<int64_t>(cpu.vector_bits / 32, 4, 16);
  c.reg_m = std::min<int64_t>(4, std::max<int64_t>(m, 1));
  c.reg_n_vectors = std::min<int64_t>(2, std::max<int64_t>(1, (n + c.lanes - 1) / c.lanes));
  c.parallel = cpu.cores > 1;
  return c;
}

absl::StatusOr<DenseInt8Tensors> DenseInt8Compute(const te::Tensor& a, const te::Tensor& packed_w,
                                                  int64_t n) {
  if (a.ndim() != 2 || packed_w.ndim() != 4) {
    return absl::InvalidArgumentError(
        absl::StrCat("dense_int8: the input must be [M, K] and the weight packed [N/L, K/4, L, 4]; "
                     "got ranks ",
                     a.ndim(), " and ", packed_w.ndim()));
  }
  if (a.dtype() != ir::DataType::UInt(8) || packed_w.dtype() != ir::DataType::Int(8)) {
    return absl::InvalidArgumentError(
        absl::StrCat("dense_int8: the input must be uint8 and the weight int8; got ",
                     a.dtype().ToString(), " and ", packed_w.dtype().ToString()));
  }
  const std::optional<int64_t> m = Dim(a, 0), k = Dim(a, 1), blocks = Dim(packed_w, 0),
                               groups = Dim(packed_w, 1), lanes = Dim(packed_w, 2),
                               four = Dim(packed_w, 3);
  if (!m || !k || !blocks || !groups || !lanes || !four) {
    return absl::InvalidArgumentError("dense_int8: shapes must be constant");
  }
  if (*k % 4 != 0 || *four != 4 || *groups != *k / 4 || n <= 0 ||
      *blocks != (n + *lanes - 1) / *lanes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "dense_int8: input [", *m, ", ", *k, "] and packed weight [", *blocks, ", ", *groups, ", ",
        *lanes, ", ", *four, "] for N = ", n,
        " do not fit: K must be a multiple of 4 and the weight [ceil(N/L), K/4, L, 4]"));
  }
  DenseInt8Tensors t;
  t.a = a;
  t.packed_w = packed_w;
  t.lanes = *lanes;
  const ir::DataType i32 = ir::DataType::Int(32);
  ir::IterVar kk = te::reduce_axis(ir::Range{0, static_cast<int>(*k)}, "k");
  absl::StatusOr<te::Tensor> blocked = te::compute(
      {static_cast<int>(*m), static_cast<int>(*blocks), static_cast<int>(*lanes)},
      [&](const std::vector<ir::Var>& i) {
        ir::Expr w = packed_w({i[1], ir::FloorDiv(kk->var, 4), i[2], ir::FloorMod(kk->var, 4)});
        return te::sum(ir::Cast(i32, a({i[0], kk->var})) * ir::Cast(i32, w), {kk});
      },
      "dense_int8_blocked", {"m", "nb", "lane"});
  if (!blocked.ok()) return blocked.status();
  t.blocked = *blocked;
  const int l = static_cast<int>(*lanes);
  absl::StatusOr<te::Tensor> c = te::compute(
      {static_cast<int>(*m), static_cast<int>(n)},
      [&](const std::vector<ir::Var>& i) {
        return t.blocked({i[0], ir::FloorDiv(i[1], l), ir::FloorMod(i[1], l)});
      },
      "dense_int8");
  if (!c.ok()) return c.status();
  t.c = *c;
  return t;
}

std::vector<int8_t> PackDenseInt8Weight(const int8_t* w, int64_t n, int64_t k, int64_t lanes) {
  const int64_t blocks = (n + lanes - 1) / lanes;
  std::vector<int8_t> packed(static_cast<size_t>(blocks * k * lanes), 0);
  for (int64_t row = 0; row < n; ++row) {
    for (int64_t col = 0; col < k; ++col) {
      const int64_t at = ((row / lanes * (k / 4) + col / 4) * lanes + row % lanes) * 4 + col % 4;
      packed[static_cast<size_t>(at)] = w[row * k + col];
    }
  }
  return packed;
}

absl::StatusOr<ScheduledOp> ScheduleDenseInt8(const DenseInt8Config& config,
                                              const DenseInt8Tensors& t,
                                              const te::Tensor& epilogue) {
  if (config.lanes != t.lanes) {
    return absl::FailedPreconditionError(
        absl::StrCat("dense_int8 schedule: the weight is packed for ", t.lanes,
                     " lanes but the config asks for ", config.lanes));
  }
  if (config.reg_m < 1 || config.reg_n_vectors < 1 || config.unroll_k < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("dense_int8 schedule: bad config (", config.ToString(), ")"));
  }
  absl::StatusOr<schedule::TensorIntrin> dot =
      intrin::DotInt8Intrin(static_cast<int>(config.lanes), t.a.dtype(), t.packed_w.dtype());
  if (!dot.ok()) return dot.status();
  const te::Tensor& out = epilogue.defined() ? epilogue : t.c;
  schedule::Schedule s = schedule::Schedule::Create({out.op()});
  if (epilogue.defined()) {
    if (absl::Status st = InlineEpilogue(s, t.c, out, {}, "dense_int8"); !st.ok()) return st;
  }
  absl::StatusOr<te::Tensor> acc = s.cache_write(t.blocked, "local");
  if (!acc.ok()) return acc.status();
  s[t.blocked].compute_inline();

  // The copy-out (or the epilogue that reads through it): register tiles of reg_m rows x reg_n
  // columns in one parallel loop.
  Stage& c = s[out];
  ir::IterVar mi, ni;
  ir::IterVar mo = SplitBy(c, c.op()->axis[0], config.reg_m, &mi);
  ir::IterVar no = SplitBy(c, c.op()->axis[1], config.reg_n(), &ni);
  c.reorder({mo, no, mi, ni});
  ir::IterVar tile = FuseOuter(c, {mo, no}, config.parallel);
  c.unroll(mi);

  // The accumulator tile over all of K: k in groups of four outermost, the tile unrolled inside,
  // each vector of lanes one dot instruction.
  Stage& a = s[*acc];
  a.compute_at(c, tile);
  const auto axes = a.op()->axis;
  ir::IterVar ki;
  ir::IterVar ko = SplitBy(a, a.op()->reduce_axis[0], 4, &ki);
  ir::IterVar kou;
  if (config.unroll_k > 1) {
    ir::IterVar kuo = SplitBy(a, ko, config.unroll_k, &kou);
    Reorder(a, {kuo, kou, axes[0], axes[1], axes[2], ki});
    a.unroll(kou);
  } else {
    Reorder(a, {ko, axes[0], axes[1], axes[2], ki});
  }
  a.unroll(axes[0]);
  a.unroll(axes[1]);
  a.tensorize(axes[2], *dot);
  if (!s.error().ok()) return s.error();
  return ScheduledOp{s, {t.a, t.packed_w, out}};
}

}  // namespace tunefarm::topi

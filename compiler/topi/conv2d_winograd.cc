#include "compiler/topi/conv2d_winograd.h"

#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/topi/epilogue.h"
#include "compiler/topi/injective_schedule.h"
#include "compiler/topi/loop_tiling.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {
namespace {

// Entry (i, j) of a constant row-major matrix with `cols` columns, for index expressions: a chain
// of selects over its nonzero entries. Once the loops over i and j are unrolled, the chain folds
// to the one constant (and a zero coefficient's product away).
ir::Expr Entry(const std::vector<double>& matrix, int cols, const ir::Expr& i, const ir::Expr& j) {
  ir::Expr value = ir::FloatImm(ir::DataType::Float(32), 0.0);
  for (size_t k = 0; k < matrix.size(); ++k) {
    if (matrix[k] == 0) continue;
    const int row = static_cast<int>(k) / cols, col = static_cast<int>(k) % cols;
    value = ir::Select((i == Imm(row)) && (j == Imm(col)),
                       ir::FloatImm(ir::DataType::Float(32), matrix[k]), value);
  }
  return value;
}

}  // namespace

absl::StatusOr<te::Tensor> WinogradWeightCompute(const te::Tensor& kernel,
                                                 const WinogradMatrices& w) {
  absl::StatusOr<std::vector<int64_t>> ks = StaticShape("winograd weight", kernel, 6);
  if (!ks.ok()) return ks.status();
  if ((*ks)[2] != 3 || (*ks)[3] != 3 || w.r != 3) {
    return absl::InvalidArgumentError(absl::StrCat("winograd weight: kernel ", ShapeString(*ks),
                                                   " must be 3x3 ([OB][CB][3][3][ic][oc])"));
  }
  const int64_t alpha = w.alpha;
  ir::IterVar ra = te::reduce_axis({Imm(0), Imm(3)}, "ra");
  ir::IterVar rb = te::reduce_axis({Imm(0), Imm(3)}, "rb");
  auto body = [&](const std::vector<ir::Var>& i) {
    return te::sum(Entry(w.g, w.r, i[0], ra->var) * Entry(w.g, w.r, i[1], rb->var) *
                       kernel({i[2], i[3], ra->var, rb->var, i[4], i[5]}),
                   {ra, rb});
  };
  return te::compute(
      {Imm(alpha), Imm(alpha), Imm((*ks)[0]), Imm((*ks)[1]), Imm((*ks)[4]), Imm((*ks)[5])}, body,
      "winograd_weight", {"xi", "nu", "ob", "cb", "ic", "oc"});
}

absl::StatusOr<Conv2dWinogradTensors> Conv2dWinogradCompute(const te::Tensor& data,
                                                            const te::Tensor& weight, int64_t pad,
                                                            const WinogradMatrices& w) {
  absl::StatusOr<std::vector<int64_t>> ds = StaticShape("conv2d_winograd", data, 5);
  if (!ds.ok()) return ds.status();
  absl::StatusOr<std::vector<int64_t>> us = StaticShape("conv2d_winograd", weight, 6);
  if (!us.ok()) return us.status();
  const std::string shapes = absl::StrCat("data ", ShapeString(*ds), " (NCHWc), weight ",
                                          ShapeString(*us), " (transformed)");
  const int64_t n = (*ds)[0], cb = (*ds)[1], h = (*ds)[2], wd = (*ds)[3], ic = (*ds)[4];
  const int64_t alpha = w.alpha, m = w.m, ob = (*us)[2], oc = (*us)[5];
  const int64_t oh = h + 2 * pad - 2, ow = wd + 2 * pad - 2;
  if ((*us)[0] != alpha || (*us)[1] != alpha || (*us)[3] != cb || (*us)[4] != ic || w.r != 3 ||
      pad < 0 || pad > 1 || oh < 1 || ow < 1) {
    return absl::InvalidArgumentError(absl::StrCat("conv2d_winograd F(", m, "x", m, ", 3x3) (",
                                                   shapes, ", pad ", pad, "): the weight must be [",
                                                   alpha, "][", alpha, "][OB][", cb, "][", ic,
                                                   "][oc], pad 0 or 1, and the output not empty"));
  }
  Conv2dWinogradTensors t;
  t.data = data;
  t.weight = weight;
  t.m = m;
  t.tiles_w = (ow + m - 1) / m;
  const int64_t tiles = (oh + m - 1) / m * t.tiles_w;

  // V = Bᵀ d B over each tile's input pixels, in two passes of alpha terms each (alpha^3 products
  // per pass, not alpha^4): R[ξ][b] = Σ_a B[a][ξ] d[a][b], then V[ξ][ν] = Σ_b R[ξ][b] B[b][ν].
  ir::IterVar ra = te::reduce_axis({Imm(0), Imm(alpha)}, "ra");
  auto rows_body = [&](const std::vector<ir::Var>& i) {  // xi, b, n, cb, p, ic
    ir::Expr y = ir::FloorDiv(i[4], Imm(t.tiles_w)) * Imm(m) + ra->var - Imm(pad);
    ir::Expr x = ir::FloorMod(i[4], Imm(t.tiles_w)) * Imm(m) + i[1] - Imm(pad);
    ir::Expr inside = y >= Imm(0) && y < Imm(h) && x >= Imm(0) && x < Imm(wd);
    ir::Expr pixel = ir::IfThenElse(inside, data({i[2], i[3], y, x, i[5]}),
                                    ir::FloatImm(ir::DataType::Float(32), 0.0));
    return te::sum(Entry(w.b, alpha, ra->var, i[0]) * pixel, {ra});
  };
  absl::StatusOr<te::Tensor> rows =
      te::compute({Imm(alpha), Imm(alpha), Imm(n), Imm(cb), Imm(tiles), Imm(ic)}, rows_body,
                  "winograd_rows", {"xi", "b", "n", "cb", "p", "ic"});
  if (!rows.ok()) return rows.status();
  t.rows = *rows;
  ir::IterVar rb = te::reduce_axis({Imm(0), Imm(alpha)}, "rb");
  auto tile_body = [&](const std::vector<ir::Var>& i) {
    return te::sum(
        t.rows({i[0], rb->var, i[2], i[3], i[4], i[5]}) * Entry(w.b, alpha, rb->var, i[1]), {rb});
  };
  absl::StatusOr<te::Tensor> tiles_t =
      te::compute({Imm(alpha), Imm(alpha), Imm(n), Imm(cb), Imm(tiles), Imm(ic)}, tile_body,
                  "winograd_tiles", {"xi", "nu", "n", "cb", "p", "ic"});
  if (!tiles_t.ok()) return tiles_t.status();
  t.tiles = *tiles_t;

  // M[ξ][ν][n][ob][p][o] = Σ_{cb,i} U[ξ][ν][ob][cb][i][o] V[ξ][ν][n][cb][p][i].
  ir::IterVar rc = te::reduce_axis({Imm(0), Imm(cb)}, "rc");
  ir::IterVar ri = te::reduce_axis({Imm(0), Imm(ic)}, "ri");
  auto product_body = [&](const std::vector<ir::Var>& i) {
    return te::sum(weight({i[0], i[1], i[3], rc->var, ri->var, i[5]}) *
                       t.tiles({i[0], i[1], i[2], rc->var, i[4], ri->var}),
                   {rc, ri});
  };
  absl::StatusOr<te::Tensor> product =
      te::compute({Imm(alpha), Imm(alpha), Imm(n), Imm(ob), Imm(tiles), Imm(oc)}, product_body,
                  "winograd_product", {"xi", "nu", "n", "ob", "p", "oc"});
  if (!product.ok()) return product.status();
  t.product = *product;

  // Y[n][ob][y][x][o] = Σ_{ξ,ν} A[ξ][y mod m] M[ξ][ν][..][tile of (y, x)][o] A[ν][x mod m].
  ir::IterVar rx = te::reduce_axis({Imm(0), Imm(alpha)}, "rxi");
  ir::IterVar rn = te::reduce_axis({Imm(0), Imm(alpha)}, "rnu");
  auto out_body = [&](const std::vector<ir::Var>& i) {
    ir::Expr p = ir::FloorDiv(i[2], Imm(m)) * Imm(t.tiles_w) + ir::FloorDiv(i[3], Imm(m));
    return te::sum(Entry(w.a, m, rx->var, ir::FloorMod(i[2], Imm(m))) *
                       Entry(w.a, m, rn->var, ir::FloorMod(i[3], Imm(m))) *
                       t.product({rx->var, rn->var, i[0], i[1], p, i[4]}),
                   {rx, rn});
  };
  absl::StatusOr<te::Tensor> out =
      te::compute({Imm(n), Imm(ob), Imm(oh), Imm(ow), Imm(oc)}, out_body, "conv2d_winograd",
                  {"n", "ob", "oh", "ow", "oc"});
  if (!out.ok()) return out.status();
  t.out = *out;
  return t;
}

std::string Conv2dWinogradScheduleConfig::ToString() const {
  return absl::StrCat("F(", tile, "x", tile, ", 3x3), ", vector_lanes, " lanes, ", reg_p,
                      " tiles per register block", parallel ? ", parallel" : "");
}

Conv2dWinogradScheduleConfig DefaultConv2dWinogradConfig(int64_t tile, const CpuInfo& cpu) {
  Conv2dWinogradScheduleConfig c;
  c.tile = tile;
  c.vector_lanes = cpu.Lanes(4);
  c.reg_p = 4;
  c.parallel = cpu.cores > 1;
  return c;
}

absl::StatusOr<ScheduledOp> ScheduleConv2dWinograd(const Conv2dWinogradScheduleConfig& config,
                                                   const Conv2dWinogradTensors& t,
                                                   const te::Tensor& output) {
  if (config.vector_lanes <= 0 || config.reg_p <= 0) {
    return absl::InvalidArgumentError(
        "conv2d_winograd schedule: vector_lanes and reg_p must be positive");
  }
  if (config.tile != t.m) {
    return absl::FailedPreconditionError(
        absl::StrCat("conv2d_winograd schedule: the config's tile ", config.tile,
                     " is not the compute's ", t.m));
  }
  const te::Tensor& result = output.defined() ? output : t.out;
  schedule::Schedule s = schedule::Schedule::Create({result.op()});
  // The output transform's sum per pixel vector, with the epilogue applied to it before the store.
  absl::StatusOr<te::Tensor> pixel = s.cache_write(t.out, "local");
  if (!pixel.ok()) return pixel.status();
  if (!result.same_as(t.out)) {
    absl::Status inlined = InlineEpilogue(s, t.out, result, {}, "conv2d_winograd");
    if (!inlined.ok()) return inlined;
  }
  // After the epilogue is inlined: the product's copy out of its accumulators is a stage of its
  // own, not part of the epilogue.
  absl::StatusOr<te::Tensor> acc = s.cache_write(t.product, "local");
  if (!acc.ok()) return acc.status();
  // The innermost axis in whole vectors where the block allows, else left scalar.
  auto channels_last = [&](schedule::Stage& stage, const ir::IterVar& channels) {
    if (AxisExtent(channels) % config.vector_lanes == 0) {
      SplitVectors(stage, channels, config.vector_lanes);
    }
  };
  {
    // Per tile: its rows' pass into a local buffer, then the columns' pass, both unrolled.
    schedule::Stage& v = s[t.tiles];
    const auto axes = v.op()->axis;  // xi, nu, n, cb, p, ic
    const auto& r = v.op()->reduce_axis;
    Reorder(v, {axes[2], axes[3], axes[4], axes[0], axes[1], r[0], axes[5]});
    for (const ir::IterVar& a : {axes[0], axes[1], r[0]}) v.unroll(a);
    channels_last(v, axes[5]);
    const ir::IterVar tile = FuseOuter(v, {axes[2], axes[3], axes[4]}, config.parallel);
    schedule::Stage& rows = s[t.rows];
    rows.compute_at(v, tile);
    const auto row_axes = rows.op()->axis;  // xi, b, n, cb, p, ic
    const auto& ra = rows.op()->reduce_axis;
    Reorder(rows,
            {row_axes[2], row_axes[3], row_axes[4], row_axes[0], row_axes[1], ra[0], row_axes[5]});
    for (const ir::IterVar& a : {row_axes[0], row_axes[1], ra[0]}) rows.unroll(a);
    channels_last(rows, row_axes[5]);
  }
  const bool whole_vectors = t.product.shape().size() == 6 &&
                             *ir::AsConstInt(t.product.shape()[5]) % config.vector_lanes == 0;
  {
    // Register blocks of reg_p tiles x the oc block, accumulated over the input channels.
    schedule::Stage& p = s[t.product];
    const auto axes = p.op()->axis;  // xi, nu, n, ob, p, oc
    ir::IterVar pi;
    ir::IterVar po = SplitBy(p, axes[4], config.reg_p, &pi);
    ir::IterVar ov, ol;
    if (whole_vectors) std::tie(ov, ol) = SplitVectors(p, axes[5], config.vector_lanes);
    Reorder(p, {axes[0], axes[1], axes[2], axes[3], po, pi, ov, ol});
    p.unroll(pi);
    FuseOuter(p, {axes[0], axes[1], axes[2], axes[3]}, config.parallel);
    schedule::Stage& a = s[*acc];
    a.compute_at(p, po);
    const auto acc_axes = a.op()->axis;
    const auto& r = a.op()->reduce_axis;  // cb, ic
    ir::IterVar av, al;
    if (whole_vectors) std::tie(av, al) = SplitVectors(a, acc_axes[5], config.vector_lanes);
    Reorder(a,
            {acc_axes[0], acc_axes[1], acc_axes[2], acc_axes[3], r[0], r[1], acc_axes[4], av, al});
    a.unroll(acc_axes[4]);
  }
  {
    // One output tile's m x m pixels unrolled: (y mod m, x mod m) become constants.
    schedule::Stage& o = s[result];
    const auto axes = o.op()->axis;  // n, ob, oh, ow, oc
    ir::IterVar yi, xi;
    ir::IterVar yo = SplitBy(o, axes[2], t.m, &yi);
    ir::IterVar xo = SplitBy(o, axes[3], t.m, &xi);
    Reorder(o, {axes[0], axes[1], yo, xo, yi, xi, axes[4]});
    o.unroll(yi);
    o.unroll(xi);
    channels_last(o, axes[4]);
    FuseOuter(o, {axes[0], axes[1], yo}, config.parallel);
    schedule::Stage& px = s[*pixel];
    px.compute_at(o, xi);
    const auto px_axes = px.op()->axis;
    const auto& r = px.op()->reduce_axis;  // xi, nu
    Reorder(px, {px_axes[0], px_axes[1], px_axes[2], px_axes[3], r[0], r[1], px_axes[4]});
    px.unroll(r[0]);
    px.unroll(r[1]);
    channels_last(px, px_axes[4]);
  }
  if (!s.error().ok()) return s.error();
  return ScheduledOp{s, {t.data, t.weight, result}};
}

}  // namespace tunefarm::topi

#include "compiler/topi/gemm_schedule.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/topi/epilogue.h"
#include "compiler/topi/injective_schedule.h"
#include "compiler/topi/loop_tiling.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {
namespace {

using schedule::Stage;

// Rounds x down to a multiple of `unit`, but never below one unit.
int64_t RoundDownTo(int64_t x, int64_t unit) { return std::max(unit, x / unit * unit); }

absl::Status Validate(const GemmScheduleConfig& c) {
  const std::pair<const char*, int64_t> positive[] = {{"vector_lanes", c.vector_lanes},
                                                      {"reg_m", c.reg_m},
                                                      {"reg_n_vectors", c.reg_n_vectors},
                                                      {"tile_m", c.tile_m},
                                                      {"tile_n", c.tile_n},
                                                      {"unroll_k", c.unroll_k}};
  for (const auto& [name, value] : positive) {
    if (value <= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("gemm schedule: ", name, " = ", value, " must be positive"));
    }
  }
  if (c.tile_k < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("gemm schedule: tile_k = ", c.tile_k, " must be >= 0 (0: all of K)"));
  }
  return absl::OkStatus();
}

// The config's sizes clamped to the GEMM's extents.
struct GemmPlan {
  int64_t reg_m, reg_n, lanes, tile_m, tile_n, tile_k;
};

GemmPlan Plan(const GemmScheduleConfig& c, const GemmTensors& t) {
  const auto& axes = t.c.op()->axis;
  const int64_t m = AxisExtent(axes[axes.size() - 2]), n = AxisExtent(axes.back());
  const int64_t k = ir::AsConstInt(t.a.shape().back()).value_or(1);
  GemmPlan p;
  p.lanes = c.vector_lanes;
  p.reg_n = c.reg_n();
  p.reg_m = std::min(c.reg_m, m);
  p.tile_m = std::min(RoundDownTo(c.tile_m, p.reg_m), RoundUpTo(m, p.reg_m));
  p.tile_n = std::min(RoundDownTo(c.tile_n, p.reg_n), RoundUpTo(n, p.reg_n));
  p.tile_k = c.tile_k == 0 ? k : std::min(c.tile_k, k);
  return p;
}

// A packed operand: one parallel loop over (batch, block), the block's elements as vectors when
// it holds whole vectors (the weight's columns), else unrolled (the input's rows).
void SchedulePack(Stage& pack, const GemmScheduleConfig& c, bool batched, bool parallel) {
  const auto axes = pack.op()->axis;  // (b,) nb, k, j
  if (AxisExtent(axes.back()) % c.vector_lanes == 0) {
    SplitVectors(pack, axes.back(), c.vector_lanes);
  } else {
    pack.unroll(axes.back());
  }
  FuseOuter(pack, {batched ? axes[0] : ir::IterVar(), axes[batched ? 1 : 0]},
            c.parallel && parallel);
}

// The accumulator stage's axes: rows, and columns as {block of reg_n, column within it}. Packed,
// those are the blocked tensor's own axes (jo, ji); otherwise n is split by reg_n.
struct AccAxes {
  ir::IterVar batch, rows, col_block, col;
};

AccAxes SplitAccColumns(Stage& a, bool packed, int64_t reg_n) {
  const auto axes = a.op()->axis;
  AccAxes r;
  const size_t spatial = packed ? 3 : 2;
  if (axes.size() > spatial) r.batch = axes[0];
  r.rows = axes[axes.size() - spatial];
  if (packed) {
    r.col_block = axes[axes.size() - 2];
    r.col = axes.back();
  } else {
    r.col_block = SplitBy(a, axes.back(), reg_n, &r.col);
  }
  return r;
}

// The k loop as {outer, unrolled inner} (inner undefined when unroll_k is 1).
std::pair<ir::IterVar, ir::IterVar> UnrollK(Stage& a, const ir::IterVar& k, int64_t unroll_k) {
  if (unroll_k <= 1) return {k, ir::IterVar()};
  ir::IterVar ki;
  ir::IterVar ko = SplitBy(a, k, unroll_k, &ki);
  a.unroll(ki);
  return {ko, ki};
}

// The output stage's cache-block loops: (batch,) then the two block loops in the config's order.
struct Blocks {
  std::vector<ir::IterVar> order;  // (batch,) outer, inner: the leading loops of the stage
  bool column_outer = false;       // the outer block loop is the column blocks'
};

Blocks SplitBlocks(Stage& c, const GemmScheduleConfig& config, const GemmPlan& p, bool batched,
                   ir::IterVar* mi, ir::IterVar* ni) {
  const auto axes = c.op()->axis;
  ir::IterVar mo = SplitBy(c, axes[axes.size() - 2], p.tile_m, mi);
  ir::IterVar no = SplitBy(c, axes.back(), p.tile_n, ni);
  Blocks b;
  b.column_outer = config.order == GemmBlockOrder::kNM;
  if (batched) b.order.push_back(axes[0]);
  b.order.push_back(b.column_outer ? no : mo);
  b.order.push_back(b.column_outer ? mo : no);
  return b;
}

// Fuses the block loops into the parallel loop (all of them, or, when the weight is packed per
// column block, the batch and the outer one) and computes the packed weight at its column-block
// loop. Returns the innermost block loop, where one block's computation starts.
ir::IterVar FuseBlocks(schedule::Schedule& s, Stage& c, const GemmScheduleConfig& config,
                       const GemmTensors& t, const Blocks& b) {
  const bool at_block = config.pack_weight_at_block && t.packed_b.defined();
  if (!at_block) return FuseOuter(c, b.order, config.parallel);
  ir::IterVar inner = b.order.back();
  std::vector<ir::IterVar> outer(b.order.begin(), b.order.end() - 1);
  ir::IterVar fused = FuseOuter(c, outer, config.parallel);
  s[t.packed_b].compute_at(c, b.column_outer ? fused : inner);
  return inner;
}

// kRegisterTile: C's loops are blocks / register tiles / the tile's copy-out; the local tile is
// computed at each register tile with k outermost and the tile unrolled inside it.
void ScheduleRegisterTile(schedule::Schedule& s, Stage& c, Stage& a,
                          const GemmScheduleConfig& config, const GemmPlan& p,
                          const GemmTensors& t) {
  const bool packed = t.packed_b.defined();
  ir::IterVar mi, ni, mii, nii;
  Blocks blocks = SplitBlocks(c, config, p, t.batched, &mi, &ni);
  ir::IterVar mio = SplitBy(c, mi, p.reg_m, &mii);
  ir::IterVar nio = SplitBy(c, ni, p.reg_n, &nii);
  // Packed, the copy-out reads blocked[.., n/bn, n%bn], which stays scalar until the simplifier
  // folds a division of a ramp (see the topi README).
  auto [nv, lane] = SplitVectors(c, nii, p.lanes, /*vectorize=*/!packed);
  std::vector<ir::IterVar> order = blocks.order;
  order.insert(order.end(), {mio, nio, mii, nv, lane});
  c.reorder(order);
  c.unroll(mii);
  FuseBlocks(s, c, config, t, blocks);

  a.compute_at(c, nio);
  AccAxes r = SplitAccColumns(a, packed, p.reg_n);
  auto [acc_nv, acc_lane] = SplitVectors(a, r.col, p.lanes);
  auto [ko, ki] = UnrollK(a, a.op()->reduce_axis[0], config.unroll_k);
  Reorder(a, {r.batch, ko, ki, r.rows, r.col_block, acc_nv, acc_lane});
  a.unroll(r.rows);
}

// kCacheBlock: C's loops are blocks and the block's copy-out; the local block is computed at
// each cache block with the k-block loop outside its register tiles.
void ScheduleCacheBlock(schedule::Schedule& s, Stage& c, Stage& a, const GemmScheduleConfig& config,
                        const GemmPlan& p, const GemmTensors& t) {
  const bool packed = t.packed_b.defined();
  ir::IterVar mi, ni;
  Blocks blocks = SplitBlocks(c, config, p, t.batched, &mi, &ni);
  auto [nv, lane] = SplitVectors(c, ni, p.lanes, /*vectorize=*/!packed);
  std::vector<ir::IterVar> order = blocks.order;
  order.insert(order.end(), {mi, nv, lane});
  c.reorder(order);
  ir::IterVar block = FuseBlocks(s, c, config, t, blocks);

  a.compute_at(c, block);
  AccAxes r = SplitAccColumns(a, packed, p.reg_n);
  ir::IterVar rows_in, k_in;
  ir::IterVar rows = SplitBy(a, r.rows, p.reg_m, &rows_in);
  ir::IterVar k_block = SplitBy(a, a.op()->reduce_axis[0], p.tile_k, &k_in);
  auto [acc_nv, acc_lane] = SplitVectors(a, r.col, p.lanes);
  auto [ko, ki] = UnrollK(a, k_in, config.unroll_k);
  Reorder(a, {r.batch, k_block, rows, r.col_block, ko, ki, rows_in, acc_nv, acc_lane});
  a.unroll(rows_in);
}

}  // namespace

std::string GemmScheduleConfig::ToString() const {
  return absl::StrCat(
      "reg ", reg_m, "x", reg_n(), " (", reg_n_vectors, "x", vector_lanes, " lanes), tile ", tile_m,
      "x", tile_n, "x", tile_k, ", unroll_k ", unroll_k,
      order == GemmBlockOrder::kMN ? ", mn" : ", nm",
      accumulator == GemmAccumulator::kRegisterTile ? ", register acc" : ", block acc",
      pack_weight ? (pack_weight_at_block ? ", packed per block" : ", packed") : "",
      pack_input ? ", packed input" : "", parallel ? ", parallel" : "");
}

int64_t BalancedGemmTileM(int64_t m, int64_t reg_m, int64_t column_blocks, int64_t cores) {
  const int64_t tiles = CeilDiv(m, std::max<int64_t>(reg_m, 1));
  int64_t blocks = CeilDiv(tiles, 16);
  // Where the blocks are few, a last round with idle cores costs a large share: take up to
  // twice as many row blocks if that makes the (row, column) blocks a multiple of the cores.
  if (cores > 1 && blocks * std::max<int64_t>(column_blocks, 1) < 8 * cores) {
    for (int64_t b = blocks; b <= std::min(tiles, 2 * blocks); ++b) {
      if (b * std::max<int64_t>(column_blocks, 1) % cores == 0) {
        blocks = b;
        break;
      }
    }
  }
  return CeilDiv(tiles, blocks) * reg_m;
}

GemmScheduleConfig DefaultGemmConfig(int64_t batch, int64_t m, int64_t n, int64_t k,
                                     const CpuInfo& cpu, WeightLayout layout) {
  GemmScheduleConfig c;
  c.vector_lanes = cpu.Lanes(4);
  c.reg_n_vectors = 2;
  c.parallel = cpu.cores > 1;
  const int64_t reg_n = c.reg_n();
  if (m <= 2 && layout == WeightLayout::kKN) {
    // A matrix-vector product is bound by reading B once: stream it row by row (k outermost,
    // 16 rows at a time) into an accumulator row per block of columns, one block per core.
    c.reg_m = c.tile_m = m;
    c.tile_n = std::min<int64_t>(RoundUpTo(CeilDiv(n, std::max(cpu.cores, 1)), reg_n), 2048);
    c.tile_k = std::min<int64_t>(k, 16);
    c.accumulator = GemmAccumulator::kCacheBlock;
    c.pack_weight = false;
    return c;
  }
  // Accumulators, the B vectors of one k step and one broadcast of A must fit the registers;
  // 6 rows x 2 vectors (12 accumulators) cover the FMA latency of two pipes, and more rows
  // only lengthen the tail tile. Measured on an AMD EPYC (see the topi README).
  const int64_t max_rows = (cpu.vector_registers - c.reg_n_vectors - 1) / c.reg_n_vectors;
  c.reg_m = std::clamp<int64_t>(max_rows, 1, 6);
  if (m % c.reg_m != 0 && c.reg_m > 5 && m % 5 == 0) c.reg_m = 5;  // a tile with no tail
  c.reg_m = std::min(c.reg_m, m);
  // A column block of packed B (K x tile_n) stays in L2 while the row tiles stream past it; a
  // block of rows is 16 register tiles.
  const int64_t l2_cols = cpu.l2_bytes / 2 / (4 * std::max<int64_t>(k, 1));
  c.tile_n = std::clamp<int64_t>(l2_cols / reg_n * reg_n, reg_n, 8 * reg_n);
  c.tile_n = std::min(c.tile_n, RoundUpTo(n, reg_n));
  c.tile_m =
      BalancedGemmTileM(m, c.reg_m, CeilDiv(n, c.tile_n) * std::max<int64_t>(batch, 1), cpu.cores);
  // With enough column blocks to keep every core busy, pack each block of B inside the
  // parallel loop, once, just before the row blocks use it (while it is in cache); else pack
  // all of B first and share every block among the cores.
  const int64_t column_blocks = CeilDiv(n, c.tile_n) * std::max<int64_t>(batch, 1);
  if (column_blocks >= 2 * cpu.cores) {
    c.order = GemmBlockOrder::kNM;
    c.pack_weight_at_block = true;
  }
  return c;
}

GemmScheduleConfig DefaultPackedGemmConfig(int64_t m, int64_t n, int64_t k, const CpuInfo& cpu,
                                           int64_t packed_block) {
  GemmScheduleConfig c = DefaultGemmConfig(1, m, n, k, cpu, WeightLayout::kKN);
  c.pack_input = false;
  c.pack_weight_at_block = false;
  c.pack_weight = true;
  c.reg_n_vectors = std::max<int64_t>(1, packed_block / c.vector_lanes);
  c.reg_m = std::min<int64_t>(
      std::clamp<int64_t>((cpu.vector_registers - c.reg_n_vectors - 1) / c.reg_n_vectors, 1, 6), m);
  c.tile_n = std::max(c.tile_n / c.reg_n() * c.reg_n(), c.reg_n());
  c.tile_m = BalancedGemmTileM(m, c.reg_m, CeilDiv(n, c.tile_n), cpu.cores);
  c.tile_k = 0;
  c.accumulator = GemmAccumulator::kRegisterTile;
  c.order = GemmBlockOrder::kMN;
  return c;
}

absl::StatusOr<ScheduledOp> ScheduleGemm(const GemmScheduleConfig& config, const GemmTensors& t,
                                         const te::Tensor& epilogue) {
  if (absl::Status st = Validate(config); !st.ok()) return st;
  if (!t.c.defined()) return absl::InvalidArgumentError("gemm schedule: no output tensor");
  const GemmLayout want = config.Layout();
  if (t.layout.b_block != want.b_block || t.layout.a_block != want.a_block) {
    return absl::FailedPreconditionError(absl::StrCat(
        "schedule of ", t.c.name(), ": the compute was declared with pack blocks (weight ",
        t.layout.b_block, ", input ", t.layout.a_block, ") but the config asks for (", want.b_block,
        ", ", want.a_block, "); declare it with config.Layout()"));
  }
  const GemmPlan plan = Plan(config, t);
  const te::Tensor& out = epilogue.defined() ? epilogue : t.c;
  schedule::Schedule s = schedule::Schedule::Create({out.op()});
  // A weight the kernel packs (not one packed at build time, an input here).
  auto packs = [](const te::Tensor& p) {
    return p.defined() && p.op()->kind == te::OpKind::kCompute;
  };
  if (epilogue.defined()) {
    absl::Status inlined = InlineEpilogue(s, t.c, out, {t.packed_a, t.packed_b}, "gemm");
    if (!inlined.ok()) return inlined;
  }
  // A weight packed per column block is packed inside the (already parallel) block loop.
  if (packs(t.packed_b)) {
    SchedulePack(s[t.packed_b], config, t.batched, !config.pack_weight_at_block);
  }
  if (packs(t.packed_a)) SchedulePack(s[t.packed_a], config, t.batched, true);
  // The accumulator: a local copy of the product, which (packed) replaces the blocked tensor.
  absl::StatusOr<te::Tensor> acc = s.cache_write(t.blocked.defined() ? t.blocked : t.c, "local");
  if (!acc.ok()) return acc.status();
  if (t.blocked.defined()) s[t.blocked].compute_inline();
  // With an epilogue, its stage is tiled in place of the copy-out, which it reads through.
  if (epilogue.defined() && !t.blocked.defined()) s[t.c].compute_inline();
  if (config.accumulator == GemmAccumulator::kRegisterTile) {
    ScheduleRegisterTile(s, s[out], s[*acc], config, plan, t);
  } else {
    ScheduleCacheBlock(s, s[out], s[*acc], config, plan, t);
  }
  if (!s.error().ok()) return s.error();
  // A weight packed at build time is the kernel's argument itself.
  return ScheduledOp{s, {t.a, t.b.defined() ? t.b : t.packed_b, out}};
}

}  // namespace tunefarm::topi

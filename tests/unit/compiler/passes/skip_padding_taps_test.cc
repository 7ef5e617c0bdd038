#include "compiler/passes/skip_padding_taps.h"

#include <functional>
#include <gtest/gtest.h>

#include "compiler/ir/op.h"
#include "compiler/ir/printer.h"
#include "compiler/passes/simplify.h"
#include "tests/unit/compiler/ir_types.h"
#include "tests/unit/compiler/passes/interp_check.h"
#include "tests/unit/compiler/passes/test_kernels.h"

namespace tunefarm::passes {
namespace {

using namespace ir;               // NOLINT: tests build IR by hand.
using namespace passes::testing;  // NOLINT

using ir_fixtures::kF32;

// A 1-D convolution over 8 channels, 4 outputs, window 3, padding 1, as unrolling and
// simplification leave it: every output's accumulation is guarded by whether its input row
// exists, and out[0]'s first tap is a known padded zero.
struct PaddedConv {
  Buffer out{"out", kF32, {4}};
  Buffer data{"data", kF32, {32}};
  Buffer w{"w", kF32, {24}};
  Var y{"y"}, ry{"ry"}, k{"k"};

  Expr Row() const { return y + ry; }
  Expr Guard() const { return 1 <= Row() && Row() < 5; }
  Expr Tap(Expr guard) const {
    return IfThenElse(std::move(guard), FlatLoad(data, (Row() - 1) * 8 + k), FloatImm(kF32, 0));
  }
  Stmt Accumulate(int at, Expr term) const {
    return FlatStore(out, FlatLoad(out, at) + term * FlatLoad(w, ry * 8 + k), at);
  }
  PrimFunc Func(Stmt inner) const {
    return PrimFunc{"conv", {out, data, w}, Loop(y, 4, Loop(ry, 3, Loop(k, 8, std::move(inner))))};
  }
};

std::string Skipped(const PrimFunc& f) {
  absl::StatusOr<PrimFunc> g = SkipPaddingTaps(f);
  EXPECT_TRUE(g.ok()) << g.status();
  return g.ok() ? ToString(g->body) : "";
}

// The pass's output for `f` (simplified first when asked, as the pipeline runs it after
// `simplify`), after checking that it computes what `f` computes.
std::string SkippedAndChecked(const PrimFunc& f, bool simplify_first = false) {
  absl::StatusOr<PrimFunc> input = simplify_first ? Simplify(f) : f;
  EXPECT_TRUE(input.ok()) << input.status();
  if (!input.ok()) return "";
  absl::StatusOr<PrimFunc> g = SkipPaddingTaps(*input);
  EXPECT_TRUE(g.ok()) << g.status();
  if (!g.ok()) return "";
  ExpectSameResults(f, *g);
  return ToString(g->body);
}

// A row of `width` outputs in register tiles of 4 (loop t over [min, min + extent)), window 3,
// padding 1, taps unrolled; `guard_of_x` says which input columns x exist. A `produce` note
// wraps each tile, as schedules leave them.
struct TiledRow {
  int width;
  Buffer out{"out", kF32, {width}};
  Buffer data{"data", kF32, {width}};
  Buffer w{"w", kF32, {3}};
  Var t{"t"};

  PrimFunc Func(const std::function<Expr(Expr)>& guard_of_x, int min, int extent) const {
    std::vector<Stmt> taps;
    for (int col = 0; col < 4; ++col) {
      for (int tap = 0; tap < 3; ++tap) {
        Expr x = t * 4 + (col + tap - 1);
        Expr term =
            IfThenElse(guard_of_x(x), FlatLoad(data, Max(Min(x, width - 1), 0)), FloatImm(kF32, 0));
        Expr at = t * 4 + col;
        taps.push_back(FlatStore(out, FlatLoad(out, at) + term * FlatLoad(w, tap), at));
      }
    }
    return PrimFunc{"row",
                    {out, data, w},
                    ForNode::Make(t, min, extent, ForKind::kSerial, Produce(out, Seq(taps)))};
  }
};

TEST(SkipPaddingTapsTest, DropsZeroProductsAndRunsTheLoopUnderTheSharedGuard) {
  PaddedConv c;
  PrimFunc f = c.Func(Seq({
      c.Accumulate(0, c.Tap(c.Guard())),
      c.Accumulate(1, FloatImm(kF32, 0)),  // a padded column unrolling made constant
      c.Accumulate(2, c.Tap(c.Guard() && c.k < 4)),
  }));
  EXPECT_EQ(
      SkippedAndChecked(f),
      "for (y, 0, 4) {\n"
      "  for (ry, 0, 3) {\n"
      "    if (1 <= y + ry && y + ry < 5) {\n"
      "      for (k, 0, 8) {\n"
      "        out[0] = out[0] + data[(y + ry - 1)*8 + k]*w[ry*8 + k]\n"
      "        out[2] = out[2] + if_then_else(k < 4, data[(y + ry - 1)*8 + k], 0.0f)*w[ry*8 + "
      "k]\n"
      "      }\n"
      "    }\n"
      "  }\n"
      "}\n");
}

TEST(SkipPaddingTapsTest, MergesBranchesOnOneConditionAndHoistsThemOutOfLoopsTheyDoNotUse) {
  PaddedConv c;
  Var x("x");
  // Two channel loops under one kernel row, inside a loop (x) the guard does not use.
  Stmt two_loops = Loop(x, 2,
                        Seq({Loop(c.k, 8, c.Accumulate(0, c.Tap(c.Guard()))),
                             Loop(c.k, 8, c.Accumulate(1, c.Tap(c.Guard())))}));
  PrimFunc f{"conv", {c.out, c.data, c.w}, Loop(c.y, 4, Loop(c.ry, 3, two_loops))};
  EXPECT_EQ(SkippedAndChecked(f),
            "for (y, 0, 4) {\n"
            "  for (ry, 0, 3) {\n"
            "    if (1 <= y + ry && y + ry < 5) {\n"
            "      for (x, 0, 2) {\n"
            "        for (k, 0, 8) {\n"
            "          out[0] = out[0] + data[(y + ry - 1)*8 + k]*w[ry*8 + k]\n"
            "        }\n"
            "        for (k, 0, 8) {\n"
            "          out[1] = out[1] + data[(y + ry - 1)*8 + k]*w[ry*8 + k]\n"
            "        }\n"
            "      }\n"
            "    }\n"
            "  }\n"
            "}\n");
}

// A row of 12 outputs in register tiles of 4: the first tile's first tap and the last tile's
// last tap read padding.
TEST(SkipPaddingTapsTest, PeelsTheBorderTilesOfALoopOverRegisterTiles) {
  TiledRow row{12};
  const std::string text =
      SkippedAndChecked(row.Func([](Expr x) { return 0 <= x && x < 12; }, 0, 3), true);
  EXPECT_EQ(text.find("if_then_else"), std::string::npos) << text;
  // 36 products less the two that read padding.
  size_t products = 0;
  for (size_t at = text.find("*w["); at != std::string::npos; at = text.find("*w[", at + 1)) {
    ++products;
  }
  EXPECT_EQ(products, 11u + 12u + 11u) << text;
}

// Tiles t = 1..3 of a 14-wide row (the first tile is done elsewhere): only the last reads past
// the right border, so only it is peeled, from a loop that does not start at 0. A guard that
// holds on iterations that are not one run peels nothing, and neither does a shared body.
TEST(SkipPaddingTapsTest, PeelsOneEndOfALoopStartingPastZero) {
  TiledRow row{16};
  const std::string text = SkippedAndChecked(row.Func([](Expr x) { return x < 14; }, 1, 3), true);
  EXPECT_EQ(text.find("if_then_else"), std::string::npos) << text;
  EXPECT_NE(text.find("for (t, 1, 2)"), std::string::npos) << text;

  // A body with a shared allocation is not copied (copies would add up in shared memory).
  PrimFunc f = row.Func([](Expr x) { return x < 14; }, 1, 3);
  const auto* loop = f.body.As<ForNode>();
  ASSERT_NE(loop, nullptr);
  Var tile("tile", DataType::Handle());
  PrimFunc shared{"row",
                  {row.out, row.data, row.w},
                  ForNode::Make(row.t, 1, 3, ForKind::kSerial,
                                AllocateNode::Make(tile, kF32, {4}, "shared", loop->body))};
  EXPECT_NE(Skipped(shared).find("for (t, 1, 3)"), std::string::npos);

  PrimFunc odd = row.Func([&](Expr) { return FloorMod(row.t, 2) == 1; }, 1, 3);
  EXPECT_NE(Skipped(odd).find("for (t, 1, 3)"), std::string::npos);
}

// Vector lanes: a broadcast guarded input times a vector of kernel values, stored as a ramp.
TEST(SkipPaddingTapsTest, KeepsVectorAccumulationsWellTyped) {
  Buffer out("out", kF32, {16}), data("data", kF32, {8}), w("w", kF32, {24});
  Var y("y"), ry("ry");
  Expr row = y + ry;
  Expr term = BroadcastNode::Make(
      IfThenElse(1 <= row && row < 5, FlatLoad(data, row - 1), FloatImm(kF32, 0)), 4);
  Expr at = RampNode::Make(y * 4, 1, 4);
  Stmt acc =
      FlatStore(out, FlatLoad(out, at) + FlatLoad(w, RampNode::Make(ry * 4, 1, 4)) * term, at);
  PrimFunc f{"vec", {out, data, w}, Loop(y, 4, Loop(ry, 3, Loop(Var("k"), 2, acc)))};
  const std::string text = SkippedAndChecked(f);
  EXPECT_EQ(text.find("if_then_else"), std::string::npos) << text;
}

TEST(SkipPaddingTapsTest, LeavesGuardsThatCannotMove) {
  PaddedConv c;
  // The guard uses the loop's own variable; the loop holds another statement; the guard reads
  // memory; the loop is bound to GPU threads.
  PrimFunc own = c.Func(c.Accumulate(0, c.Tap(c.k < 4 && c.Row() + c.k < 9)));
  PrimFunc mixed = c.Func(Seq({c.Accumulate(0, c.Tap(c.Guard())), FlatStore(c.w, 1.0f, 0)}));
  PrimFunc reads = c.Func(c.Accumulate(0, c.Tap(FlatLoad(c.data, 0) > 0.0f)));
  Var tx("threadIdx.x");
  Stmt launch = Launch(tx, "threadIdx.x", 8, c.Accumulate(0, c.Tap(c.Guard())));
  PrimFunc threads{"conv", {c.out, c.data, c.w}, Loop(c.y, 4, Loop(c.ry, 3, launch))};
  // Two branches on a value the first one changes stay two branches.
  Stmt flip = IfThenElseNode::Make(FlatLoad(c.w, 0) > 0.0f, FlatStore(c.w, -1.0f, 0));
  PrimFunc rereads{"conv", {c.out, c.data, c.w}, Seq({flip, flip})};
  for (const PrimFunc* f : {&own, &mixed, &reads, &threads, &rereads}) {
    EXPECT_EQ(Skipped(*f), ToString(f->body));
  }
}

}  // namespace
}  // namespace tunefarm::passes

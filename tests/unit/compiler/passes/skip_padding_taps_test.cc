#include "compiler/passes/skip_padding_taps.h"

#include <functional>
#include <gtest/gtest.h>

#include "compiler/ir/op.h"
#include "compiler/ir/printer.h"
#include "compiler/passes/simplify.h"
#include "tests/unit/compiler/passes/interp_check.h"
#include "tests/unit/compiler/passes/test_kernels.h"

namespace tunefarm::passes {
namespace {

using namespace ir;               // NOLINT: tests build IR by hand.
using namespace passes::testing;  // NOLINT

const DataType kF32 = DataType::Float(32);

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

TEST(SkipPaddingTapsTest, DropsZeroProductsAndRunsTheLoopUnderTheSharedGuard) {
  PaddedConv c;
  PrimFunc f = c.Func(Seq({
      c.Accumulate(0, c.Tap(c.Guard())),
      c.Accumulate(1, FloatImm(kF32, 0)),  // a padded column unrolling made constant
      c.Accumulate(2, c.Tap(c.Guard() && c.k < 4)),
  }));
  EXPECT_EQ(
      Skipped(f),
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
  absl::StatusOr<PrimFunc> g = SkipPaddingTaps(f);
  ASSERT_TRUE(g.ok()) << g.status();
  ExpectSameResults(f, *g);
}

TEST(SkipPaddingTapsTest, MergesBranchesOnOneConditionAndHoistsThemOutOfLoopsTheyDoNotUse) {
  PaddedConv c;
  Var x("x");
  // Two channel loops under one kernel row, inside a loop (x) the guard does not use.
  Stmt two_loops = Loop(x, 2,
                        Seq({Loop(c.k, 8, c.Accumulate(0, c.Tap(c.Guard()))),
                             Loop(c.k, 8, c.Accumulate(1, c.Tap(c.Guard())))}));
  PrimFunc f{"conv", {c.out, c.data, c.w}, Loop(c.y, 4, Loop(c.ry, 3, two_loops))};
  EXPECT_EQ(Skipped(f),
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
  absl::StatusOr<PrimFunc> g = SkipPaddingTaps(f);
  ASSERT_TRUE(g.ok()) << g.status();
  ExpectSameResults(f, *g);
}

// A row of 12 outputs in register tiles of 4 (loop t), window 3, padding 1, taps unrolled:
// the first tile's first tap and the last tile's last tap read padding.
TEST(SkipPaddingTapsTest, PeelsTheBorderTilesOfALoopOverRegisterTiles) {
  Buffer out("out", kF32, {12}), data("data", kF32, {12}), w("w", kF32, {3});
  Var t("t");
  std::vector<Stmt> taps;
  for (int col = 0; col < 4; ++col) {
    for (int tap = 0; tap < 3; ++tap) {
      Expr x = t * 4 + (col + tap - 1);
      Expr term = IfThenElse(0 <= x && x < 12, FlatLoad(data, x), FloatImm(kF32, 0));
      Expr at = t * 4 + col;
      taps.push_back(FlatStore(out, FlatLoad(out, at) + term * FlatLoad(w, tap), at));
    }
  }
  PrimFunc f{"row", {out, data, w}, Loop(t, 3, Seq(taps))};
  // What simplification leaves: the guards that still depend on t.
  absl::StatusOr<PrimFunc> simplified = Simplify(f);
  ASSERT_TRUE(simplified.ok()) << simplified.status();
  absl::StatusOr<PrimFunc> g = SkipPaddingTaps(*simplified);
  ASSERT_TRUE(g.ok()) << g.status();
  const std::string text = ToString(g->body);
  EXPECT_EQ(text.find("if_then_else"), std::string::npos) << text;
  // 36 products less the two that read padding.
  size_t products = 0;
  for (size_t at = text.find("*w["); at != std::string::npos; at = text.find("*w[", at + 1)) {
    ++products;
  }
  EXPECT_EQ(products, 11u + 12u + 11u) << text;
  ExpectSameResults(f, *g);
}

// Tiles t = 1..3 of 4 columns (the row's first tile is done elsewhere): only the last reads
// past the right border, so only it is peeled, from a loop that does not start at 0. A guard
// that holds on iterations that are not one run peels nothing.
TEST(SkipPaddingTapsTest, PeelsOneEndOfALoopStartingPastZero) {
  Buffer out("out", kF32, {16}), data("data", kF32, {14}), w("w", kF32, {3});
  Var t("t");
  auto row = [&](const std::function<Expr(Expr)>& guard_of_x) {
    std::vector<Stmt> taps;
    for (int col = 0; col < 4; ++col) {
      for (int tap = 0; tap < 3; ++tap) {
        Expr x = t * 4 + (col + tap - 1);
        Expr at = t * 4 + col;
        Expr term = IfThenElse(guard_of_x(x), FlatLoad(data, Min(x, 13)), FloatImm(kF32, 0));
        taps.push_back(FlatStore(out, FlatLoad(out, at) + term * FlatLoad(w, tap), at));
      }
    }
    // A `produce` note around the tile, as schedules leave them, does not stop peeling.
    return PrimFunc{
        "row", {out, data, w}, ForNode::Make(t, 1, 3, ForKind::kSerial, Produce(out, Seq(taps)))};
  };
  PrimFunc f = row([](Expr x) { return x < 14; });
  absl::StatusOr<PrimFunc> simplified = Simplify(f);
  ASSERT_TRUE(simplified.ok()) << simplified.status();
  absl::StatusOr<PrimFunc> g = SkipPaddingTaps(*simplified);
  ASSERT_TRUE(g.ok()) << g.status();
  const std::string text = ToString(g->body);
  EXPECT_EQ(text.find("if_then_else"), std::string::npos) << text;
  EXPECT_NE(text.find("for (t, 1, 2)"), std::string::npos) << text;
  ExpectSameResults(f, *g);

  // A body with a shared allocation is not copied (copies would add up in shared memory).
  Var tile("tile", DataType::Handle());
  const auto* loop = simplified->body.As<ForNode>();
  ASSERT_NE(loop, nullptr);
  PrimFunc shared{"row",
                  {out, data, w},
                  ForNode::Make(t, 1, 3, ForKind::kSerial,
                                AllocateNode::Make(tile, kF32, {4}, "shared", loop->body))};
  absl::StatusOr<PrimFunc> unpeeled = SkipPaddingTaps(shared);
  ASSERT_TRUE(unpeeled.ok()) << unpeeled.status();
  EXPECT_NE(ToString(unpeeled->body).find("for (t, 1, 3)"), std::string::npos);

  PrimFunc odd = row([&](Expr) { return FloorMod(t, 2) == 1; });
  absl::StatusOr<PrimFunc> kept = SkipPaddingTaps(odd);
  ASSERT_TRUE(kept.ok()) << kept.status();
  EXPECT_NE(ToString(kept->body).find("for (t, 1, 3)"), std::string::npos);
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
  absl::StatusOr<PrimFunc> g = SkipPaddingTaps(f);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(ToString(g->body).find("if_then_else"), std::string::npos) << ToString(g->body);
  ExpectSameResults(f, *g);
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

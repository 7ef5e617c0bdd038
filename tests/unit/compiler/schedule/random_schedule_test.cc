// Randomized equivalence: random legal schedules (split, tile, fuse, reorder, compute_at,
// inline, cache_read/write, vectorize, unroll, parallel) over four computations with symbolic
// and odd extents must compute what the unscheduled definition computes.
#include <algorithm>
#include <cstdlib>
#include <gtest/gtest.h>
#include <iostream>
#include <optional>
#include <random>

#include "compiler/ir/printer.h"
#include "compiler/schedule/schedule.h"
#include "tests/unit/compiler/schedule/reference_check.h"
#include "tests/unit/compiler/schedule/workloads.h"

namespace tunefarm::schedule {
namespace {

constexpr int kSchedulesPerWorkload = 130;
constexpr double kTolerance = 1e-4;

// Builds a random legal schedule for one stage, tracking which leaves have constant extents
// (only those may be vectorized).
class RandomStageScheduler {
 public:
  RandomStageScheduler(Stage& stage, std::mt19937& rng) : stage_(stage), rng_(rng) {
    for (const auto& iv : stage.leaf_iter_vars()) {
      if (ir::AsConstInt(iv->dom.extent)) const_.push_back(iv.get());
    }
  }

  void Apply() {
    int splits = Pick(0, 3);
    for (int n = 0; n < splits; ++n) RandomSplit();
    if (Pick(0, 3) == 0) RandomFuse();
    if (Pick(0, 1) == 0) RandomReorder();
    Annotate();
  }

  const std::vector<ir::IterVar>& leaves() const { return stage_.leaf_iter_vars(); }
  ir::IterVar RandomLeaf() { return leaves()[Pick(0, static_cast<int>(leaves().size()) - 1)]; }

 private:
  int Pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool IsConst(const ir::IterVar& iv) const {
    return std::find(const_.begin(), const_.end(), iv.get()) != const_.end();
  }

  void RandomSplit() {
    ir::IterVar parent = RandomLeaf();
    ir::IterVar outer, inner;
    if (Pick(0, 2) == 0) {
      stage_.split_by_nparts(parent, Pick(1, 4), &outer, &inner);
      if (IsConst(parent)) const_.push_back(inner.get());
      const_.push_back(outer.get());
    } else {
      stage_.split(parent, Pick(1, 6), &outer, &inner);
      const_.push_back(inner.get());
      if (IsConst(parent)) const_.push_back(outer.get());
    }
  }

  void RandomFuse() {
    const auto& l = leaves();
    for (size_t i = 0; i + 1 < l.size(); ++i) {
      if (l[i]->iter_type != l[i + 1]->iter_type) continue;
      ir::IterVar a = l[i], b = l[i + 1], fused;
      stage_.fuse(a, b, &fused);
      if (IsConst(a) && IsConst(b)) const_.push_back(fused.get());
      return;
    }
  }

  void RandomReorder() {
    std::vector<ir::IterVar> order = leaves();
    std::shuffle(order.begin(), order.end(), rng_);
    stage_.reorder(order);
  }

  void Annotate() {
    const auto& l = leaves();
    const ir::IterVar& last = l.back();
    if (last->iter_type == ir::IterVarType::kDataPar && IsConst(last) && Pick(0, 1) == 0) {
      stage_.vectorize(last);
    }
    if (l.size() > 1 && Pick(0, 2) == 0) {
      const ir::IterVar& second = l[l.size() - 2];
      if (IsConst(second)) stage_.unroll(second);
    }
    if (l.front()->iter_type == ir::IterVarType::kDataPar && Pick(0, 2) == 0 && l.size() > 2) {
      stage_.parallel(l.front());
    }
  }

  Stage& stage_;
  std::mt19937& rng_;
  std::vector<const ir::IterVarNode*> const_;
};

// TUNEFARM_TEST_SEED=<n> runs only that seed and prints its loop nest and lowered IR, which is
// how a failing seed is debugged.
std::optional<int> OnlySeed() {
  const char* env = std::getenv("TUNEFARM_TEST_SEED");
  return env ? std::optional<int>(std::atoi(env)) : std::nullopt;
}

void Check(const Schedule& s, const std::vector<te::Tensor>& args, const testing::Bindings& bind,
           int seed) {
  std::optional<int> only = OnlySeed();
  if (only && *only != seed) return;
  ASSERT_TRUE(s.error().ok()) << "seed " << seed << ": " << s.error();
  if (only) {
    auto nest = passes::LowerToLoopNest(s, args, "debug");
    auto lowered = passes::Lower(s, args, "debug");
    if (nest.ok() && lowered.ok()) std::cerr << nest->body << "---- lowered\n" << lowered->body;
  }
  absl::StatusOr<double> err = testing::MaxErrorAgainstReference(s, args, bind, seed);
  ASSERT_TRUE(err.ok()) << "seed " << seed << ": " << err.status();
  ASSERT_LE(*err, kTolerance) << "seed " << seed;
}

TEST(RandomScheduleTest, Matmul) {
  for (int seed = 0; seed < kSchedulesPerWorkload; ++seed) {
    std::mt19937 rng(seed);
    testing::Matmul w;
    Schedule s = Schedule::Create({w.c.op()});
    te::Tensor target = w.c;
    if (rng() % 3 == 0) {
      auto local = s.cache_write(w.c, "local");
      ASSERT_TRUE(local.ok());
      target = *local;
    }
    RandomStageScheduler outer(s[w.c], rng);
    outer.Apply();
    if (!target.same_as(w.c)) {
      RandomStageScheduler(s[target], rng).Apply();
      if (rng() % 2 == 0) s[target].compute_at(s[w.c], outer.RandomLeaf());
    }
    if (rng() % 3 == 0) {
      auto cached = s.cache_read(w.a, rng() % 2 ? "local" : "shared", {target});
      ASSERT_TRUE(cached.ok());
      RandomStageScheduler inner(s[target], rng);
      s[*cached].compute_at(s[target], inner.RandomLeaf());
    }
    int n = 5 + static_cast<int>(rng() % 9);
    Check(s, {w.a, w.b, w.c}, {{w.n.get(), n}}, seed);
  }
}

TEST(RandomScheduleTest, ElementwiseChain) {
  for (int seed = 0; seed < kSchedulesPerWorkload; ++seed) {
    std::mt19937 rng(1000 + seed);
    testing::Chain w;
    Schedule s = Schedule::Create({w.d.op()});
    RandomStageScheduler d(s[w.d], rng);
    d.Apply();
    switch (rng() % 4) {
      case 0:
        s[w.c].compute_inline();
        break;
      case 1:
        s[w.c].compute_at(s[w.d], d.RandomLeaf());
        break;
      default:
        RandomStageScheduler(s[w.c], rng).Apply();
    }
    if (rng() % 2 == 0) s[w.b].compute_inline();
    int m = 2 + static_cast<int>(rng() % 9);
    Check(s, {w.a, w.d}, {{w.m.get(), m}}, seed);
  }
}

TEST(RandomScheduleTest, PaddedConv2d) {
  for (int seed = 0; seed < kSchedulesPerWorkload; ++seed) {
    std::mt19937 rng(2000 + seed);
    testing::Conv2d w;
    Schedule s = Schedule::Create({w.out.op()});
    te::Tensor target = w.out;
    if (rng() % 2 == 0) {
      auto local = s.cache_write(w.out, "local");
      ASSERT_TRUE(local.ok());
      target = *local;
    }
    RandomStageScheduler out(s[w.out], rng);
    out.Apply();
    if (!target.same_as(w.out)) {
      RandomStageScheduler(s[target], rng).Apply();
      if (rng() % 2 == 0) s[target].compute_at(s[w.out], out.RandomLeaf());
    }
    if (rng() % 2 == 0) {
      s[w.pad].compute_inline();
      if (rng() % 2 == 0) {
        auto cached = s.cache_read(w.pad, "shared", {target});
        ASSERT_TRUE(cached.ok());
        RandomStageScheduler tgt(s[target], rng);
        s[*cached].compute_at(s[target], tgt.RandomLeaf());
      }
    } else if (rng() % 2 == 0) {
      RandomStageScheduler tgt(s[target], rng);
      s[w.pad].compute_at(s[target], tgt.RandomLeaf());
    }
    Check(s, {w.data, w.weight, w.out}, {}, seed);
  }
}

TEST(RandomScheduleTest, RowMax) {
  for (int seed = 0; seed < kSchedulesPerWorkload; ++seed) {
    std::mt19937 rng(3000 + seed);
    testing::RowMax w;
    Schedule s = Schedule::Create({w.m.op()});
    RandomStageScheduler(s[w.m], rng).Apply();
    int n = 1 + static_cast<int>(rng() % 12);
    Check(s, {w.a, w.m}, {{w.n.get(), n}}, seed);
  }
}

}  // namespace
}  // namespace tunefarm::schedule

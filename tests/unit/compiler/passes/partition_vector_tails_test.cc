#include "compiler/passes/partition_vector_tails.h"

#include <gtest/gtest.h>

#include "compiler/ir/op.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/visitor.h"
#include "compiler/passes/lower.h"
#include "tests/unit/compiler/schedule/reference_check.h"

namespace tunefarm::passes {
namespace {

// B = A * 2 over n, split by 8 with the inner loop vectorized: the tail case.
struct Doubling {
  ir::Var n = te::var("n");
  te::Tensor a = te::placeholder({n}, ir::DataType::Float(32), "A");
  te::Tensor b = *te::compute(
      {n}, [&](const auto& i) { return a({i[0]}) * 2.0f; }, "B");
  schedule::Schedule s = schedule::Schedule::Create({b.op()});
  Doubling() {
    ir::IterVar o, i;
    s[b].split(b.op()->axis[0], 8, &o, &i).vectorize(i);
  }
};

int CountRamps(const ir::Stmt& s) {
  int ramps = 0;
  ir::PostOrderVisit(s, [&](const ir::Expr& e) { ramps += e.As<ir::RampNode>() != nullptr; });
  return ramps;
}

TEST(PartitionVectorTailsTest, GuardedVectorLoopGetsAVectorFastPath) {
  Doubling w;
  auto f = Lower(w.s, {w.a, w.b}, "f");
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_GT(CountRamps(f->body), 0) << f->body;
  PassOptions no_partition;
  no_partition.disabled_passes = {"partition_vector_tails"};
  auto g = Lower(w.s, {w.a, w.b}, "f", no_partition);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(CountRamps(g->body), 0) << "without the pass the guard keeps the loop scalar";
}

TEST(PartitionVectorTailsTest, MatchesTheDefinitionOnFullAndPartialTiles) {
  for (int n : {64, 67, 5}) {
    Doubling w;
    auto err = ::tunefarm::testing::MaxErrorAgainstReference(w.s, {w.a, w.b}, {{w.n.get(), n}});
    ASSERT_TRUE(err.ok()) << err.status();
    EXPECT_LE(*err, 1e-6) << "n = " << n;
  }
}

TEST(PartitionVectorTailsTest, LeavesGuardsThatAreNotMonotoneAlone) {
  ir::Var v("v"), n("n");
  ir::Var out("out", ir::DataType::Handle());
  ir::Stmt store = ir::StoreNode::Make(out, ir::FloatImm(ir::DataType::Float(32), 1), v);
  // True for large v, false for small: the last lane passing says nothing about the others.
  ir::Stmt loop = ir::ForNode::Make(v, 0, 8, ir::ForKind::kVectorized,
                                    ir::IfThenElseNode::Make(ir::Likely(v > n), store));
  ir::PrimFunc f{"f", {}, loop};
  auto g = PartitionVectorTails(f);
  ASSERT_TRUE(g.ok());
  EXPECT_TRUE(g->body.same_as(loop)) << g->body;
}

}  // namespace
}  // namespace tunefarm::passes

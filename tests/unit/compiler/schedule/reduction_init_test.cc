// The initialisation of a reduction computed at another stage's loop is bounded like its update:
// no guards the update does not need, so its innermost loop vectorizes like the update's.
#include <gtest/gtest.h>

#include "compiler/ir/op.h"
#include "compiler/ir/printer.h"
#include "compiler/passes/lower.h"
#include "compiler/schedule/schedule.h"
#include "tests/unit/compiler/schedule/reference_check.h"

namespace tunefarm::schedule {
namespace {

TEST(ReductionInitTest, CacheWriteAtATileVectorizesTheInitWithoutGuards) {
  te::Tensor a = te::placeholder({64, 64}, ir::DataType::Float(32), "A");
  te::Tensor b = te::placeholder({64, 64}, ir::DataType::Float(32), "B");
  ir::IterVar k = te::reduce_axis({0, 64}, "k");
  te::Tensor c = *te::compute(
      {64, 64},
      [&](const auto& i) {
        return te::sum(a({i[0], k->var}) * b({k->var, i[1]}), {k});
      },
      "C");
  Schedule s = Schedule::Create({c.op()});
  absl::StatusOr<te::Tensor> local = s.cache_write(c, "local");
  ASSERT_TRUE(local.ok()) << local.status();
  ir::IterVar io, jo, ii, ji;
  s[c].tile(c.op()->axis[0], c.op()->axis[1], 4, 8, &io, &jo, &ii, &ji);
  s[c].vectorize(ji);
  s[*local].compute_at(s[c], jo);
  const auto& axis = local->op()->axis;
  s[*local].reorder({local->op()->reduce_axis[0], axis[0], axis[1]});
  s[*local].vectorize(axis[1]);

  absl::StatusOr<ir::PrimFunc> f = passes::Lower(s, {a, b, c}, "mm");
  ASSERT_TRUE(f.ok()) << f.status();
  std::string ir_text = ir::ToString(f->body);
  EXPECT_EQ(ir_text.find("likely"), std::string::npos) << ir_text;
  EXPECT_NE(ir_text.find("C.local[ramp(i.c.init*8, 1, 8)] = x8(0.0f)"), std::string::npos)
      << ir_text;
  absl::StatusOr<double> err = testing::MaxErrorAgainstReference(s, {a, b, c}, {});
  ASSERT_TRUE(err.ok()) << err.status();
  EXPECT_LE(*err, 1e-4);
}

}  // namespace
}  // namespace tunefarm::schedule

#include "compiler/te/flop_count.h"

#include <gtest/gtest.h>

#include "compiler/ir/op.h"
#include "tests/unit/compiler/schedule/workloads.h"

namespace tunefarm::te {
namespace {

TEST(FlopCountTest, MatmulIsTwoFlopsPerMultiplyAdd) {
  testing::Matmul mm;
  ir::VarMap values{{mm.n.get(), ir::Expr(67)}};
  absl::StatusOr<double> flops = CountFlops({mm.c}, values);
  ASSERT_TRUE(flops.ok()) << flops.status();
  EXPECT_DOUBLE_EQ(*flops, 2.0 * 67 * 67 * 67);
}

TEST(FlopCountTest, CountsEveryStageOnceIncludingMathCalls) {
  testing::Chain chain;  // B = A*2 (1), C = B+1 (1), D = exp(C) - B (2) per element
  ir::VarMap values{{chain.m.get(), ir::Expr(5)}};
  absl::StatusOr<double> flops = CountFlops({chain.d, chain.c}, values);
  ASSERT_TRUE(flops.ok()) << flops.status();
  EXPECT_DOUBLE_EQ(*flops, 4.0 * 5 * 13);
}

TEST(FlopCountTest, PaddingSelectIsNotWork) {
  testing::Conv2d conv;  // the pad stage only selects; the conv is a multiply-add per tap
  absl::StatusOr<double> flops = CountFlops({conv.out}, {});
  ASSERT_TRUE(flops.ok()) << flops.status();
  EXPECT_DOUBLE_EQ(*flops, 2.0 * conv.filters * conv.size * conv.size * conv.channels * 9);
}

TEST(FlopCountTest, UnboundExtentIsAnErrorNamingTheStage) {
  testing::Matmul mm;
  absl::StatusOr<double> flops = CountFlops({mm.c}, {});
  ASSERT_FALSE(flops.ok());
  EXPECT_EQ(flops.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(flops.status().message().find("C"), std::string::npos) << flops.status();
  EXPECT_NE(flops.status().message().find("bind"), std::string::npos) << flops.status();
}

}  // namespace
}  // namespace tunefarm::te

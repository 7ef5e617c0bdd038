#include "driver/bindings.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/ir/op.h"

namespace tunefarm::driver {
namespace {

using ::testing::HasSubstr;

TEST(BindingsTest, ParsesNameValuePairs) {
  absl::StatusOr<Bindings> b = ParseBindings("n=67, m = 45,k=-3");
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(*b, (Bindings{{"n", 67}, {"m", 45}, {"k", -3}}));
  EXPECT_TRUE(ParseBindings("")->empty());
  EXPECT_TRUE(ParseBindings("  ")->empty());
}

TEST(BindingsTest, MalformedItemsAreErrors) {
  for (const char* text : {"n", "n=", "=3", "n=3x", "n=3,", "n=1.5", "n=3,,m=2"}) {
    absl::StatusOr<Bindings> b = ParseBindings(text);
    ASSERT_FALSE(b.ok()) << text;
    EXPECT_EQ(b.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(b.status().message()), HasSubstr("malformed --bind item")) << text;
  }
  EXPECT_THAT(std::string(ParseBindings("n=1,n=2").status().message()),
              HasSubstr("--bind gives n twice"));
}

TEST(BindingsTest, ResolvesNamesAndRequiresShapeVariables) {
  ir::Var n("n"), m("m"), unused("q");
  te::Tensor a = te::placeholder({n, m * 2}, ir::DataType::Float(32), "A");
  absl::StatusOr<ir::VarMap> values = ResolveBindings({{"n", 5}, {"m", 3}}, {n, m, unused}, {a});
  ASSERT_TRUE(values.ok()) << values.status();
  absl::StatusOr<std::vector<int64_t>> shape = ConcreteShape(a, *values);
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(*shape, (std::vector<int64_t>{5, 6}));

  absl::StatusOr<ir::VarMap> missing = ResolveBindings({{"n", 5}}, {n, m}, {a});
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(std::string(missing.status().message()),
              HasSubstr("variable m (in the shape of A) needs a value: --bind m=..."));

  absl::StatusOr<ir::VarMap> unknown = ResolveBindings({{"x", 1}}, {n, m}, {a});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(unknown.status().message()),
              HasSubstr("--bind names unknown variable 'x'; the script's variables are: n, m"));
}

TEST(BindingsTest, EvaluatesIndexArithmetic) {
  ir::Var n("n");
  ir::VarMap values{{n.get(), ir::IntImm(ir::DataType::Int(32), 10)}};
  EXPECT_EQ(*EvaluateInt(ir::FloorDiv(n + 3, 4) * 2 - ir::FloorMod(n, 3), values), 5);
  EXPECT_EQ(*EvaluateInt(ir::Max(n, 12) + ir::Min(n, 2), values), 14);
  EXPECT_EQ(*EvaluateInt(ir::FloorDiv(-n, 4), values), -3);
  EXPECT_FALSE(EvaluateInt(ir::Var("free") + 1, values).ok());
  EXPECT_FALSE(EvaluateInt(ir::FloorDiv(n, n - 10), values).ok());
}

TEST(BindingsTest, NegativeShapesAreErrors) {
  ir::Var n("n");
  te::Tensor a = te::placeholder({n - 5}, ir::DataType::Float(32), "A");
  absl::StatusOr<ir::VarMap> values = ResolveBindings({{"n", 2}}, {n}, {a});
  ASSERT_TRUE(values.ok());
  absl::StatusOr<std::vector<int64_t>> shape = ConcreteShape(a, *values);
  ASSERT_FALSE(shape.ok());
  EXPECT_THAT(std::string(shape.status().message()),
              HasSubstr("shape of A dimension 0 (n - 5) is -3"));
}

}  // namespace
}  // namespace tunefarm::driver

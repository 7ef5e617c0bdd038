// The elementwise and broadcasting ops through EvaluateOp against std:: math, on a shape whose
// last axis (7) leaves a vector tail.
#include <algorithm>
#include <functional>

#include "tests/unit/compiler/graph/compute/compute_test_util.h"

namespace tunefarm::graph::testing {
namespace {

const Shape kShape = {2, 3, 5, 7};

void ExpectUnary(OpKind op, Attributes attrs, const std::function<double(double)>& ref,
                 float lo = -4.0f, float hi = 4.0f) {
  runtime::NDArray x = Random(kShape, 1, lo, hi);
  std::vector<runtime::NDArray> out = Eval(op, std::move(attrs), {&x});
  ASSERT_EQ(out.size(), 1u);
  std::vector<float> want(x.NumElements());
  for (size_t i = 0; i < want.size(); ++i) want[i] = static_cast<float>(ref(F(x)[i]));
  EXPECT_TRUE(Close(out[0], kShape, want, 1e-6, 1e-5)) << OpName(op);
}

TEST(ComputeElementwiseTest, UnaryOps) {
  ExpectUnary(OpKind::kRelu, {}, [](double v) { return std::max(v, 0.0); });
  ExpectUnary(
      OpKind::kClip, {{"min", 0.0}, {"max", 6.0}}, [](double v) { return std::clamp(v, 0.0, 6.0); },
      -8, 8);
  ExpectUnary(OpKind::kClip, {{"max", 0.5}}, [](double v) { return std::min(v, 0.5); });
  ExpectUnary(OpKind::kClip, {}, [](double v) { return v; });
  ExpectUnary(OpKind::kSigmoid, {}, [](double v) { return 1 / (1 + std::exp(-v)); });
  ExpectUnary(OpKind::kTanh, {}, [](double v) { return std::tanh(v); });
  ExpectUnary(OpKind::kExp, {}, [](double v) { return std::exp(v); });
  ExpectUnary(OpKind::kIdentity, {}, [](double v) { return v; });
  ExpectUnary(OpKind::kHardSigmoid, {{"alpha", 0.3}, {"beta", 0.4}},
              [](double v) { return std::clamp(0.3 * v + 0.4, 0.0, 1.0); });
  ExpectUnary(
      OpKind::kHardSwish, {}, [](double v) { return v * std::clamp(v / 6 + 0.5, 0.0, 1.0); }, -5,
      5);
}

// numpy broadcasting of a and b into `out`, element by element.
std::vector<float> Broadcast(const runtime::NDArray& a, const runtime::NDArray& b, const Shape& out,
                             const std::function<double(double, double)>& fn) {
  auto at = [&](const runtime::NDArray& t, const Shape& idx) {
    Shape own(t.shape().size());
    for (size_t d = 0; d < own.size(); ++d) {
      int64_t i = idx[idx.size() - own.size() + d];
      own[d] = t.shape()[d] == 1 ? 0 : i;
    }
    return static_cast<double>(F(t)[Flatten(own, t.shape())]);
  };
  std::vector<float> want(Count(out));
  for (int64_t i = 0; i < Count(out); ++i) {
    Shape idx = Unflatten(i, out);
    want[i] = static_cast<float>(fn(at(a, idx), at(b, idx)));
  }
  return want;
}

struct BinaryCase {
  OpKind op;
  Shape a, b, out;
  std::function<double(double, double)> fn;
};

TEST(ComputeElementwiseTest, BinaryOpsBroadcast) {
  const std::vector<BinaryCase> cases = {
      // rank 1 against rank 4: aligned with the last axis
      {OpKind::kAdd, {2, 3, 4, 5}, {5}, {2, 3, 4, 5}, std::plus<double>()},
      {OpKind::kAdd, {3}, {2, 3}, {2, 3}, std::plus<double>()},
      {OpKind::kSub, {2, 1, 4, 1}, {3, 1, 5}, {2, 3, 4, 5}, std::minus<double>()},
      {OpKind::kMul, {1}, {2, 3, 9}, {2, 3, 9}, std::multiplies<double>()},
      {OpKind::kMul, {2, 3, 4, 17}, {2, 3, 4, 17}, {2, 3, 4, 17}, std::multiplies<double>()},
      {OpKind::kDiv, {2, 3, 4, 5}, {3, 1, 1}, {2, 3, 4, 5}, std::divides<double>()},
  };
  for (const BinaryCase& c : cases) {
    runtime::NDArray a = Random(c.a, 2, -2, 2);
    runtime::NDArray b = Random(c.b, 3, 0.5, 2);
    std::vector<runtime::NDArray> out = Eval(c.op, {}, {&a, &b});
    ASSERT_EQ(out.size(), 1u);
    EXPECT_TRUE(Close(out[0], c.out, Broadcast(a, b, c.out, c.fn), 1e-6, 1e-6)) << OpName(c.op);
  }
}

TEST(ComputeElementwiseTest, OneArrayAsBothOperands) {
  runtime::NDArray a = Random({4, 9}, 4);
  std::vector<runtime::NDArray> out = Eval(OpKind::kMul, {}, {&a, &a});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(Close(out[0], {4, 9}, Broadcast(a, a, {4, 9}, std::multiplies<double>())));
}

TEST(ComputeElementwiseTest, BadInputsAreErrorsNamingTheNode) {
  runtime::NDArray a = Random({2, 3}, 5), b = Random({4}, 6);
  Node node{OpKind::kAdd, "add7", {}, {}, {}};
  absl::StatusOr<std::vector<runtime::NDArray>> out = EvaluateOp(node, {&a, &b});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(out.status().message()).find("add node 'add7'"), std::string::npos)
      << out.status();
}

}  // namespace
}  // namespace tunefarm::graph::testing

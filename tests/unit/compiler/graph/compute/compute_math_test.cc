// The math ops (unary by name, pow/maximum/minimum/prelu, reduce) through EvaluateOp against
// std:: math and naive loops, on shapes whose last axis leaves a vector tail.
#include <algorithm>
#include <functional>
#include <gmock/gmock.h>
#include <limits>
#include <numbers>

#include "tests/unit/compiler/graph/compute/compute_test_util.h"

namespace tunefarm::graph::testing {
namespace {

const Shape kMathShape = {2, 3, 5, 7};

void ExpectFn(const char* fn, Attributes extra, const std::function<double(double)>& ref,
              float lo = -4.0f, float hi = 4.0f) {
  runtime::NDArray x = Random(kMathShape, 7, lo, hi);
  Attributes attrs = std::move(extra);
  attrs.Set("fn", std::string(fn));
  std::vector<runtime::NDArray> out = Eval(OpKind::kUnary, attrs, {&x});
  ASSERT_EQ(out.size(), 1u) << fn;
  std::vector<float> want(x.NumElements());
  for (size_t i = 0; i < want.size(); ++i) want[i] = static_cast<float>(ref(F(x)[i]));
  EXPECT_TRUE(Close(out[0], kMathShape, want, 1e-6, 1e-5)) << fn;
}

double Softplus(double v) { return std::log1p(std::exp(v)); }

TEST(ComputeMathTest, UnaryFunctions) {
  ExpectFn("abs", {}, [](double v) { return std::fabs(v); });
  ExpectFn("neg", {}, [](double v) { return -v; });
  ExpectFn("sign", {}, [](double v) { return v > 0 ? 1.0 : v < 0 ? -1.0 : 0.0; });
  ExpectFn("floor", {}, [](double v) { return std::floor(v); });
  ExpectFn("ceil", {}, [](double v) { return std::ceil(v); });
  ExpectFn("round", {}, [](double v) { return std::nearbyint(v); });
  ExpectFn(
      "sqrt", {}, [](double v) { return std::sqrt(v); }, 0.0f, 9.0f);
  ExpectFn(
      "reciprocal", {}, [](double v) { return 1 / v; }, 0.5f, 4.0f);
  ExpectFn(
      "log", {}, [](double v) { return std::log(v); }, 0.01f, 9.0f);
  ExpectFn("erf", {}, [](double v) { return std::erf(v); });
  ExpectFn("softplus", {}, Softplus, -30.0f, 30.0f);
  ExpectFn("softsign", {}, [](double v) { return v / (1 + std::fabs(v)); });
  ExpectFn("elu", {{"alpha", 0.7}}, [](double v) { return v < 0 ? 0.7 * std::expm1(v) : v; });
  ExpectFn("selu", {{"alpha", 1.5}, {"gamma", 1.1}},
           [](double v) { return 1.1 * (v <= 0 ? 1.5 * std::expm1(v) : v); });
  ExpectFn("celu", {{"alpha", 2.0}},
           [](double v) { return std::max(0.0, v) + std::min(0.0, 2.0 * std::expm1(v / 2.0)); });
  ExpectFn("leaky_relu", {{"alpha", 0.1}}, [](double v) { return v < 0 ? 0.1 * v : v; });
  ExpectFn("thresholded_relu", {{"alpha", 1.0}}, [](double v) { return v > 1 ? v : 0.0; });
  ExpectFn("mish", {}, [](double v) { return v * std::tanh(Softplus(v)); });
  ExpectFn("gelu", {}, [](double v) { return 0.5 * v * (1 + std::erf(v / std::numbers::sqrt2)); });
  ExpectFn("gelu_tanh", {}, [](double v) {
    return 0.5 * v * (1 + std::tanh(std::sqrt(2 / std::numbers::pi) * (v + 0.044715 * v * v * v)));
  });
}

TEST(ComputeMathTest, RoundHalvesToEven) {
  runtime::NDArray x = *runtime::NDArray::Empty({6}, {kDLFloat, 32, 1});
  const float in[] = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 2.4f};
  std::copy(std::begin(in), std::end(in), static_cast<float*>(x.data()));
  std::vector<runtime::NDArray> out = Eval(OpKind::kUnary, {{"fn", std::string("round")}}, {&x});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(Close(out[0], {6}, {0, 2, 2, -0.0f, -2, 2}, 0, 0));
}

TEST(ComputeMathTest, UnaryRefusesUnknownFunctionsAndIntegersForFloatOnes) {
  runtime::NDArray x = Random({4}, 1);
  Node unknown{OpKind::kUnary, "u", {{"fn", std::string("frobnicate")}}, {}, {}};
  absl::StatusOr<std::vector<runtime::NDArray>> r = EvaluateOp(unknown, {&x});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()),
              ::testing::HasSubstr("unknown function 'frobnicate'"));
  runtime::NDArray ints = *runtime::NDArray::Empty({4}, {kDLInt, 32, 1});
  Node erf{OpKind::kUnary, "u", {{"fn", std::string("erf")}}, {}, {}};
  r = EvaluateOp(erf, {&ints});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), ::testing::HasSubstr("needs a float input"));
}

TEST(ComputeMathTest, BinaryMathBroadcasts) {
  runtime::NDArray a = Random({2, 3, 4, 5}, 2, 0.5f, 3.0f);
  runtime::NDArray b = Random({3, 1, 5}, 3, -2.0f, 2.0f);
  const Shape out_shape = {2, 3, 4, 5};
  auto expect = [&](OpKind op, const std::function<double(double, double)>& fn) {
    std::vector<runtime::NDArray> out = Eval(op, {}, {&a, &b});
    ASSERT_EQ(out.size(), 1u);
    std::vector<float> want(Count(out_shape));
    for (int64_t i = 0; i < Count(out_shape); ++i) {
      Shape idx = Unflatten(i, out_shape);
      Shape bi = {idx[1], 0, idx[3]};
      want[i] = static_cast<float>(fn(F(a)[i], F(b)[Flatten(bi, b.shape())]));
    }
    EXPECT_TRUE(Close(out[0], out_shape, want, 1e-6, 1e-5)) << OpName(op);
  };
  expect(OpKind::kPow, [](double x, double y) { return std::pow(x, y); });
  expect(OpKind::kMaximum, [](double x, double y) { return std::max(x, y); });
  expect(OpKind::kMinimum, [](double x, double y) { return std::min(x, y); });
}

TEST(ComputeMathTest, PReluSlopePerChannel) {
  runtime::NDArray x = Random({2, 3, 4, 5}, 4, -2.0f, 2.0f);
  runtime::NDArray slope = Random({3, 1, 1}, 5, 0.0f, 0.5f);
  std::vector<runtime::NDArray> out = Eval(OpKind::kPRelu, {}, {&x, &slope});
  ASSERT_EQ(out.size(), 1u);
  std::vector<float> want(x.NumElements());
  for (int64_t i = 0; i < x.NumElements(); ++i) {
    const float v = F(x)[i];
    want[i] = v < 0 ? F(slope)[Unflatten(i, x.shape())[1]] * v : v;
  }
  EXPECT_TRUE(Close(out[0], x.shape(), want, 1e-6, 1e-6));
  // The slope stretches to x, never x to the slope.
  runtime::NDArray wide = Random({2, 3, 4, 5}, 6);
  Node bad{OpKind::kPRelu, "p", {}, {}, {}};
  EXPECT_FALSE(EvaluateOp(bad, {&slope, &wide}).ok());
}

// A naive reduction of x over `axes`, then `finish` on the accumulated value.
std::vector<float> NaiveReduce(const runtime::NDArray& x, const std::vector<int>& axes, double init,
                               const std::function<double(double, double)>& step,
                               const std::function<double(double, int64_t)>& finish,
                               Shape* out_shape) {
  const Shape& s = x.shape();
  Shape kept = s;
  int64_t count = 1;
  for (int a : axes) {
    kept[a] = 1;
    count *= s[a];
  }
  *out_shape = kept;
  std::vector<double> acc(Count(kept), init);
  for (int64_t i = 0; i < x.NumElements(); ++i) {
    Shape idx = Unflatten(i, s);
    for (int a : axes) idx[a] = 0;
    double& slot = acc[Flatten(idx, kept)];
    slot = step(slot, F(x)[i]);
  }
  std::vector<float> out;
  for (double v : acc) out.push_back(static_cast<float>(finish(v, count)));
  return out;
}

TEST(ComputeMathTest, ReductionsOverAxisSets) {
  runtime::NDArray x = Random({3, 4, 5, 6}, 8, 0.1f, 2.0f);
  const auto plus = [](double a, double v) { return a + v; };
  const auto same = [](double a, int64_t) { return a; };
  struct Case {
    const char* fn;
    double init;
    std::function<double(double, double)> step;
    std::function<double(double, int64_t)> finish;
  };
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<Case> cases = {
      {"sum", 0, plus, same},
      {"mean", 0, plus, [](double a, int64_t n) { return a / n; }},
      {"max", -inf, [](double a, double v) { return std::max(a, v); }, same},
      {"min", inf, [](double a, double v) { return std::min(a, v); }, same},
      {"prod", 1, [](double a, double v) { return a * v; }, same},
      {"l1", 0, [](double a, double v) { return a + std::fabs(v); }, same},
      {"l2", 0, [](double a, double v) { return a + v * v; },
       [](double a, int64_t) { return std::sqrt(a); }},
      {"sum_square", 0, [](double a, double v) { return a + v * v; }, same},
      {"log_sum", 0, plus, [](double a, int64_t) { return std::log(a); }},
      {"log_sum_exp", 0, [](double a, double v) { return a + std::exp(v); },
       [](double a, int64_t) { return std::log(a); }},
  };
  for (const std::vector<int>& axes : std::vector<std::vector<int>>{{3}, {1}, {0, 2}, {1, 2, 3}}) {
    for (const Case& c : cases) {
      Shape kept;
      std::vector<float> want = NaiveReduce(x, axes, c.init, c.step, c.finish, &kept);
      std::vector<int64_t> attr_axes(axes.begin(), axes.end());
      std::vector<runtime::NDArray> out =
          Eval(OpKind::kReduce, {{"fn", std::string(c.fn)}, {"axes", attr_axes}}, {&x});
      ASSERT_EQ(out.size(), 1u);
      // prod of up to 120 values in [0.1, 2) spans many magnitudes: relative error only.
      EXPECT_TRUE(Close(out[0], kept, want, 1e-5, 2e-5)) << c.fn << " over " << axes.size();
    }
  }
}

TEST(ComputeMathTest, ReduceDropsAxesAndDefaultsToAll) {
  runtime::NDArray x = Random({2, 3, 4}, 9);
  std::vector<runtime::NDArray> out = Eval(
      OpKind::kReduce,
      {{"fn", std::string("sum")}, {"axes", std::vector<int64_t>{-1}}, {"keep_dims", int64_t{0}}},
      {&x});
  ASSERT_EQ(out.size(), 1u);
  std::vector<float> want(6, 0.0f);
  for (int64_t i = 0; i < 24; ++i) want[i / 4] += F(x)[i];
  EXPECT_TRUE(Close(out[0], {2, 3}, want, 1e-5, 1e-5));
  out = Eval(OpKind::kReduce, {{"fn", std::string("max")}}, {&x});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(Close(out[0], {1, 1, 1}, {*std::max_element(F(x), F(x) + 24)}, 0, 0));
}

TEST(ComputeMathTest, LogSumExpDoesNotOverflow) {
  runtime::NDArray x = Random({2, 8}, 10, 100.0f, 101.0f);
  std::vector<runtime::NDArray> out =
      Eval(OpKind::kReduce, {{"fn", std::string("log_sum_exp")}, {"axes", std::vector<int64_t>{1}}},
           {&x});
  ASSERT_EQ(out.size(), 1u);
  std::vector<float> want;
  for (int r = 0; r < 2; ++r) {
    double m = *std::max_element(F(x) + 8 * r, F(x) + 8 * r + 8), s = 0;
    for (int k = 0; k < 8; ++k) s += std::exp(F(x)[8 * r + k] - m);
    want.push_back(static_cast<float>(m + std::log(s)));
  }
  EXPECT_TRUE(Close(out[0], {2, 1}, want, 1e-5, 1e-6));
}

TEST(ComputeMathTest, CompareWhereAndCastAgreeWithScalarCode) {
  runtime::NDArray a = Random({2, 3, 5}, 11, -2.0f, 2.0f);
  runtime::NDArray b = Random({3, 1}, 12, -2.0f, 2.0f);
  std::vector<runtime::NDArray> less =
      Eval(OpKind::kCompare, {{"fn", std::string("less")}}, {&a, &b});
  ASSERT_EQ(less.size(), 1u);
  ASSERT_EQ(less[0].shape(), (Shape{2, 3, 5}));
  // where(a < b, a, b) is min(a, b); cast of the mask to float is 1 or 0.
  std::vector<runtime::NDArray> picked = Eval(OpKind::kWhere, {}, {&less[0], &a, &b});
  std::vector<runtime::NDArray> mask =
      Eval(OpKind::kCast, {{"to", std::string("float32")}}, {&less[0]});
  ASSERT_EQ(picked.size(), 1u);
  ASSERT_EQ(mask.size(), 1u);
  std::vector<float> want_min(30), want_mask(30);
  for (int64_t i = 0; i < 30; ++i) {
    const float bv = F(b)[Unflatten(i, {2, 3, 5})[1]];
    want_min[i] = std::min(F(a)[i], bv);
    want_mask[i] = F(a)[i] < bv ? 1.0f : 0.0f;
  }
  EXPECT_TRUE(Close(picked[0], {2, 3, 5}, want_min, 0, 0));
  EXPECT_TRUE(Close(mask[0], {2, 3, 5}, want_mask, 0, 0));
  // A float cast to int32 truncates toward zero.
  std::vector<runtime::NDArray> ints = Eval(OpKind::kCast, {{"to", std::string("int32")}}, {&a});
  ASSERT_EQ(ints.size(), 1u);
  for (int64_t i = 0; i < 30; ++i) {
    EXPECT_EQ(static_cast<const int32_t*>(ints[0].data())[i], static_cast<int32_t>(F(a)[i]));
  }
}

// An int32 array of `values`, shaped [values.size()].
runtime::NDArray Int32s(const std::vector<int32_t>& values) {
  absl::StatusOr<runtime::NDArray> a =
      runtime::NDArray::Empty({static_cast<int64_t>(values.size())}, DLDataType{kDLInt, 32, 1});
  EXPECT_TRUE(a.ok());
  std::copy(values.begin(), values.end(), static_cast<int32_t*>(a->data()));
  return *std::move(a);
}

TEST(ComputeMathTest, ModTakesTheDivisorsSignOrWithFmodTheDividends) {
  const runtime::NDArray a = Int32s({-4, 7, 5, 4, -7, 8, 0, -9});
  const runtime::NDArray b = Int32s({2, -3, 8, -2, 3, 5, 3, -4});
  for (int64_t fmod : {0, 1}) {
    std::vector<runtime::NDArray> out = Eval(OpKind::kMod, {{"fmod", fmod}}, {&a, &b});
    ASSERT_EQ(out.size(), 1u);
    for (int i = 0; i < 8; ++i) {
      const int32_t x = static_cast<const int32_t*>(a.data())[i];
      const int32_t y = static_cast<const int32_t*>(b.data())[i];
      int32_t want = x % y;                                            // C: the dividend's sign
      if (fmod == 0 && want != 0 && (want < 0) != (y < 0)) want += y;  // Python: the divisor's
      EXPECT_EQ(static_cast<const int32_t*>(out[0].data())[i], want)
          << x << " mod " << y << " fmod " << fmod;
    }
  }
  // Floats: C's fmod, the only float remainder ONNX defines (fmod 1), broadcast.
  runtime::NDArray x = Random({2, 3, 5}, 11, -9.0f, 9.0f);
  runtime::NDArray y = Random({3, 1}, 12, 0.5f, 3.0f);
  std::vector<runtime::NDArray> out = Eval(OpKind::kMod, {{"fmod", int64_t{1}}}, {&x, &y});
  ASSERT_EQ(out.size(), 1u);
  std::vector<float> want(30);
  for (int64_t i = 0; i < 30; ++i) want[i] = std::fmod(F(x)[i], F(y)[Unflatten(i, {2, 3, 5})[1]]);
  EXPECT_TRUE(Close(out[0], {2, 3, 5}, want, 0, 1e-6));
  Node float_floor{OpKind::kMod, "m", {}, {}, {}};
  absl::StatusOr<std::vector<runtime::NDArray>> refused = EvaluateOp(float_floor, {&x, &y});
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.status().message(), ::testing::HasSubstr("needs fmod 1"));
  Node bad_flag{OpKind::kMod, "m", {}, {}, {}};
  bad_flag.attrs.Set("fmod", int64_t{2});
  EXPECT_FALSE(EvaluateOp(bad_flag, {&a, &b}).ok());
}

TEST(ComputeMathTest, TriluKeepsOneSideOfTheKthDiagonalOfEachMatrix) {
  const runtime::NDArray x = Random({2, 3, 5}, 21);
  for (int64_t upper : {0, 1}) {
    for (int64_t k : {-4, -1, 0, 2, 6}) {
      std::vector<runtime::NDArray> out = Eval(OpKind::kTrilu, {{"upper", upper}, {"k", k}}, {&x});
      ASSERT_EQ(out.size(), 1u);
      std::vector<float> want(30);
      for (int64_t e = 0; e < 30; ++e) {
        const Shape idx = Unflatten(e, {2, 3, 5});
        const int64_t d = idx[2] - idx[1];
        want[e] = (upper != 0 ? d >= k : d <= k) ? F(x)[e] : 0.0f;
      }
      EXPECT_TRUE(Close(out[0], {2, 3, 5}, want, 0, 0)) << "upper " << upper << " k " << k;
    }
  }
  const runtime::NDArray vector = Random({5}, 22);
  Node flat{OpKind::kTrilu, "t", {}, {}, {}};
  EXPECT_FALSE(EvaluateOp(flat, {&vector}).ok()) << "a vector has no diagonal";
}

}  // namespace
}  // namespace tunefarm::graph::testing

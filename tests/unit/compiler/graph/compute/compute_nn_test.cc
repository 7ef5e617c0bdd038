// conv2d (groups, dilation, asymmetric padding, depthwise), gemm, matmul, batch_norm, the pools
// (ceil_mode, count_include_pad), softmax and lrn through EvaluateOp against naive loops in
// double.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

#include "tests/unit/compiler/graph/compute/compute_test_util.h"

namespace tunefarm::graph::testing {
namespace {

struct ConvCase {
  Shape x, w;
  int64_t groups;
  Shape strides, pads, dilations;  // pads: top, left, bottom, right
  bool bias;
};

// Output extent of op_list.h's window formula (floor, or ceil less a window in the end padding).
int64_t WindowOut(int64_t in, int64_t k, int64_t s, int64_t d, int64_t lo, int64_t hi, bool ceil) {
  int64_t span = in + lo + hi - (k - 1) * d - 1;
  int64_t n = (ceil ? (span + s - 1) / s : span / s) + 1;
  if (ceil && (n - 1) * s >= in + lo) --n;
  return n;
}

Shape ConvOutShape(const ConvCase& c) {
  int64_t oh = WindowOut(c.x[2], c.w[2], c.strides[0], c.dilations[0], c.pads[0], c.pads[2], false);
  int64_t ow = WindowOut(c.x[3], c.w[3], c.strides[1], c.dilations[1], c.pads[1], c.pads[3], false);
  return {c.x[0], c.w[0], oh, ow};
}

// The output element at index `o` (of ConvOutShape), in double.
double NaiveConvAt(const runtime::NDArray& x, const runtime::NDArray& w, const runtime::NDArray* b,
                   const ConvCase& c, const Shape& o) {
  const Shape& xs = c.x;
  const Shape& ws = c.w;
  const int64_t cg = xs[1] / c.groups, og = ws[0] / c.groups;
  double acc = b ? F(*b)[o[1]] : 0.0;
  for (int64_t ci = 0; ci < cg; ++ci) {
    for (int64_t ky = 0; ky < ws[2]; ++ky) {
      for (int64_t kx = 0; kx < ws[3]; ++kx) {
        int64_t y = o[2] * c.strides[0] - c.pads[0] + ky * c.dilations[0];
        int64_t xx = o[3] * c.strides[1] - c.pads[1] + kx * c.dilations[1];
        if (y < 0 || y >= xs[2] || xx < 0 || xx >= xs[3]) continue;
        int64_t channel = o[1] / og * cg + ci;
        acc += static_cast<double>(F(x)[Flatten({o[0], channel, y, xx}, xs)]) *
               F(w)[Flatten({o[1], ci, ky, kx}, ws)];
      }
    }
  }
  return acc;
}

std::vector<float> NaiveConv(const runtime::NDArray& x, const runtime::NDArray& w,
                             const runtime::NDArray* b, const ConvCase& c, Shape* out_shape) {
  *out_shape = ConvOutShape(c);
  std::vector<float> out(Count(*out_shape));
  for (int64_t i = 0; i < Count(*out_shape); ++i) {
    out[i] = static_cast<float>(NaiveConvAt(x, w, b, c, Unflatten(i, *out_shape)));
  }
  return out;
}

TEST(ComputeNnTest, Conv2d) {
  const std::vector<ConvCase> cases = {
      {{1, 3, 9, 11}, {5, 3, 3, 3}, 1, {1, 1}, {1, 1, 1, 1}, {1, 1}, true},
      // groups 2, dilation 2, stride 2 and asymmetric padding
      {{2, 4, 13, 10}, {6, 2, 3, 3}, 2, {2, 2}, {1, 2, 2, 1}, {2, 2}, true},
      {{1, 6, 8, 8}, {6, 2, 2, 3}, 3, {1, 2}, {0, 1, 0, 1}, {1, 1}, false},
      // depthwise: groups == channels, multiplier 1 and 2
      {{1, 5, 12, 9}, {5, 1, 3, 3}, 5, {1, 1}, {1, 1, 1, 1}, {1, 1}, true},
      {{2, 3, 7, 7}, {6, 1, 3, 3}, 3, {2, 2}, {1, 0, 1, 0}, {2, 1}, false},
  };
  for (const ConvCase& c : cases) {
    runtime::NDArray x = Random(c.x, 10), w = Random(c.w, 11), b = Random({c.w[0]}, 12);
    Attributes attrs{
        {"groups", c.groups}, {"strides", c.strides}, {"pads", c.pads}, {"dilations", c.dilations}};
    std::vector<const runtime::NDArray*> inputs = {&x, &w};
    if (c.bias) inputs.push_back(&b);
    std::vector<runtime::NDArray> out = Eval(OpKind::kConv2d, attrs, inputs);
    ASSERT_EQ(out.size(), 1u);
    Shape shape;
    std::vector<float> want = NaiveConv(x, w, c.bias ? &b : nullptr, c, &shape);
    EXPECT_TRUE(Close(out[0], shape, want, 1e-5, 1e-4)) << "groups " << c.groups;
  }
}

// The JIT evaluation of a ResNet-sized conv: printed, never asserted (timing lives in bench/).
TEST(ComputeNnTest, LargeConvEvaluatesThroughTheJit) {
  const ConvCase c{{1, 64, 56, 56}, {64, 64, 3, 3}, 1, {1, 1}, {1, 1, 1, 1}, {1, 1}, true};
  runtime::NDArray x = Random(c.x, 20), w = Random(c.w, 21, -0.1f, 0.1f), b = Random({64}, 22);
  Attributes attrs{{"strides", c.strides}, {"pads", c.pads}};
  auto start = std::chrono::steady_clock::now();
  std::vector<runtime::NDArray> out = Eval(OpKind::kConv2d, attrs, {&x, &w, &b});
  double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::printf("conv2d 1x64x56x56, 64x64x3x3, bias: EvaluateOp %.1f ms (build and run)\n", ms);
  ASSERT_EQ(out.size(), 1u);
  const Shape shape = ConvOutShape(c);
  ASSERT_EQ(out[0].shape(), shape);
  // Every 97th element (a prime stride: every channel, row and column, borders included) against
  // the naive loop: the whole reference took 5 s here and 37 s under ASan, for nothing a sample
  // of 2,000 elements misses.
  int checked = 0;
  for (int64_t i = 0; i < Count(shape); i += 97, ++checked) {
    const double want = NaiveConvAt(x, w, &b, c, Unflatten(i, shape));
    ASSERT_NEAR(F(out[0])[i], want, 1e-4 + 1e-4 * std::abs(want)) << "element " << i;
  }
  EXPECT_GT(checked, 2000);
}

std::vector<float> NaiveGemm(const runtime::NDArray& a, const runtime::NDArray& b,
                             const runtime::NDArray* c, bool ta, bool tb, double alpha, double beta,
                             int64_t m, int64_t n, int64_t k) {
  std::vector<float> out(m * n);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double acc = 0;
      for (int64_t r = 0; r < k; ++r) {
        acc += static_cast<double>(F(a)[ta ? r * m + i : i * k + r]) *
               F(b)[tb ? j * k + r : r * n + j];
      }
      double bias = 0;
      if (c) {
        const Shape& cs = c->shape();
        Shape idx = {i, j};
        Shape own;
        for (size_t d = 0; d < cs.size(); ++d) {
          own.push_back(cs[d] == 1 ? 0 : idx[2 - cs.size() + d]);
        }
        bias = F(*c)[Flatten(own, cs)];
      }
      out[i * n + j] = static_cast<float>(alpha * acc + beta * bias);
    }
  }
  return out;
}

TEST(ComputeNnTest, GemmTransposesAndBias) {
  const int64_t m = 5, n = 7, k = 11;
  struct Case {
    bool ta, tb;
    double alpha, beta;
    Shape c;  // empty: no c
  };
  const std::vector<Case> cases = {{false, false, 1, 1, {}},      {true, false, 0.5, 2, {n}},
                                   {false, true, 1, 1, {m, 1}},   {true, true, 0.25, 0.5, {m, n}},
                                   {false, false, 2, -1, {1, 1}}, {false, true, 1, 1, {1}}};
  for (const Case& c : cases) {
    runtime::NDArray a = Random(c.ta ? Shape{k, m} : Shape{m, k}, 30);
    runtime::NDArray b = Random(c.tb ? Shape{n, k} : Shape{k, n}, 31);
    runtime::NDArray bias = Random(c.c.empty() ? Shape{1} : c.c, 32);
    Attributes attrs{{"trans_a", int64_t{c.ta}},
                     {"trans_b", int64_t{c.tb}},
                     {"alpha", c.alpha},
                     {"beta", c.beta}};
    std::vector<const runtime::NDArray*> inputs = {&a, &b};
    if (!c.c.empty()) inputs.push_back(&bias);
    std::vector<runtime::NDArray> out = Eval(OpKind::kGemm, attrs, inputs);
    ASSERT_EQ(out.size(), 1u);
    std::vector<float> want =
        NaiveGemm(a, b, c.c.empty() ? nullptr : &bias, c.ta, c.tb, c.alpha, c.beta, m, n, k);
    EXPECT_TRUE(Close(out[0], {m, n}, want, 1e-5, 1e-5)) << "trans " << c.ta << c.tb;
  }
}

TEST(ComputeNnTest, MatMulBroadcastsBatchesAndPromotesVectors) {
  struct Case {
    Shape a, b, out;
  };
  const std::vector<Case> cases = {{{4, 6}, {6, 3}, {4, 3}},
                                   {{2, 1, 3, 4}, {3, 4, 5}, {2, 3, 3, 5}},
                                   {{4}, {2, 4, 3}, {2, 3}},
                                   {{2, 3, 4}, {4}, {2, 3}},
                                   {{5}, {5}, {}}};
  for (const Case& c : cases) {
    runtime::NDArray a = Random(c.a, 40), b = Random(c.b, 41);
    std::vector<runtime::NDArray> out = Eval(OpKind::kMatMul, {}, {&a, &b});
    ASSERT_EQ(out.size(), 1u);
    // Reference: promote, broadcast the batch, multiply, squeeze.
    Shape am = c.a, bm = c.b;
    if (am.size() == 1) am.insert(am.begin(), 1);
    if (bm.size() == 1) bm.push_back(1);
    const int64_t m = am[am.size() - 2], k = am.back(), n = bm.back();
    Shape batch(std::max(am.size(), bm.size()) - 2);
    for (size_t d = 0; d < batch.size(); ++d) {
      int64_t da = d + am.size() - 2 >= batch.size() ? am[d + am.size() - 2 - batch.size()] : 1;
      int64_t db = d + bm.size() - 2 >= batch.size() ? bm[d + bm.size() - 2 - batch.size()] : 1;
      batch[d] = std::max(da, db);
    }
    std::vector<float> want;
    for (int64_t bi = 0; bi < Count(batch); ++bi) {
      Shape idx = Unflatten(bi, batch);
      auto base = [&](const Shape& s) {
        Shape own;
        for (size_t d = 0; d + 2 < s.size(); ++d) {
          own.push_back(s[d] == 1 ? 0 : idx[idx.size() - (s.size() - 2) + d]);
        }
        own.push_back(0);
        own.push_back(0);
        return Flatten(own, s);
      };
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          double acc = 0;
          for (int64_t r = 0; r < k; ++r) {
            acc += static_cast<double>(F(a)[base(am) + i * k + r]) * F(b)[base(bm) + r * n + j];
          }
          want.push_back(static_cast<float>(acc));
        }
      }
    }
    EXPECT_TRUE(Close(out[0], c.out, want, 1e-5, 1e-5));
  }
}

TEST(ComputeNnTest, BatchNormInference) {
  const Shape xs = {2, 3, 4, 5};
  runtime::NDArray x = Random(xs, 50, -3, 3), scale = Random({3}, 51), bias = Random({3}, 52);
  runtime::NDArray mean = Random({3}, 53), var = Random({3}, 54, 0.1f, 2.0f);
  std::vector<runtime::NDArray> out =
      Eval(OpKind::kBatchNorm, {{"epsilon", 1e-3}}, {&x, &scale, &bias, &mean, &var});
  ASSERT_EQ(out.size(), 1u);
  std::vector<float> want(Count(xs));
  for (int64_t i = 0; i < Count(xs); ++i) {
    int64_t c = Unflatten(i, xs)[1];
    want[i] = static_cast<float>(
        (F(x)[i] - F(mean)[c]) / std::sqrt(F(var)[c] + 1e-3) * F(scale)[c] + F(bias)[c]);
  }
  EXPECT_TRUE(Close(out[0], xs, want, 1e-5, 1e-5));
}

struct PoolCase {
  bool is_max;
  Shape x, kernel, strides, pads, dilations;
  bool ceil, count_pad;
};

std::vector<float> NaivePool(const runtime::NDArray& x, const PoolCase& c, Shape* out_shape) {
  const Shape& xs = c.x;
  int64_t oh =
      WindowOut(xs[2], c.kernel[0], c.strides[0], c.dilations[0], c.pads[0], c.pads[2], c.ceil);
  int64_t ow =
      WindowOut(xs[3], c.kernel[1], c.strides[1], c.dilations[1], c.pads[1], c.pads[3], c.ceil);
  *out_shape = {xs[0], xs[1], oh, ow};
  std::vector<float> out(Count(*out_shape));
  for (int64_t i = 0; i < Count(*out_shape); ++i) {
    Shape o = Unflatten(i, *out_shape);
    double best = -std::numeric_limits<double>::infinity(), sum = 0;
    int64_t valid = 0, padded = 0;
    for (int64_t ky = 0; ky < c.kernel[0]; ++ky) {
      for (int64_t kx = 0; kx < c.kernel[1]; ++kx) {
        int64_t y = o[2] * c.strides[0] - c.pads[0] + ky * c.dilations[0];
        int64_t xx = o[3] * c.strides[1] - c.pads[1] + kx * c.dilations[1];
        // Taps in the explicit padding count with count_include_pad; past it (ceil mode) never.
        if (y < xs[2] + c.pads[2] && xx < xs[3] + c.pads[3]) ++padded;
        if (y < 0 || y >= xs[2] || xx < 0 || xx >= xs[3]) continue;
        double v = F(x)[Flatten({o[0], o[1], y, xx}, xs)];
        best = std::max(best, v);
        sum += v;
        ++valid;
      }
    }
    out[i] = static_cast<float>(c.is_max ? best : sum / (c.count_pad ? padded : valid));
  }
  return out;
}

TEST(ComputeNnTest, Pools) {
  const std::vector<PoolCase> cases = {
      {true, {1, 2, 5, 5}, {3, 3}, {2, 2}, {0, 0, 0, 0}, {1, 1}, true, false},
      {true, {2, 3, 9, 8}, {3, 2}, {2, 2}, {1, 1, 1, 0}, {1, 1}, false, false},
      {true, {1, 2, 10, 10}, {2, 2}, {3, 3}, {1, 1, 0, 0}, {2, 2}, true, false},
      {false, {1, 2, 5, 5}, {3, 3}, {2, 2}, {0, 0, 0, 0}, {1, 1}, true, false},
      {false, {2, 3, 7, 6}, {3, 3}, {1, 2}, {1, 1, 1, 1}, {1, 1}, false, false},
      {false, {2, 3, 7, 6}, {3, 3}, {1, 2}, {1, 1, 1, 1}, {1, 1}, false, true},
      {false, {1, 2, 6, 6}, {3, 3}, {2, 2}, {1, 1, 1, 1}, {1, 1}, true, true},
      {false, {1, 2, 6, 7}, {2, 3}, {2, 2}, {0, 1, 1, 0}, {1, 1}, true, false},
  };
  for (const PoolCase& c : cases) {
    runtime::NDArray x = Random(c.x, 60);
    Attributes attrs{{"kernel", c.kernel},
                     {"strides", c.strides},
                     {"pads", c.pads},
                     {"ceil_mode", int64_t{c.ceil}}};
    if (c.is_max) {
      attrs.Set("dilations", c.dilations);
    } else {
      attrs.Set("count_include_pad", int64_t{c.count_pad});
    }
    std::vector<runtime::NDArray> out =
        Eval(c.is_max ? OpKind::kMaxPool2d : OpKind::kAvgPool2d, attrs, {&x});
    ASSERT_EQ(out.size(), 1u);
    Shape shape;
    std::vector<float> want = NaivePool(x, c, &shape);
    EXPECT_TRUE(Close(out[0], shape, want, 1e-6, 1e-5))
        << (c.is_max ? "max" : "avg") << " ceil " << c.ceil << " count_pad " << c.count_pad;
  }
}

TEST(ComputeNnTest, GlobalPools) {
  const Shape xs = {2, 3, 5, 7};
  runtime::NDArray x = Random(xs, 70);
  std::vector<float> avg(6), mx(6, -std::numeric_limits<float>::infinity());
  for (int64_t i = 0; i < Count(xs); ++i) {
    avg[i / 35] += F(x)[i] / 35.0f;
    mx[i / 35] = std::max(mx[i / 35], F(x)[i]);
  }
  std::vector<runtime::NDArray> a = Eval(OpKind::kGlobalAvgPool2d, {}, {&x});
  std::vector<runtime::NDArray> m = Eval(OpKind::kGlobalMaxPool2d, {}, {&x});
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_TRUE(Close(a[0], {2, 3, 1, 1}, avg, 1e-6, 1e-5));
  EXPECT_TRUE(Close(m[0], {2, 3, 1, 1}, mx, 0, 0));
}

// softmax (or log softmax) of x over axis `a`, in double.
std::vector<float> NaiveSoftmax(const runtime::NDArray& x, int a, bool log) {
  const Shape& xs = x.shape();
  std::vector<float> want(Count(xs));
  const int64_t stride = Strides(xs)[a];
  for (int64_t i = 0; i < Count(xs); ++i) {
    Shape idx = Unflatten(i, xs);
    int64_t first = i - idx[a] * stride;
    double mx = -1e30, sum = 0;
    for (int64_t k = 0; k < xs[a]; ++k) mx = std::max<double>(mx, F(x)[first + k * stride]);
    for (int64_t k = 0; k < xs[a]; ++k) sum += std::exp(F(x)[first + k * stride] - mx);
    want[i] = static_cast<float>(log ? F(x)[i] - mx - std::log(sum) : std::exp(F(x)[i] - mx) / sum);
  }
  return want;
}

TEST(ComputeNnTest, SoftmaxOverOneAxis) {
  const Shape xs = {2, 5, 3, 4};
  runtime::NDArray x = Random(xs, 80, -5, 5);
  for (int64_t axis : {1, -1, 0, 2}) {
    const int a = static_cast<int>(axis < 0 ? axis + 4 : axis);
    std::vector<runtime::NDArray> out = Eval(OpKind::kSoftmax, {{"axis", axis}}, {&x});
    ASSERT_EQ(out.size(), 1u);
    EXPECT_TRUE(Close(out[0], xs, NaiveSoftmax(x, a, false), 1e-6, 1e-5)) << "axis " << axis;
  }
}

TEST(ComputeNnTest, LogSoftmaxStaysFiniteWhereSoftmaxUnderflows) {
  const Shape xs = {3, 6};
  runtime::NDArray x = Random(xs, 81, -60, 60);
  for (int64_t axis : {-1, 0}) {
    const int a = static_cast<int>(axis < 0 ? axis + 2 : axis);
    std::vector<runtime::NDArray> out = Eval(OpKind::kLogSoftmax, {{"axis", axis}}, {&x});
    ASSERT_EQ(out.size(), 1u);
    EXPECT_TRUE(Close(out[0], xs, NaiveSoftmax(x, a, true), 1e-5, 1e-5)) << "axis " << axis;
  }
}

TEST(ComputeNnTest, HardmaxMarksTheFirstMaximum) {
  runtime::NDArray x = *runtime::NDArray::Empty({2, 4}, {kDLFloat, 32, 1});
  const float in[] = {1, 3, 3, 2, -1, -5, -1, -2};  // ties: the first one wins
  std::copy(std::begin(in), std::end(in), static_cast<float*>(x.data()));
  std::vector<runtime::NDArray> out = Eval(OpKind::kHardmax, {{"axis", int64_t{-1}}}, {&x});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(Close(out[0], {2, 4}, {0, 1, 0, 0, 1, 0, 0, 0}, 0, 0));
  out = Eval(OpKind::kHardmax, {{"axis", int64_t{0}}}, {&x});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(Close(out[0], {2, 4}, {1, 1, 1, 1, 0, 0, 0, 0}, 0, 0));
}

// The running sum a naive loop gives, along `axis` of a float tensor.
std::vector<float> NaiveCumSum(const runtime::NDArray& x, int axis, bool exclusive, bool reverse) {
  const Shape& xs = x.shape();
  std::vector<float> out(x.NumElements());
  for (int64_t e = 0; e < x.NumElements(); ++e) {
    Shape idx = Unflatten(e, xs);
    const int64_t here = idx[axis];
    double sum = 0;
    for (int64_t k = 0; k < xs[axis]; ++k) {
      const bool kept =
          reverse ? (exclusive ? k > here : k >= here) : (exclusive ? k < here : k <= here);
      idx[axis] = k;
      if (kept) sum += F(x)[Flatten(idx, xs)];
    }
    out[e] = static_cast<float>(sum);
  }
  return out;
}

TEST(ComputeNnTest, CumSumRunsAlongEachAxisInclusiveOrNotForwardOrBack) {
  const runtime::NDArray x = Random({3, 5, 4}, 31);
  for (int64_t axis : {0, 1, -1}) {
    for (int64_t exclusive : {0, 1}) {
      for (int64_t reverse : {0, 1}) {
        std::vector<runtime::NDArray> out =
            Eval(OpKind::kCumSum, {{"axis", axis}, {"exclusive", exclusive}, {"reverse", reverse}},
                 {&x});
        ASSERT_EQ(out.size(), 1u);
        const int a = static_cast<int>(axis < 0 ? axis + 3 : axis);
        EXPECT_TRUE(
            Close(out[0], {3, 5, 4}, NaiveCumSum(x, a, exclusive != 0, reverse != 0), 1e-5, 1e-5))
            << "axis " << axis << " exclusive " << exclusive << " reverse " << reverse;
      }
    }
  }
}

TEST(ComputeNnTest, CumSumKeepsIntegersExactAndRefusesBadAttributes) {
  runtime::NDArray x = *runtime::NDArray::Empty({6}, {kDLInt, 64, 1});
  auto* in = static_cast<int64_t*>(x.data());
  for (int64_t i = 0; i < 6; ++i) in[i] = (int64_t{1} << 40) + i;  // past float's 24 bits
  std::vector<runtime::NDArray> out = Eval(OpKind::kCumSum, {{"axis", int64_t{0}}}, {&x});
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0].dtype().code, kDLInt);
  const auto* got = static_cast<const int64_t*>(out[0].data());
  int64_t want = 0;
  for (int64_t i = 0; i < 6; ++i) {
    want += in[i];
    EXPECT_EQ(got[i], want) << i;
  }
  Node past_rank{OpKind::kCumSum, "c", {}, {}, {}};
  past_rank.attrs.Set("axis", int64_t{1});
  EXPECT_FALSE(EvaluateOp(past_rank, {&x}).ok());
  Node bad_flag{OpKind::kCumSum, "c", {}, {}, {}};
  bad_flag.attrs.Set("reverse", int64_t{2});
  EXPECT_FALSE(EvaluateOp(bad_flag, {&x}).ok());
}

// Each slice over the axes from `axis` on, normalized by its own mean and biased variance.
std::vector<float> NaiveLayerNorm(const runtime::NDArray& x, int axis, const float* scale,
                                  const float* bias, double epsilon) {
  const Shape& xs = x.shape();
  int64_t inner = 1;
  for (size_t d = axis; d < xs.size(); ++d) inner *= xs[d];
  std::vector<float> out(x.NumElements());
  for (int64_t o = 0; o < x.NumElements() / inner; ++o) {
    const float* row = F(x) + o * inner;
    double mean = 0, var = 0;
    for (int64_t k = 0; k < inner; ++k) mean += row[k];
    mean /= inner;
    for (int64_t k = 0; k < inner; ++k) var += (row[k] - mean) * (row[k] - mean);
    var /= inner;
    for (int64_t k = 0; k < inner; ++k) {
      double v = (row[k] - mean) / std::sqrt(var + epsilon);
      if (scale) v *= scale[k];
      if (bias) v += bias[k];
      out[o * inner + k] = static_cast<float>(v);
    }
  }
  return out;
}

TEST(ComputeNnTest, LayerNormOverTrailingAxes) {
  const Shape xs = {2, 5, 3, 8};
  runtime::NDArray x = Random(xs, 82, -3, 5);
  runtime::NDArray scale = Random({3, 8}, 83, 0.5, 1.5);
  runtime::NDArray bias = Random({3, 8}, 84);
  std::vector<runtime::NDArray> out =
      Eval(OpKind::kLayerNorm, {{"axis", int64_t{2}}, {"epsilon", 1e-3}}, {&x, &scale, &bias});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(Close(out[0], xs, NaiveLayerNorm(x, 2, F(scale), F(bias), 1e-3), 1e-5, 1e-4));
  // The transformer form: the last axis, a scale of its size, no bias.
  runtime::NDArray gamma = Random({8}, 85, 0.5, 1.5);
  out = Eval(OpKind::kLayerNorm, {}, {&x, &gamma});
  ASSERT_EQ(out.size(), 1u);
  std::vector<float> want(x.NumElements());
  {
    std::vector<float> plain = NaiveLayerNorm(x, 3, nullptr, nullptr, 1e-5);
    for (int64_t i = 0; i < x.NumElements(); ++i) want[i] = plain[i] * F(gamma)[i % 8];
  }
  EXPECT_TRUE(Close(out[0], xs, want, 1e-5, 1e-4));
  Node bad{OpKind::kLayerNorm, "ln", {}, {}, {}};
  runtime::NDArray wrong = Random({5}, 86);
  EXPECT_FALSE(EvaluateOp(bad, {&x, &wrong}).ok());
}

TEST(ComputeNnTest, LrnAcrossChannels) {
  const Shape xs = {2, 7, 3, 5};
  runtime::NDArray x = Random(xs, 90, -2, 2);
  for (int64_t size : {3, 4}) {
    const double alpha = 1e-2, beta = 0.75, bias = 2.0;
    std::vector<runtime::NDArray> out = Eval(
        OpKind::kLrn, {{"size", size}, {"alpha", alpha}, {"beta", beta}, {"bias", bias}}, {&x});
    ASSERT_EQ(out.size(), 1u);
    std::vector<float> want(Count(xs));
    for (int64_t i = 0; i < Count(xs); ++i) {
      Shape idx = Unflatten(i, xs);
      double sq = 0;
      for (int64_t c = std::max<int64_t>(0, idx[1] - (size - 1) / 2);
           c <= std::min<int64_t>(xs[1] - 1, idx[1] + size / 2); ++c) {
        Shape j = idx;
        j[1] = c;
        double v = F(x)[Flatten(j, xs)];
        sq += v * v;
      }
      want[i] = static_cast<float>(F(x)[i] / std::pow(bias + alpha / size * sq, beta));
    }
    EXPECT_TRUE(Close(out[0], xs, want, 1e-6, 1e-5)) << "size " << size;
  }
}

}  // namespace
}  // namespace tunefarm::graph::testing

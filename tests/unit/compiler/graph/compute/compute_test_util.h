// Helpers of the op compute tests: random arrays, running one node through EvaluateOp, plain
// index arithmetic for the naive references, and comparison under explicit tolerances.
#pragma once

#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

#include "compiler/graph/op_evaluate.h"
#include "runtime/ndarray.h"

namespace tunefarm::graph::testing {

using Shape = std::vector<int64_t>;

inline int64_t Count(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}

// Row-major strides of `s`.
inline Shape Strides(const Shape& s) {
  Shape st(s.size(), 1);
  for (size_t d = s.size(); d-- > 1;) st[d - 1] = st[d] * s[d];
  return st;
}

// The multi-index of flat position `flat` in `s`.
inline Shape Unflatten(int64_t flat, const Shape& s) {
  Shape idx(s.size());
  for (size_t d = s.size(); d-- > 0;) {
    idx[d] = flat % s[d];
    flat /= s[d];
  }
  return idx;
}

inline int64_t Flatten(const Shape& idx, const Shape& s) {
  int64_t flat = 0;
  for (size_t d = 0; d < s.size(); ++d) flat = flat * s[d] + idx[d];
  return flat;
}

// A float32 array uniform in [lo, hi).
inline runtime::NDArray Random(const Shape& shape, uint64_t seed, float lo = -1.0f,
                               float hi = 1.0f) {
  runtime::NDArray a = *runtime::NDArray::Empty(shape, {kDLFloat, 32, 1});
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  float* p = static_cast<float*>(a.data());
  for (int64_t i = 0; i < a.NumElements(); ++i) p[i] = dist(rng);
  return a;
}

inline const float* F(const runtime::NDArray& a) { return static_cast<const float*>(a.data()); }

// Evaluates one node of `op` on `inputs`; fails the test on an error.
inline std::vector<runtime::NDArray> Eval(OpKind op, Attributes attrs,
                                          const std::vector<const runtime::NDArray*>& inputs) {
  Node node{op, "test", std::move(attrs), {}, {}};
  absl::StatusOr<std::vector<runtime::NDArray>> out = EvaluateOp(node, inputs);
  EXPECT_TRUE(out.ok()) << out.status();
  return out.ok() ? *std::move(out) : std::vector<runtime::NDArray>{};
}

// Shape and every element within atol + rtol * |want| (a NaN fails); names the first bad one.
inline ::testing::AssertionResult Close(const runtime::NDArray& got, const Shape& shape,
                                        const std::vector<float>& want, double atol = 1e-5,
                                        double rtol = 1e-5) {
  if (!got.defined()) return ::testing::AssertionFailure() << "no output";
  if (got.shape() != shape) {
    return ::testing::AssertionFailure() << "shape differs (" << got.ndim() << "-D)";
  }
  if (static_cast<size_t>(got.NumElements()) != want.size()) {
    return ::testing::AssertionFailure() << "reference has " << want.size() << " elements";
  }
  for (size_t i = 0; i < want.size(); ++i) {
    double err = std::fabs(static_cast<double>(F(got)[i]) - want[i]);
    if (!(err <= atol + rtol * std::fabs(want[i]))) {
      return ::testing::AssertionFailure()
             << "element " << i << ": got " << F(got)[i] << ", want " << want[i];
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace tunefarm::graph::testing

// Numerical checks of the pass tests: runs PrimFuncs (float32 parameters of constant shape)
// through the reference interpreter on seeded random inputs.
#pragma once

#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/interp/interpreter.h"
#include "compiler/ir/function.h"
#include "runtime/ndarray.h"
#include "tests/unit/compiler/passes/test_kernels.h"

namespace tunefarm::passes::testing {

using Arrays = std::vector<std::vector<float>>;

// Seeded random values in [-1, 1] for every parameter of `f`.
inline Arrays RandomArgs(const ir::PrimFunc& f, unsigned seed = 7) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  Arrays args;
  for (const auto& p : f.params) {
    int64_t n = 1;
    for (const auto& dim : p->shape) n *= ir::AsConstInt(dim).value_or(0);
    auto& values = args.emplace_back(static_cast<size_t>(n));
    for (float& v : values) v = dist(rng);
  }
  return args;
}

// Runs `f` on copies of `args` and returns every parameter's contents afterwards.
inline absl::StatusOr<Arrays> RunInterp(const ir::PrimFunc& f, const Arrays& args) {
  std::vector<runtime::NDArray> arrays;
  std::vector<runtime::NDArray*> ptrs;
  for (size_t i = 0; i < f.params.size(); ++i) {
    std::vector<int64_t> shape;
    for (const auto& dim : f.params[i]->shape) shape.push_back(ir::AsConstInt(dim).value_or(0));
    absl::StatusOr<runtime::NDArray> a =
        runtime::NDArray::Empty(shape, DLDataType{kDLFloat, 32, 1});
    if (!a.ok()) return a.status();
    std::memcpy(a->data(), args[i].data(), args[i].size() * sizeof(float));
    arrays.push_back(*std::move(a));
  }
  for (auto& a : arrays) ptrs.push_back(&a);
  if (absl::Status s = interp::Run(f, ptrs); !s.ok()) return s;
  Arrays out;
  for (const auto& a : arrays) {
    const auto* data = static_cast<const float*>(a.data());
    out.emplace_back(data, data + a.NumElements());
  }
  return out;
}

// Index of the first element further than `tolerance` from `want` (NaN never matches), or -1.
inline int64_t FirstMismatch(const std::vector<float>& got, const std::vector<float>& want,
                             float tolerance) {
  if (got.size() != want.size()) return 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (!(std::fabs(got[i] - want[i]) <= tolerance)) return static_cast<int64_t>(i);
  }
  return -1;
}

// Both functions, run on the same random inputs, leave every parameter equal within tolerance.
inline void ExpectSameResults(const ir::PrimFunc& before, const ir::PrimFunc& after,
                              float tolerance = 1e-5f) {
  Arrays args = RandomArgs(before);
  absl::StatusOr<Arrays> want = RunInterp(before, args), got = RunInterp(after, args);
  ASSERT_TRUE(want.ok()) << want.status();
  ASSERT_TRUE(got.ok()) << got.status();
  for (size_t i = 0; i < want->size(); ++i) {
    int64_t at = FirstMismatch((*got)[i], (*want)[i], tolerance);
    EXPECT_EQ(at, -1) << before.params[i]->name << "[" << at
                      << "]: " << (at >= 0 ? (*got)[i][at] : 0) << " vs "
                      << (at >= 0 ? (*want)[i][at] : 0);
  }
}

// Runs a function of (A[m, k], B[k, n], C[m, n]) and returns the first element of C that differs
// from the plain C++ product A·B (-1 when all match within tolerance).
inline int64_t MatmulMismatch(const ir::PrimFunc& f, int m, int n, int k) {
  Arrays args = RandomArgs(f);
  absl::StatusOr<Arrays> out = RunInterp(f, args);
  EXPECT_TRUE(out.ok()) << out.status();
  if (!out.ok()) return 0;
  return FirstMismatch((*out)[2], MatmulReference(m, n, k, args[0], args[1]), 1e-4f);
}
inline int64_t MatmulMismatch(const ir::PrimFunc& f, const TileShape& s) {
  return MatmulMismatch(f, s.m(), s.n(), s.k());
}

}  // namespace tunefarm::passes::testing

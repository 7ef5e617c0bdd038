// Helpers shared by the LLVM code generator tests: the host target, arrays filled from a seed,
// element-wise comparison with a tolerance, and running one PrimFunc both through BuildJit and
// the reference interpreter (the oracle) on copies of the same arguments.
#pragma once

#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "compiler/codegen/llvm/build.h"
#include "compiler/codegen/llvm/kernel_args.h"
#include "compiler/interp/interpreter.h"
#include "compiler/ir/expr.h"
#include "compiler/ir/function.h"
#include "compiler/ir/op.h"
#include "compiler/ir/stmt.h"
#include "runtime/ndarray.h"
#include "runtime/packed_function.h"

namespace tunefarm::codegen::testing {

inline constexpr ir::DataType kF32 = ir::DataType::Float(32);
inline constexpr ir::DataType kF64 = ir::DataType::Float(64);
inline constexpr ir::DataType kI32 = ir::DataType::Int(32);
inline constexpr ir::DataType kI64 = ir::DataType::Int(64);

inline const LlvmTarget& Host() {
  static const LlvmTarget target = [] {
    absl::StatusOr<LlvmTarget> t = ParseLlvmTarget("llvm");
    EXPECT_TRUE(t.ok()) << t.status();
    return *t;
  }();
  return target;
}

inline runtime::NDArray MakeArray(ir::DataType elem, std::vector<int64_t> shape) {
  absl::StatusOr<runtime::NDArray> a =
      runtime::NDArray::Empty(std::move(shape), ToDLDataType(elem));
  EXPECT_TRUE(a.ok()) << a.status();
  return std::move(*a);
}

inline runtime::NDArray Copy(const runtime::NDArray& a) {
  absl::StatusOr<runtime::NDArray> b = runtime::NDArray::Empty(a.shape(), a.dtype());
  EXPECT_TRUE(b.ok()) << b.status();
  EXPECT_TRUE(b->CopyFrom(a).ok());
  return std::move(*b);
}

// Element i as a double (integers exactly up to 2^53; float16 is not read here).
inline double ElementAt(const runtime::NDArray& a, int64_t i) {
  const DLDataType t = a.dtype();
  const auto* p = static_cast<const uint8_t*>(a.data()) + i * ((t.bits + 7) / 8);
  auto read = [p](auto v) {
    std::memcpy(&v, p, sizeof(v));
    return static_cast<double>(v);
  };
  if (t.code == kDLFloat) return t.bits == 32 ? read(float{}) : read(double{});
  if (t.code == kDLInt) {
    return t.bits == 8    ? read(int8_t{})
           : t.bits == 16 ? read(int16_t{})
           : t.bits == 32 ? read(int32_t{})
                          : read(int64_t{});
  }
  return t.bits <= 8    ? read(uint8_t{})
         : t.bits == 16 ? read(uint16_t{})
         : t.bits == 32 ? read(uint32_t{})
                        : read(uint64_t{});
}

inline void SetElement(runtime::NDArray& a, int64_t i, double v) {
  const DLDataType t = a.dtype();
  auto* p = static_cast<uint8_t*>(a.data()) + i * ((t.bits + 7) / 8);
  auto write = [p](auto x) { std::memcpy(p, &x, sizeof(x)); };
  if (t.code == kDLFloat) {
    t.bits == 32 ? write(static_cast<float>(v)) : write(v);
  } else if (t.code == kDLInt) {
    const auto x = static_cast<int64_t>(v);
    t.bits == 8    ? write(static_cast<int8_t>(x))
    : t.bits == 16 ? write(static_cast<int16_t>(x))
    : t.bits == 32 ? write(static_cast<int32_t>(x))
                   : write(x);
  } else {
    const auto x = static_cast<uint64_t>(v);
    t.bits <= 8    ? write(static_cast<uint8_t>(t.bits == 1 ? (x != 0) : x))
    : t.bits == 16 ? write(static_cast<uint16_t>(x))
    : t.bits == 32 ? write(static_cast<uint32_t>(x))
                   : write(x);
  }
}

// Uniform values in [lo, hi] (integers for integer types, 0/1 for bool), from `seed`.
inline void Fill(runtime::NDArray& a, uint64_t seed, double lo = -4, double hi = 4) {
  std::mt19937_64 rng(seed);
  const bool integral = a.dtype().code != kDLFloat;
  for (int64_t i = 0; i < a.NumElements(); ++i) {
    double v = std::uniform_real_distribution<double>(lo, hi)(rng);
    SetElement(a, i, integral ? std::floor(v) : v);
  }
}

// "" when every element agrees within atol + rtol * |want| (NaN matches NaN), else the first
// mismatch.
inline std::string Mismatch(const runtime::NDArray& got, const runtime::NDArray& want, double rtol,
                            double atol) {
  if (got.NumElements() != want.NumElements()) return "sizes differ";
  for (int64_t i = 0; i < got.NumElements(); ++i) {
    const double g = ElementAt(got, i), w = ElementAt(want, i);
    if (std::isnan(g) && std::isnan(w)) continue;
    if (g == w || std::fabs(g - w) <= atol + rtol * std::fabs(w)) continue;
    return absl::StrCat("element ", i, ": got ", g, ", expected ", w);
  }
  return "";
}

// Builds `f` for the host and calls its kernel on `args` (then `scalars`).
inline absl::Status RunJit(const ir::PrimFunc& f, const std::vector<runtime::NDArray*>& args,
                           const std::vector<runtime::PackedArg>& scalars = {}) {
  absl::StatusOr<std::shared_ptr<runtime::Module>> m = BuildJit({f}, Host());
  if (!m.ok()) return m.status();
  absl::StatusOr<runtime::PackedFunction> fn = (*m)->GetFunction(f.name);
  if (!fn.ok()) return fn.status();
  std::vector<runtime::PackedArg> all;
  for (runtime::NDArray* a : args) all.emplace_back(a);
  all.insert(all.end(), scalars.begin(), scalars.end());
  return fn->Call(all);
}

// Runs `f` through the JIT and the interpreter, each on its own copy of `args`, and expects every
// array to agree afterwards.
inline void ExpectMatchesInterpreter(const ir::PrimFunc& f,
                                     const std::vector<runtime::NDArray*>& args, double rtol = 1e-5,
                                     double atol = 1e-6) {
  std::vector<runtime::NDArray> jit_args, interp_args;
  std::vector<runtime::NDArray*> jit_ptrs, interp_ptrs;
  jit_args.reserve(args.size());
  interp_args.reserve(args.size());
  for (runtime::NDArray* a : args) {
    jit_args.push_back(Copy(*a));
    interp_args.push_back(Copy(*a));
    jit_ptrs.push_back(&jit_args.back());
    interp_ptrs.push_back(&interp_args.back());
  }
  absl::Status jit = RunJit(f, jit_ptrs);
  ASSERT_TRUE(jit.ok()) << jit;
  absl::Status interp = interp::Run(f, interp_ptrs);
  ASSERT_TRUE(interp.ok()) << interp;
  for (size_t i = 0; i < args.size(); ++i) {
    EXPECT_EQ(Mismatch(jit_args[i], interp_args[i], rtol, atol), "")
        << "argument " << i << " of " << f.name;
  }
}

// out[i] = body(i) for i in [0, n): the one-loop kernel many tests build.
inline ir::PrimFunc OneLoop(const std::string& name, std::vector<ir::Buffer> params,
                            const ir::Buffer& out, int64_t n,
                            const std::function<ir::Expr(ir::Var)>& body) {
  ir::Var i("i", kI32);
  ir::Stmt loop = ir::ForNode::Make(i, 0, static_cast<int>(n), ir::ForKind::kSerial,
                                    ir::StoreNode::Make(out->data, body(i), i));
  params.push_back(out);
  return ir::PrimFunc{name, std::move(params), loop};
}

inline ir::Expr At(const ir::Buffer& b, ir::Expr index) {
  const ir::DataType t = b->dtype.with_lanes(index.dtype().lanes());
  return ir::LoadNode::Make(t, b->data, std::move(index));
}

}  // namespace tunefarm::codegen::testing

// Helpers for the interpreter tests: arrays from values, and evaluating one expression by
// storing it into a one-element (or one-vector) output.
#pragma once

#include <cstring>
#include <gtest/gtest.h>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/interp/interpreter.h"
#include "compiler/ir/expr.h"
#include "compiler/ir/function.h"
#include "compiler/ir/stmt.h"
#include "runtime/ndarray.h"

namespace tunefarm::interp::testing {

// The element types most interpreter tests build kernels from.
inline constexpr ir::DataType kF32 = ir::DataType::Float(32);
inline constexpr ir::DataType kI32 = ir::DataType::Int(32);

inline DLDataType ToDL(ir::DataType t) {
  const uint8_t code = t.is_int() ? kDLInt : t.is_float() ? kDLFloat : kDLUInt;
  return DLDataType{code, static_cast<uint8_t>(t.bits()), 1};
}

// An array of `shape` holding `values` (row-major), converted to the element type.
template <typename T>
runtime::NDArray MakeArray(ir::DataType t, std::vector<int64_t> shape, std::vector<T> values = {}) {
  auto a = runtime::NDArray::Empty(std::move(shape), ToDL(t));
  EXPECT_TRUE(a.ok()) << a.status();
  if (!values.empty()) {
    EXPECT_EQ(static_cast<int64_t>(values.size()), a->NumElements());
    EXPECT_EQ(sizeof(T), static_cast<size_t>(t.bytes()));
    std::memcpy(a->data(), values.data(), a->NumBytes());
  }
  return std::move(*a);
}

template <typename T>
std::vector<T> Contents(const runtime::NDArray& a) {
  std::vector<T> out(a.NumElements());
  std::memcpy(out.data(), a.data(), a.NumBytes());
  return out;
}

// Runs a function that stores `e` into a buffer of e's element type and returns the lanes, as T
// (the C type of the element type; bool reads as uint8_t). `e` may read the `inputs`, which are
// the function's first parameters, bound to `arrays`.
template <typename T>
absl::StatusOr<std::vector<T>> Eval(const ir::Expr& e, std::vector<ir::Buffer> inputs = {},
                                    std::vector<runtime::NDArray*> arrays = {}) {
  const int lanes = e.dtype().lanes();
  ir::Buffer out("out", e.dtype().element_of(), {lanes});
  ir::Expr index = lanes == 1 ? ir::Expr(0) : ir::RampNode::Make(0, 1, lanes);
  inputs.push_back(out);
  ir::PrimFunc f{"eval", std::move(inputs), ir::StoreNode::Make(out->data, e, index)};
  runtime::NDArray a = MakeArray<T>(e.dtype().element_of(), {lanes});
  arrays.push_back(&a);
  absl::Status s = interp::Run(f, arrays);
  if (!s.ok()) return s;
  return Contents<T>(a);
}

template <typename T>
T EvalScalar(const ir::Expr& e) {
  auto v = Eval<T>(e);
  EXPECT_TRUE(v.ok()) << v.status() << " evaluating " << e.dtype().ToString();
  return v.ok() ? (*v)[0] : T{};
}

}  // namespace tunefarm::interp::testing

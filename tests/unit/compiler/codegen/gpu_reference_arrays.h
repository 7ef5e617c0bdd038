// The arrays a GPU kernel test runs on: one per tensor argument of the kernel's signature, at the
// given symbolic sizes, filled alike for the reference interpreter and for the code under test,
// with the interpreter's results already in `ref`.
#pragma once

#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vector>

#include "compiler/interp/interpreter.h"
#include "runtime/core/function_signature.h"
#include "tests/unit/compiler/codegen/llvm/codegen_test_util.h"

namespace tunefarm::codegen::testing {

struct ReferenceArrays {
  std::vector<runtime::NDArray> ref;  // after the interpreter ran `f`
  std::vector<runtime::NDArray> dut;  // the same inputs, for the code under test
};

// Use with ASSERT_NO_FATAL_FAILURE.
inline void MakeReferenceArrays(const ir::PrimFunc& f, const runtime::FunctionSignature& sig,
                                const std::map<std::string, int64_t>& values,
                                ReferenceArrays* out) {
  for (size_t i = 0; i < sig.args.size(); ++i) {
    const runtime::ArgSpec& arg = sig.args[i];
    ASSERT_EQ(arg.kind, runtime::ArgKind::kTensor) << arg.name;
    std::vector<int64_t> shape;
    for (const runtime::DimSpec& d : arg.shape) {
      shape.push_back(d.is_symbol() ? values.at(d.symbol) : d.value);
    }
    absl::StatusOr<runtime::NDArray> a = runtime::NDArray::Empty(shape, arg.dtype);
    ASSERT_TRUE(a.ok()) << a.status();
    Fill(*a, 100 + i, -2, 2);
    absl::StatusOr<runtime::NDArray> b = a->Clone();
    ASSERT_TRUE(b.ok());
    out->ref.push_back(std::move(*a));
    out->dut.push_back(std::move(*b));
  }
  std::vector<runtime::NDArray*> ref_ptrs;
  for (runtime::NDArray& a : out->ref) ref_ptrs.push_back(&a);
  absl::Status st = interp::Run(f, ref_ptrs);
  ASSERT_TRUE(st.ok()) << st;
}

}  // namespace tunefarm::codegen::testing

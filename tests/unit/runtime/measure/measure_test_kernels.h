// Small kernels exported as shared libraries for the measure tests: C[i] = A[i] + addend over
// 64 elements (or a symbolic n), compiled by the real pipeline (lower, LLVM, lld).
#pragma once

#include <string>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "compiler/codegen/llvm/build.h"
#include "compiler/ir/op.h"
#include "compiler/passes/lower.h"
#include "compiler/te/tensor.h"

namespace tunefarm::runtime::measure::testing {

// Writes the kernel `name` at `path`; returns the error text, empty on success.
inline std::string ExportAddKernel(const std::string& path, const std::string& name, float addend,
                                   bool symbolic = false) {
  ir::Expr n = symbolic ? ir::Expr(ir::Var("n")) : ir::Expr(64);
  te::Tensor a = te::placeholder({n}, ir::DataType::Float(32), "A");
  absl::StatusOr<te::Tensor> c = te::compute(
      {n}, [&](const std::vector<ir::Var>& i) { return a({i[0]}) + addend; }, "C");
  if (!c.ok()) return std::string(c.status().message());
  schedule::Schedule s = schedule::Schedule::Create({c->op()});
  passes::PassOptions options;
  options.target = passes::LoweringTarget::kLlvm;
  absl::StatusOr<ir::PrimFunc> f = passes::Lower(s, {a, *c}, name, options);
  if (!f.ok()) return std::string(f.status().message());
  absl::StatusOr<codegen::LlvmTarget> target = codegen::ParseLlvmTarget("llvm");
  if (!target.ok()) return std::string(target.status().message());
  absl::Status st = codegen::ExportLibrary({*f}, *target, path);
  return st.ok() ? "" : std::string(st.message());
}

// A per-process scratch path for a library.
inline std::string ScratchLibrary(const std::string& stem) {
  return absl::StrCat(::testing::TempDir(), "/measure_", getpid(), "_", stem, ".so");
}

}  // namespace tunefarm::runtime::measure::testing

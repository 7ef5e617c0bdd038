// Test fixture: lowers a schedule, runs it and the unscheduled definition of the same outputs
// through the reference interpreter on identical random inputs, and reports the largest
// difference. The oracle every schedule-primitive test relies on.
#pragma once

#include <cmath>
#include <random>
#include <unordered_map>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "compiler/interp/interpreter.h"
#include "compiler/ir/mutator.h"
#include "compiler/ir/simplify/simplify.h"
#include "compiler/passes/lower.h"
#include "runtime/data_type.h"
#include "runtime/ndarray.h"

namespace tunefarm::testing {

using Bindings = std::unordered_map<const ir::VarNode*, int64_t>;

inline absl::StatusOr<std::vector<int64_t>> ConcreteShape(const te::Tensor& t,
                                                          const Bindings& bind) {
  ir::VarMap map;
  for (const auto& [v, value] : bind) map[v] = ir::IntImm(v->dtype, value);
  std::vector<int64_t> shape;
  for (const auto& dim : t.shape()) {
    auto c = ir::AsConstInt(arith::Simplify(ir::Substitute(dim, map)));
    if (!c) return absl::InvalidArgumentError(absl::StrCat("shape of ", t.name(), " unbound"));
    shape.push_back(*c);
  }
  return shape;
}

inline void FillRandom(runtime::NDArray& a, std::mt19937_64& rng) {
  DLDataType t = a.dtype();
  int64_t n = a.NumElements();
  if (t.code == kDLFloat && t.bits == 32) {
    std::uniform_real_distribution<float> d(-1, 1);
    for (int64_t i = 0; i < n; ++i) static_cast<float*>(a.data())[i] = d(rng);
  } else if (t.code == kDLFloat && t.bits == 64) {
    std::uniform_real_distribution<double> d(-1, 1);
    for (int64_t i = 0; i < n; ++i) static_cast<double*>(a.data())[i] = d(rng);
  } else if (t.code == kDLInt && t.bits == 32) {
    std::uniform_int_distribution<int32_t> d(-50, 50);
    for (int64_t i = 0; i < n; ++i) static_cast<int32_t*>(a.data())[i] = d(rng);
  }
}

inline double ElementAsDouble(const runtime::NDArray& a, int64_t i) {
  DLDataType t = a.dtype();
  if (t.code == kDLFloat && t.bits == 32) return static_cast<const float*>(a.data())[i];
  if (t.code == kDLFloat && t.bits == 64) return static_cast<const double*>(a.data())[i];
  if (t.code == kDLInt && t.bits == 32) return static_cast<const int32_t*>(a.data())[i];
  return NAN;
}

struct RunResult {
  std::vector<runtime::NDArray> arrays;
};

inline absl::StatusOr<RunResult> RunFunc(const ir::PrimFunc& f, const std::vector<te::Tensor>& args,
                                         const Bindings& bind, uint64_t seed) {
  RunResult r;
  std::mt19937_64 rng(seed);
  std::vector<runtime::NDArray*> ptrs;
  for (const auto& t : args) {
    auto shape = ConcreteShape(t, bind);
    if (!shape.ok()) return shape.status();
    auto dtype = runtime::ParseDataType(t.dtype().ToString());
    if (!dtype.ok()) return dtype.status();
    auto a = runtime::NDArray::Empty(*shape, *dtype);
    if (!a.ok()) return a.status();
    // Outputs are filled too: a schedule that forgets an element must not pass by luck.
    FillRandom(*a, rng);
    r.arrays.push_back(*std::move(a));
  }
  for (auto& a : r.arrays) ptrs.push_back(&a);
  if (absl::Status st = interp::Run(f, ptrs); !st.ok()) return st;
  return r;
}

// Max |scheduled - reference| over the outputs (args that are not placeholders).
inline absl::StatusOr<double> MaxErrorAgainstReference(const schedule::Schedule& s,
                                                       const std::vector<te::Tensor>& args,
                                                       const Bindings& bind, uint64_t seed = 7) {
  auto scheduled = passes::Lower(s, args, "scheduled");
  if (!scheduled.ok()) return scheduled.status();
  std::vector<te::Operation> outputs;
  for (const auto& t : args) {
    if (t.op()->kind == te::OpKind::kCompute) outputs.push_back(t.op());
  }
  auto reference = passes::Lower(schedule::Schedule::Create(outputs), args, "reference");
  if (!reference.ok()) return reference.status();
  auto got = RunFunc(*scheduled, args, bind, seed);

  if (!got.ok()) return got.status();
  auto want = RunFunc(*reference, args, bind, seed);
  if (!want.ok()) return want.status();
  double err = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].op()->kind != te::OpKind::kCompute) continue;
    for (int64_t e = 0; e < got->arrays[i].NumElements(); ++e) {
      double d =
          std::fabs(ElementAsDouble(got->arrays[i], e) - ElementAsDouble(want->arrays[i], e));
      if (!(d <= err)) err = std::isnan(d) ? INFINITY : d;
    }
  }
  return err;
}

}  // namespace tunefarm::testing

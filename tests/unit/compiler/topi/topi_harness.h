// Test harness of the operator library: runs a ScheduledOp on a backend (interpreter, LLVM JIT,
// exported and reloaded library; 1 or 2 threads) and compares with references under tolerances.
#pragma once

#include <cmath>
#include <cstdio>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/codegen/llvm/build.h"
#include "compiler/interp/interpreter.h"
#include "compiler/passes/lower.h"
#include "compiler/topi/scheduled_op.h"
#include "runtime/core/thread_pool.h"
#include "runtime/data_type.h"
#include "runtime/module.h"
#include "runtime/ndarray.h"

namespace tunefarm::topi::testing {

enum class Backend {
  kInterp,   // the reference interpreter
  kJit,      // codegen::BuildJit, run in this process
  kLibrary,  // codegen::ExportLibrary, then runtime::LoadModule of the .so
};

struct BackendCase {
  Backend backend = Backend::kInterp;
  int threads = 1;  // the thread pool's width (compiled backends)
  std::string Name() const {
    switch (backend) {
      case Backend::kInterp:
        return "Interp";
      case Backend::kJit:
        return absl::StrCat("Jit", threads, "Threads");
      case Backend::kLibrary:
        return absl::StrCat("Library", threads, "Threads");
    }
    return "Unknown";
  }
};

inline void PrintTo(const BackendCase& b, std::ostream* os) { *os << b.Name(); }

inline std::vector<BackendCase> AllBackends() {
  return {{Backend::kInterp, 1},
          {Backend::kJit, 1},
          {Backend::kJit, 2},
          {Backend::kLibrary, 1},
          {Backend::kLibrary, 2}};
}

inline std::string BackendName(const ::testing::TestParamInfo<BackendCase>& info) {
  return info.param.Name();
}

// A float32 placeholder of a constant shape.
inline te::Tensor Placeholder(const std::vector<int64_t>& shape, const std::string& name) {
  std::vector<ir::Expr> dims;
  for (int64_t d : shape) dims.push_back(ir::IntImm(ir::DataType::Int(32), d));
  return te::placeholder(dims, ir::DataType::Float(32), name);
}

// A float32 array of `shape`, uniform in [lo, hi).
inline runtime::NDArray RandomArray(const std::vector<int64_t>& shape, uint64_t seed,
                                    float lo = -1.0f, float hi = 1.0f) {
  runtime::NDArray a = *runtime::NDArray::Empty(shape, *runtime::ParseDataType("float32"));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  float* p = static_cast<float*>(a.data());
  for (int64_t i = 0; i < a.NumElements(); ++i) p[i] = dist(rng);
  return a;
}

// An output array filled with NaN, so an element the kernel forgets to write shows.
inline runtime::NDArray OutputArray(const std::vector<int64_t>& shape) {
  runtime::NDArray a = *runtime::NDArray::Empty(shape, *runtime::ParseDataType("float32"));
  float* p = static_cast<float*>(a.data());
  for (int64_t i = 0; i < a.NumElements(); ++i) p[i] = NAN;
  return a;
}

inline const float* Data(const runtime::NDArray& a) { return static_cast<const float*>(a.data()); }

inline std::vector<float> ToVector(const runtime::NDArray& a) {
  return std::vector<float>(Data(a), Data(a) + a.NumElements());
}

inline const codegen::LlvmTarget& HostTarget() {
  static const codegen::LlvmTarget target = *codegen::ParseLlvmTarget("llvm");
  return target;
}

// Loads `f` through the backend and returns its kernel.
inline absl::StatusOr<runtime::PackedFunction> Compile(const BackendCase& backend,
                                                       const ir::PrimFunc& f) {
  absl::StatusOr<std::shared_ptr<runtime::Module>> module;
  if (backend.backend == Backend::kJit) {
    module = codegen::BuildJit({f}, HostTarget());
  } else {
    // One file per process and kernel name: tests may run in parallel processes.
    static int counter = 0;
    std::string path =
        absl::StrCat(::testing::TempDir(), "topi_", getpid(), "_", counter++, "_", f.name, ".so");
    if (absl::Status st = codegen::ExportLibrary({f}, HostTarget(), path); !st.ok()) return st;
    module = runtime::LoadModule(path);
    std::remove(path.c_str());  // the loaded library stays mapped
  }
  if (!module.ok()) return module.status();
  return (*module)->GetFunction(f.name);
}

// Lowers `op` and runs it on `args` (one array per op.args entry, in order) on `backend`.
inline absl::Status RunOn(const BackendCase& backend, const ScheduledOp& op,
                          const std::vector<runtime::NDArray*>& args,
                          const std::string& name = "kernel") {
  passes::PassOptions options;
  if (backend.backend != Backend::kInterp) options.target = passes::LoweringTarget::kLlvm;
  absl::StatusOr<ir::PrimFunc> f = passes::Lower(op.schedule, op.args, name, options);
  if (!f.ok()) return f.status();
  if (backend.backend == Backend::kInterp) return interp::Run(*f, args);
  absl::StatusOr<runtime::PackedFunction> kernel = Compile(backend, *f);
  if (!kernel.ok()) return kernel.status();
  std::string error;
  if (!runtime::SetNumThreads(backend.threads, &error)) return absl::InternalError(error);
  std::vector<runtime::PackedArg> packed(args.begin(), args.end());
  absl::Status st = kernel->Call(packed);
  runtime::SetNumThreads(0);
  return st;
}

// Every element within atol + rtol * |want|; a NaN anywhere fails. Names the first bad element.
inline ::testing::AssertionResult AllClose(const runtime::NDArray& got,
                                           const std::vector<float>& want, double atol,
                                           double rtol) {
  if (static_cast<size_t>(got.NumElements()) != want.size()) {
    return ::testing::AssertionFailure()
           << "got " << got.NumElements() << " elements, want " << want.size();
  }
  const float* g = Data(got);
  double worst = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    double err = std::fabs(static_cast<double>(g[i]) - want[i]);
    if (!(err <= atol + rtol * std::fabs(want[i]))) {
      return ::testing::AssertionFailure()
             << "element " << i << ": got " << g[i] << ", want " << want[i] << " (atol " << atol
             << ", rtol " << rtol << ")";
    }
    worst = std::max(worst, err);
  }
  return ::testing::AssertionSuccess() << "max error " << worst;
}

}  // namespace tunefarm::topi::testing

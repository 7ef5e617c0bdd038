// Test harness of the operator-library templates: builds a template's Apply(config) and
// Reference(config) with the LLVM JIT, runs both on the same random inputs and compares.
#pragma once

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/codegen/llvm/build.h"
#include "compiler/passes/lower.h"
#include "compiler/space/config_json.h"
#include "compiler/space/config_sampler.h"
#include "runtime/core/thread_pool.h"
#include "runtime/data_type.h"
#include "runtime/module.h"
#include "runtime/ndarray.h"
#include "tuner/task.h"
#include "tuner/templates/template_registry.h"

namespace tunefarm::tuner::testing {

// The task of a workload key on the host ("llvm"); null (and a test failure) on an error.
inline std::unique_ptr<Task> MakeTask(const std::string& key) {
  absl::StatusOr<Workload> w = ParseWorkloadKey(key);
  EXPECT_TRUE(w.ok()) << w.status();
  if (!w.ok()) return nullptr;
  absl::StatusOr<std::unique_ptr<Task>> task = CreateTask(*w, target::Target::Host());
  EXPECT_TRUE(task.ok()) << task.status();
  return task.ok() ? *std::move(task) : nullptr;
}

inline std::vector<int64_t> ShapeOf(const te::Tensor& t) {
  std::vector<int64_t> shape;
  for (const ir::Expr& d : t.shape()) shape.push_back(ir::AsConstInt(d).value_or(-1));
  return shape;
}

// Float32 uniform in [-1, 1) (inputs) or NaN (outputs, so an element the kernel skips shows);
// 8-bit integers over their whole range (inputs) and other integers 0x5a bytes (outputs).
inline runtime::NDArray MakeArray(const std::vector<int64_t>& shape, uint64_t seed, bool output,
                                  ir::DataType dtype = ir::DataType::Float(32)) {
  runtime::NDArray a = *runtime::NDArray::Empty(shape, *runtime::ParseDataType(dtype.ToString()));
  std::mt19937_64 rng(seed);
  if (dtype.is_float()) {
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    float* p = static_cast<float*>(a.data());
    for (int64_t i = 0; i < a.NumElements(); ++i) p[i] = output ? NAN : dist(rng);
    return a;
  }
  auto* bytes = static_cast<uint8_t*>(a.data());
  for (size_t i = 0; i < a.NumBytes(); ++i) bytes[i] = output ? 0x5a : static_cast<uint8_t>(rng());
  return a;
}

// Inputs (seeded by position) and a NaN output for `op`'s argument list.
inline std::vector<runtime::NDArray> MakeArgs(const topi::ScheduledOp& op) {
  std::vector<runtime::NDArray> arrays;
  for (size_t i = 0; i < op.args.size(); ++i) {
    arrays.push_back(
        MakeArray(ShapeOf(op.args[i]), 100 + i, i + 1 == op.args.size(), op.args[i].dtype()));
  }
  return arrays;
}

// Lowers, JIT-compiles and runs `op` on `arrays` with `threads` pool threads.
inline absl::Status BuildAndRun(const topi::ScheduledOp& op, std::vector<runtime::NDArray>& arrays,
                                int threads = 2) {
  passes::PassOptions options;
  options.target = passes::LoweringTarget::kLlvm;
  absl::StatusOr<ir::PrimFunc> f = passes::Lower(op.schedule, op.args, "kernel", options);
  if (!f.ok()) return f.status();
  static const codegen::LlvmTarget target = *codegen::ParseLlvmTarget("llvm");
  absl::StatusOr<std::shared_ptr<runtime::Module>> module = codegen::BuildJit({*f}, target);
  if (!module.ok()) return module.status();
  absl::StatusOr<runtime::PackedFunction> kernel = (*module)->GetFunction("kernel");
  if (!kernel.ok()) return kernel.status();
  std::string error;
  if (!runtime::SetNumThreads(threads, &error)) return absl::InternalError(error);
  std::vector<runtime::PackedArg> packed;
  for (runtime::NDArray& a : arrays) packed.emplace_back(&a);
  absl::Status st = kernel->Call(packed);
  runtime::SetNumThreads(0);
  return st;
}

// |got - want| <= atol + rtol * |want| everywhere, no NaN; names the first bad element.
inline ::testing::AssertionResult Close(const runtime::NDArray& got, const runtime::NDArray& want,
                                        double atol = 1e-4, double rtol = 1e-4) {
  if (got.NumElements() != want.NumElements()) {
    return ::testing::AssertionFailure() << "element counts differ";
  }
  if (got.dtype().code != kDLFloat) {  // integers: exactly
    if (std::memcmp(got.data(), want.data(), got.NumBytes()) != 0) {
      return ::testing::AssertionFailure() << "the integer outputs differ";
    }
    return ::testing::AssertionSuccess();
  }
  const float* g = static_cast<const float*>(got.data());
  const float* w = static_cast<const float*>(want.data());
  for (int64_t i = 0; i < got.NumElements(); ++i) {
    const double err = std::fabs(static_cast<double>(g[i]) - w[i]);
    if (!(err <= atol + rtol * std::fabs(w[i]))) {
      return ::testing::AssertionFailure()
             << "element " << i << ": got " << g[i] << ", want " << w[i];
    }
  }
  return ::testing::AssertionSuccess();
}

// Runs Reference(config) once per ReferenceKey and returns its output; the inputs it used.
class ReferenceCache {
 public:
  explicit ReferenceCache(const Task& task) : task_(task) {}

  // The reference's arrays (inputs and output) for `config`'s argument layout.
  absl::StatusOr<const std::vector<runtime::NDArray>*> For(const space::Config& config) {
    const std::string key = task_.tmpl().ReferenceKey(config);
    auto it = cache_.find(key);
    if (it != cache_.end()) return &it->second;
    absl::StatusOr<topi::ScheduledOp> ref = task_.tmpl().Reference(config);
    if (!ref.ok()) return ref.status();
    std::vector<runtime::NDArray> arrays = MakeArgs(*ref);
    if (absl::Status st = BuildAndRun(*ref, arrays, 1); !st.ok()) return st;
    return &cache_.emplace(key, std::move(arrays)).first->second;
  }

 private:
  const Task& task_;
  std::map<std::string, std::vector<runtime::NDArray>> cache_;
};

// Applies `config`, runs it on the reference's inputs and compares the outputs.
inline void CheckConfig(const Task& task, ReferenceCache& refs, const space::Config& config) {
  SCOPED_TRACE(absl::StrCat(task.key(), " ", space::ConfigToJson(config)));
  absl::StatusOr<topi::ScheduledOp> op = task.Apply(config);
  ASSERT_TRUE(op.ok()) << op.status();
  absl::StatusOr<const std::vector<runtime::NDArray>*> ref = refs.For(config);
  ASSERT_TRUE(ref.ok()) << ref.status();
  std::vector<runtime::NDArray> arrays = MakeArgs(*op);
  ASSERT_EQ(arrays.size(), (*ref)->size());
  for (size_t i = 0; i < arrays.size(); ++i) {
    ASSERT_EQ(ShapeOf(op->args[i]),
              std::vector<int64_t>((*ref)->at(i).shape().begin(), (*ref)->at(i).shape().end()))
        << "argument " << i;
  }
  // The same inputs as the reference run (MakeArgs is seeded by position).
  absl::Status st = BuildAndRun(*op, arrays, 2);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_TRUE(Close(arrays.back(), (*ref)->back()));
}

// `samples`, or TUNEFARM_TEMPLATE_SAMPLES when set (a longer soak of the spaces by hand).
inline int SampleCount(int samples) {
  const char* env = std::getenv("TUNEFARM_TEMPLATE_SAMPLES");
  return env != nullptr && std::atoi(env) > 0 ? std::atoi(env) : samples;
}

// The default config and `samples` seeded random valid configs of `task`, each checked.
inline void CheckSampledConfigs(const Task& task, int samples, uint64_t seed) {
  samples = SampleCount(samples);
  ReferenceCache refs(task);
  absl::StatusOr<space::Config> def = task.DefaultConfig();
  ASSERT_TRUE(def.ok()) << def.status();
  CheckConfig(task, refs, *def);
  std::mt19937_64 rng(seed);
  for (int i = 0; i < samples; ++i) {
    absl::StatusOr<space::Config> c = space::SampleValidConfig(task.space(), rng);
    ASSERT_TRUE(c.ok()) << c.status();
    CheckConfig(task, refs, *c);
  }
}

}  // namespace tunefarm::tuner::testing

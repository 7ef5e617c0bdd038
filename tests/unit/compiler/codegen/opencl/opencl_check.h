// ExpectOpenClMatchesInterpreter: a lowered GPU function built as OpenCL C, compiled by this
// machine's OpenCL device (PoCL here; skipped with the reason where there is none) and run through
// the device API, against the reference interpreter on the same random inputs.
#pragma once

#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vector>

#include "compiler/codegen/opencl/build_opencl.h"
#include "compiler/passes/lower.h"
#include "compiler/script/script.h"
#include "runtime/devices/process_gpu.h"
#include "runtime/gpu/gpu_function.h"
#include "tests/unit/compiler/codegen/gpu_reference_arrays.h"

namespace tunefarm::codegen::opencl {

// The process's OpenCL device, or the reason there is none.
inline absl::StatusOr<std::shared_ptr<runtime::gpu::GpuDevice>> TestDevice() {
  return runtime::devices::ProcessGpuDevice(runtime::gpu::GpuApi::kOpenCl);
}

#define TF_SKIP_WITHOUT_OPENCL()                                                 \
  do {                                                                           \
    if (auto device = ::tunefarm::codegen::opencl::TestDevice(); !device.ok()) { \
      GTEST_SKIP() << "no OpenCL device: " << device.status().message();         \
    }                                                                            \
  } while (0)

inline absl::StatusOr<ir::PrimFunc> LowerForGpu(const schedule::Schedule& schedule,
                                                const std::vector<te::Tensor>& args,
                                                const std::string& name) {
  passes::PassOptions options;
  options.target = passes::LoweringTarget::kCuda;  // the GPU lowering, for either API
  return passes::Lower(schedule, args, name, options);
}

inline absl::StatusOr<ir::PrimFunc> LowerScriptForGpu(const std::string& source,
                                                      const std::string& name) {
  absl::StatusOr<script::ScriptResult> script = script::RunScript(source, name + ".te");
  if (!script.ok()) return script.status();
  return LowerForGpu(script->schedule, script->args, name);
}

// `values` binds the symbolic sizes; `rtol` allows for contraction and summation order.
inline void ExpectOpenClMatchesInterpreter(const ir::PrimFunc& f,
                                           const std::map<std::string, int64_t>& values,
                                           const std::string& device_profile = "opencl",
                                           double rtol = 1e-4) {
  absl::StatusOr<runtime::gpu::GpuModuleImage> image =
      BuildOpenCl(f, *target::ParseOpenClTarget(device_profile));
  ASSERT_TRUE(image.ok()) << image.status();
  absl::StatusOr<std::shared_ptr<runtime::gpu::GpuDevice>> device = TestDevice();
  ASSERT_TRUE(device.ok()) << device.status();
  absl::StatusOr<std::shared_ptr<runtime::gpu::GpuLoadedModule>> module =
      runtime::gpu::GpuLoadedModule::Load(*device, *image);
  ASSERT_TRUE(module.ok()) << module.status() << "\n" << image->code;
  absl::StatusOr<runtime::gpu::GpuFunction> fn = (*module)->GetFunction(f.name);
  ASSERT_TRUE(fn.ok()) << fn.status();

  const runtime::FunctionSignature& sig = fn->signature();
  codegen::testing::ReferenceArrays arrays;
  ASSERT_NO_FATAL_FAILURE(codegen::testing::MakeReferenceArrays(f, sig, values, &arrays));
  std::vector<runtime::NDArray>& ref = arrays.ref;
  std::vector<runtime::NDArray>& dev = arrays.dut;
  absl::Status st;
  std::vector<runtime::PackedArg> args;
  for (runtime::NDArray& a : dev) args.emplace_back(&a);
  st = fn->Call(args);
  ASSERT_TRUE(st.ok()) << st << "\n" << image->code;
  for (size_t i = 0; i < ref.size(); ++i) {
    EXPECT_EQ(codegen::testing::Mismatch(dev[i], ref[i], rtol, 1e-5), "")
        << sig.args[i].name << "\n"
        << image->code;
  }
}

}  // namespace tunefarm::codegen::opencl

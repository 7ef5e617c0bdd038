// ExpectEmulationMatchesInterpreter: a lowered GPU function run two ways on the same random
// inputs — its generated CUDA C on the host emulation (host_emulation.h), and the reference
// interpreter — and every argument compared afterwards.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "compiler/codegen/cuda/build_cuda.h"
#include "runtime/gpu/gpu_module.h"
#include "tests/unit/compiler/codegen/cuda/host_emulation.h"
#include "tests/unit/compiler/codegen/gpu_reference_arrays.h"

namespace tunefarm::codegen::cuda {

inline std::string CTypeOf(DLDataType t) {
  if (t.code == kDLFloat) return t.bits == 64 ? "double" : "float";
  const bool u = t.code == kDLUInt;
  if (t.bits == 1) return "bool";
  if (t.bits == 8) return u ? "unsigned char" : "signed char";
  if (t.bits == 16) return u ? "unsigned short" : "short";
  if (t.bits == 64) return u ? "unsigned long long" : "long long";
  return u ? "unsigned int" : "int";
}

// `values` binds the symbolic sizes; `rtol` allows for contraction and summation order.
inline void ExpectEmulationMatchesInterpreter(const ir::PrimFunc& f,
                                              const std::map<std::string, int64_t>& values,
                                              double rtol = 1e-4) {
  absl::StatusOr<runtime::gpu::GpuModuleImage> image =
      BuildCuda(f, *target::ParseCudaTarget("cuda"));
  ASSERT_TRUE(image.ok()) << image.status();
  const runtime::gpu::GpuHostFunction& host = image->functions[0];
  // Arrays for the interpreter and copies for the emulation, filled alike.
  codegen::testing::ReferenceArrays arrays;
  ASSERT_NO_FATAL_FAILURE(
      codegen::testing::MakeReferenceArrays(f, host.signature, values, &arrays));
  std::vector<runtime::NDArray>& ref = arrays.ref;
  std::vector<runtime::NDArray>& emu = arrays.dut;
  std::map<std::string, runtime::NDArray*> by_name;
  for (size_t i = 0; i < emu.size(); ++i) by_name[host.signature.args[i].name] = &emu[i];

  // One typed trampoline per kernel: args[i] points at the i-th parameter's value.
  std::string trampolines;
  for (const runtime::gpu::GpuLaunch& launch : host.launches) {
    std::string call;
    for (size_t i = 0; i < launch.params.size(); ++i) {
      const runtime::gpu::KernelParam& p = launch.params[i];
      std::string arg;
      if (p.kind == runtime::gpu::KernelParam::Kind::kPointer) {
        ASSERT_TRUE(by_name.count(p.name)) << p.name;
        arg = absl::StrCat("(", CTypeOf(by_name[p.name]->dtype()), "*)args[", i, "]");
      } else {
        arg = absl::StrCat("*(",
                           p.kind == runtime::gpu::KernelParam::Kind::kInt64 ? "long long" : "int",
                           "*)args[", i, "]");
      }
      absl::StrAppend(&call, i ? ", " : "", arg);
    }
    absl::StrAppend(&trampolines, "extern \"C\" void tf_call_", launch.kernel, "(void** args) { ",
                    launch.kernel, "(", call, "); }\n");
  }
  absl::StatusOr<std::string> source = GenerateCudaSource({f});
  ASSERT_TRUE(source.ok()) << source.status();
  absl::StatusOr<EmulatedModule> module = EmulatedModule::Compile(*source, trampolines);
  ASSERT_TRUE(module.ok()) << module.status();

  for (const runtime::gpu::GpuLaunch& launch : host.launches) {
    std::array<unsigned, 3> grid{}, block{};
    for (int d = 0; d < 3; ++d) {
      absl::StatusOr<int64_t> g = runtime::gpu::EvalLaunchExpr(launch.grid[d], values);
      absl::StatusOr<int64_t> b = runtime::gpu::EvalLaunchExpr(launch.block[d], values);
      ASSERT_TRUE(g.ok() && b.ok()) << launch.grid[d] << " " << launch.block[d];
      grid[d] = static_cast<unsigned>(*g);
      block[d] = static_cast<unsigned>(*b);
    }
    std::vector<int64_t> ints;
    ints.reserve(launch.params.size());
    std::vector<void*> args;
    for (const runtime::gpu::KernelParam& p : launch.params) {
      if (p.kind == runtime::gpu::KernelParam::Kind::kPointer) {
        args.push_back(by_name[p.name]->data());
      } else {
        ints.push_back(values.at(p.name));  // little-endian: an int reads the low half
        args.push_back(&ints.back());
      }
    }
    using CallFn = void(void**);
    CallFn* call = module->Kernel<CallFn>("tf_call_" + launch.kernel);
    ASSERT_NE(call, nullptr) << launch.kernel;
    module->Launch(grid, block, [&] { call(args.data()); });
  }
  for (size_t i = 0; i < ref.size(); ++i) {
    EXPECT_EQ(codegen::testing::Mismatch(emu[i], ref[i], rtol, 1e-5), "")
        << host.signature.args[i].name;
  }
}

}  // namespace tunefarm::codegen::cuda

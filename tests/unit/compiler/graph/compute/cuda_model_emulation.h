// EmulateCudaModel: a model built for CUDA run without a GPU. Its kernels' generated CUDA C is
// compiled for the host emulation (codegen/cuda/host_emulation.h) and the graph's steps run in
// order over host buffers, each launch with the grid and block its image gives, so the GPU
// schedules (fused epilogues, the default schedule's in-thread reductions) are checked for value.
#pragma once

#ifdef TUNEFARM_HAVE_CUDA

#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "compiler/codegen/cuda/build_cuda.h"
#include "compiler/graph/model_build.h"
#include "runtime/gpu/gpu_module.h"
#include "runtime/ndarray.h"
#include "tests/unit/compiler/codegen/cuda/emulation_check.h"
#include "tests/unit/compiler/codegen/cuda/host_emulation.h"

namespace tunefarm::graph::testing {

// The graph's outputs by name after one emulated run with `inputs` by input name. Failures are
// test failures, with an empty result.
inline std::map<std::string, runtime::NDArray> EmulateCudaModel(
    const BuiltModel& model, const std::map<std::string, const runtime::NDArray*>& inputs) {
  std::vector<ir::PrimFunc> funcs;
  for (const GroupKernel& k : model.kernels) funcs.push_back(k.func);
  absl::StatusOr<runtime::gpu::GpuModuleImage> image =
      codegen::cuda::BuildCuda(funcs, *target::ParseCudaTarget("cuda"));
  EXPECT_TRUE(image.ok()) << image.status();
  absl::StatusOr<std::string> source = codegen::cuda::GenerateCudaSource(funcs);
  EXPECT_TRUE(source.ok()) << source.status();
  if (!image.ok() || !source.ok()) return {};

  // One typed trampoline per kernel: args[i] points at the i-th parameter's value.
  std::string trampolines;
  std::set<std::string> seen;
  for (const runtime::gpu::GpuHostFunction& fn : image->functions) {
    for (const runtime::gpu::GpuLaunch& launch : fn.launches) {
      if (!seen.insert(launch.kernel).second) continue;
      std::string call;
      for (size_t i = 0; i < launch.params.size(); ++i) {
        const runtime::gpu::KernelParam& p = launch.params[i];
        std::string arg;
        if (p.kind == runtime::gpu::KernelParam::Kind::kPointer) {
          size_t a = 0;
          while (a < fn.signature.args.size() && fn.signature.args[a].name != p.name) ++a;
          EXPECT_LT(a, fn.signature.args.size()) << p.name;
          if (a == fn.signature.args.size()) return {};
          arg = absl::StrCat("(", codegen::cuda::CTypeOf(fn.signature.args[a].dtype), "*)args[", i,
                             "]");
        } else {
          arg = absl::StrCat(
              p.kind == runtime::gpu::KernelParam::Kind::kInt64 ? "*(long long*)" : "*(int*)",
              "args[", i, "]");
        }
        absl::StrAppend(&call, i ? ", " : "", arg);
      }
      absl::StrAppend(&trampolines, "extern \"C\" void tf_call_", launch.kernel, "(void** args) { ",
                      launch.kernel, "(", call, "); }\n");
    }
  }
  absl::StatusOr<codegen::cuda::EmulatedModule> emulated =
      codegen::cuda::EmulatedModule::Compile(*source, trampolines);
  EXPECT_TRUE(emulated.ok()) << emulated.status();
  if (!emulated.ok()) return {};

  // Every graph tensor in its own host buffer: params from the blob, inputs as given.
  const runtime::GraphDescription& graph = model.graph;
  std::vector<runtime::NDArray> tensors;
  for (const runtime::GraphTensor& t : graph.tensors) {
    absl::StatusOr<runtime::NDArray> a = runtime::NDArray::Empty(t.shape, t.dtype);
    EXPECT_TRUE(a.ok()) << a.status();
    if (!a.ok()) return {};
    if (t.kind == runtime::GraphTensorKind::kParam) {
      std::memcpy(a->data(), model.params.data() + t.param_offset, a->NumBytes());
    } else if (t.kind == runtime::GraphTensorKind::kInput) {
      auto it = inputs.find(t.name);
      EXPECT_NE(it, inputs.end()) << "no input " << t.name;
      if (it == inputs.end()) return {};
      std::memcpy(a->data(), it->second->data(), a->NumBytes());
    }
    tensors.push_back(*std::move(a));
  }
  for (const runtime::GraphStep& step : graph.steps) {
    const runtime::gpu::GpuHostFunction* fn = nullptr;
    for (const runtime::gpu::GpuHostFunction& f : image->functions) {
      if (f.signature.name == step.kernel) fn = &f;
    }
    EXPECT_NE(fn, nullptr) << step.kernel;
    if (fn == nullptr) return {};
    std::map<std::string, void*> by_name;
    for (size_t a = 0; a < step.args.size(); ++a) {
      by_name[fn->signature.args[a].name] = tensors[step.args[a].value].data();
    }
    for (const runtime::gpu::GpuLaunch& launch : fn->launches) {
      std::array<unsigned, 3> grid{}, block{};
      for (int d = 0; d < 3; ++d) {
        absl::StatusOr<int64_t> gd = runtime::gpu::EvalLaunchExpr(launch.grid[d], {});
        absl::StatusOr<int64_t> bd = runtime::gpu::EvalLaunchExpr(launch.block[d], {});
        EXPECT_TRUE(gd.ok() && bd.ok()) << launch.grid[d] << " " << launch.block[d];
        if (!gd.ok() || !bd.ok()) return {};
        grid[d] = static_cast<unsigned>(*gd);
        block[d] = static_cast<unsigned>(*bd);
      }
      std::vector<void*> args;
      for (const runtime::gpu::KernelParam& p : launch.params) args.push_back(by_name[p.name]);
      using CallFn = void(void**);
      CallFn* call = emulated->Kernel<CallFn>("tf_call_" + launch.kernel);
      EXPECT_NE(call, nullptr) << launch.kernel;
      if (call == nullptr) return {};
      emulated->Launch(grid, block, [&] { call(args.data()); });
    }
  }
  std::map<std::string, runtime::NDArray> outputs;
  for (size_t t = 0; t < graph.tensors.size(); ++t) {
    if (graph.tensors[t].kind == runtime::GraphTensorKind::kOutput) {
      outputs.emplace(graph.tensors[t].name, std::move(tensors[t]));
    }
  }
  return outputs;
}

}  // namespace tunefarm::graph::testing

#endif  // TUNEFARM_HAVE_CUDA

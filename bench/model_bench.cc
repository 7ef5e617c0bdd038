// model_bench: whole models against PyTorch on this machine, measured in the same run. For
// ResNet-18, MobileNet-v2 and VGG-16 at batch 1 and 1 and 2 threads: our module (untuned default
// schedules) built from the ONNX file scripts/export-models.py writes, against PyTorch eager
// (torch.inference_mode) and against torch.jit.freeze + optimize_for_inference, each at the same
// thread count (bench/support/pytorch_latency.py). Prints the medians and the ratios (PyTorch's
// time over ours: above 1 means we are faster), and the build time of each model.
//
//   model_bench [MODEL_DIR] [MODEL...]   (default /tmp/models, exported there when missing)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/support/median_time.h"
#include "bench/support/pytorch_reference.h"
#include "driver/model_compiler.h"
#include "runtime/core/thread_pool.h"

namespace tunefarm {
namespace {

int Run(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : "/tmp/models";
  std::vector<std::string> models;
  for (int i = 2; i < argc; ++i) models.push_back(argv[i]);
  if (models.empty()) models = {"resnet18", "mobilenet_v2", "vgg16"};
  std::printf(
      "model_bench: batch 1, 3x224x224, untuned default schedules; ratio = PyTorch / ours\n");
  std::printf("%-13s %3s %10s %10s %10s %8s %8s %9s\n", "model", "thr", "ours_ms", "eager_ms",
              "frozen_ms", "x_eager", "x_frozen", "build_s");
  for (const std::string& name : models) {
    absl::StatusOr<std::string> exported_onnx = bench::ExportedModel(dir, name);
    if (!exported_onnx.ok()) {
      std::fprintf(stderr, "model_bench: %s\n",
                   std::string(exported_onnx.status().message()).c_str());
      return 1;
    }
    const std::string& onnx = *exported_onnx;
    driver::ModelCompileOptions options;
    options.input_shapes["input"] = {1, 3, 224, 224};
    const auto start = std::chrono::steady_clock::now();
    absl::StatusOr<driver::CompiledModel> compiled =
        driver::CompileModel(onnx, options, target::Target::Host());
    const std::string module = dir + "/" + name + ".bench.so";
    absl::Status exported =
        compiled.ok() ? driver::ExportCompiledModel(*compiled, module) : compiled.status();
    const double build_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!exported.ok()) {
      std::fprintf(stderr, "model_bench: %s: %s\n", name.c_str(),
                   std::string(exported.message()).c_str());
      return 1;
    }
    absl::StatusOr<std::unique_ptr<driver::ModelExecutor>> executor =
        driver::LoadModelForRun(module, options, target::Target::Host());
    if (!executor.ok()) {
      std::fprintf(stderr, "model_bench: %s\n", std::string(executor.status().message()).c_str());
      return 1;
    }
    for (int threads : {1, 2}) {
      runtime::SetNumThreads(threads);
      absl::StatusOr<double> ours = bench::MedianSeconds([&] { return (*executor)->Run(); });
      absl::StatusOr<bench::PytorchTimes> torch = bench::MeasurePytorch(name, threads);
      if (!ours.ok() || !torch.ok()) {
        std::fprintf(stderr, "model_bench: %s: %s\n", name.c_str(),
                     std::string((!ours.ok() ? ours.status() : torch.status()).message()).c_str());
        return 1;
      }
      const double ms = *ours * 1000;
      std::printf("%-13s %3d %10.2f %10.2f %10.2f %8.2f %8.2f %9.1f\n", name.c_str(), threads, ms,
                  torch->eager_ms, torch->frozen_ms, torch->eager_ms / ms, torch->frozen_ms / ms,
                  build_s);
      std::fflush(stdout);
    }
    std::filesystem::remove(module);
  }
  return 0;
}

}  // namespace
}  // namespace tunefarm

int main(int argc, char** argv) { return tunefarm::Run(argc, argv); }

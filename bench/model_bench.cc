// model_bench: whole models against ONNX Runtime and PyTorch on this machine, measured in the
// same run. For each model of scripts/export-models.py (the round-2 CNNs, ViT-B/16, ConvNeXt-T,
// EfficientNet-B0, ShuffleNet-v2, RegNet-Y-400MF, ResNet-50, LR-ASPP and a transformer encoder)
// at batch 1 and 1 and 2 threads: our module (untuned default schedules) built from the ONNX file,
// against ONNX Runtime's CPU provider on the same file (bench/support/ort_latency.js; install it
// with bench/setup-onnxruntime.sh, else the column reads n/a), PyTorch eager
// (torch.inference_mode) and torch.jit.freeze + optimize_for_inference, each at the same thread
// count. Prints the medians and the ratios (their time over ours: above 1 means we are faster),
// and the build time of each model. resnet18_qdq and mobilenet_v2_qdq are the QDQ int8 exports
// (our int8 convolutions against ONNX Runtime's int8 kernels on the same file; PyTorch's columns
// read n/a there: its fake-quant modules time float math, not an int8 runtime).
//
//   model_bench [MODEL_DIR] [MODEL...]   (default /tmp/models, exported there when missing)
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/support/median_time.h"
#include "bench/support/ort_reference.h"
#include "bench/support/pytorch_reference.h"
#include "driver/model_compiler.h"
#include "runtime/core/thread_pool.h"

namespace tunefarm {
namespace {

int Run(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : "/tmp/models";
  std::vector<std::string> models;
  for (int i = 2; i < argc; ++i) models.push_back(argv[i]);
  if (models.empty()) {
    models = {"resnet18",
              "mobilenet_v2",
              "vgg16",
              "resnet50",
              "vit_b_16",
              "convnext_tiny",
              "efficientnet_b0",
              "shufflenet_v2_x1_0",
              "regnet_y_400mf",
              "lraspp_mobilenet_v3_large",
              "transformer_encoder",
              "resnet18_qdq",
              "mobilenet_v2_qdq"};
  }
  std::printf(
      "model_bench: batch 1 (3x224x224; the encoder 128x256), untuned default schedules; "
      "ratio = theirs / ours\n");
  std::printf("%-26s %3s %9s %9s %9s %9s %7s %7s %8s %8s\n", "model", "thr", "ours_ms", "ort_ms",
              "eager_ms", "frozen_ms", "x_ort", "x_eager", "x_frozen", "build_s");
  std::string ort_note;
  for (const std::string& name : models) {
    absl::StatusOr<std::string> exported_onnx = bench::ExportedModel(dir, name);
    if (!exported_onnx.ok()) {
      std::fprintf(stderr, "model_bench: %s\n",
                   std::string(exported_onnx.status().message()).c_str());
      return 1;
    }
    const std::string& onnx = *exported_onnx;
    driver::ModelCompileOptions options;
    const std::vector<int64_t> shape = name == "transformer_encoder"
                                           ? std::vector<int64_t>{1, 128, 256}
                                           : std::vector<int64_t>{1, 3, 224, 224};
    options.input_shapes["input"] = shape;
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
      const bool quantized = name.size() > 4 && name.compare(name.size() - 4, 4, "_qdq") == 0;
      absl::StatusOr<bench::PytorchTimes> torch =
          quantized ? bench::PytorchTimes{std::nan(""), std::nan("")}
                    : bench::MeasurePytorch(name, threads);
      if (!ours.ok() || !torch.ok()) {
        std::fprintf(stderr, "model_bench: %s: %s\n", name.c_str(),
                     std::string((!ours.ok() ? ours.status() : torch.status()).message()).c_str());
        return 1;
      }
      absl::StatusOr<bench::OrtTime> ort = bench::MeasureOnnxRuntime(onnx, shape, threads);
      if (!ort.ok()) {
        ort_note = std::string(ort.status().message());
      } else {
        ort_note = "ONNX Runtime " + ort->version + " (CPU provider, all graph optimizations)";
      }
      const double ms = *ours * 1000;
      const double ort_ms = ort.ok() ? ort->ms : std::nan("");
      std::printf("%-26s %3d %9.2f %9.2f %9.2f %9.2f %7.2f %7.2f %8.2f %8.1f\n", name.c_str(),
                  threads, ms, ort_ms, torch->eager_ms, torch->frozen_ms, ort_ms / ms,
                  torch->eager_ms / ms, torch->frozen_ms / ms, build_s);
      std::fflush(stdout);
    }
    std::filesystem::remove(module);
  }
  std::printf("ort: %s\n", ort_note.c_str());
  return 0;
}

}  // namespace
}  // namespace tunefarm

int main(int argc, char** argv) { return tunefarm::Run(argc, argv); }

#include "bench/support/pytorch_reference.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "bench/support/piped_child.h"

namespace tunefarm::bench {

absl::StatusOr<PytorchTimes> MeasurePytorch(const std::string& model, int threads) {
  absl::StatusOr<PipedChild> child = SpawnPiped(
      {"/usr/bin/python3", std::string(TUNEFARM_SOURCE_DIR) + "/bench/support/pytorch_latency.py",
       model, std::to_string(threads)});
  if (!child.ok()) return child.status();
  const std::string line = ReadLine(*child);
  EndPiped(*child, "", 5);
  PytorchTimes t;
  if (std::sscanf(line.c_str(), "eager_ms=%lf frozen_ms=%lf", &t.eager_ms, &t.frozen_ms) != 2) {
    return absl::UnavailableError("pytorch_latency.py printed '" + line + "'");
  }
  return t;
}

absl::StatusOr<std::string> ExportedModel(const std::string& dir, const std::string& model) {
  const std::string onnx = dir + "/" + model + ".onnx";
  if (std::filesystem::exists(onnx)) return onnx;
  const std::string export_cmd = "/usr/bin/python3 " + std::string(TUNEFARM_SOURCE_DIR) +
                                 "/scripts/export-models.py " + dir + " " + model + " >/dev/null";
  if (std::system(export_cmd.c_str()) != 0) {
    return absl::UnavailableError("cannot export " + model + " (python3-torch missing?)");
  }
  return onnx;
}

}  // namespace tunefarm::bench

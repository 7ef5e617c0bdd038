#include "bench/support/ort_reference.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "absl/strings/str_join.h"
#include "bench/support/piped_child.h"

namespace tunefarm::bench {
namespace {

std::string OrtDir() {
  if (const char* dir = std::getenv("TUNEFARM_ORT_DIR")) return dir;
  const char* home = std::getenv("HOME");
  return std::string(home ? home : "/tmp") + "/.cache/tunefarm/onnxruntime-node";
}

}  // namespace

absl::StatusOr<OrtTime> MeasureOnnxRuntime(const std::string& onnx,
                                           const std::vector<int64_t>& shape, int threads) {
  const std::string modules = OrtDir() + "/node_modules";
  if (!std::filesystem::exists(modules + "/onnxruntime-node")) {
    return absl::UnavailableError("onnxruntime-node is not in " + OrtDir() +
                                  " (run bench/setup-onnxruntime.sh)");
  }
  absl::StatusOr<PipedChild> child =
      SpawnPiped({"/usr/bin/env", "NODE_PATH=" + modules, "node",
                  std::string(TUNEFARM_SOURCE_DIR) + "/bench/support/ort_latency.js", onnx,
                  absl::StrJoin(shape, ","), std::to_string(threads)});
  if (!child.ok()) return child.status();
  const std::string line = ReadLine(*child);
  EndPiped(*child, "", 5);
  OrtTime t;
  char version[64] = {0};
  if (std::sscanf(line.c_str(), "ort_ms=%lf version=%63s", &t.ms, version) != 2) {
    return absl::UnavailableError("ort_latency.js printed '" + line + "'");
  }
  t.version = version;
  return t;
}

}  // namespace tunefarm::bench

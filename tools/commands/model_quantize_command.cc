#include "tools/commands/model_quantize_command.h"

#include <cstdio>

#include "absl/strings/str_split.h"
#include "compiler/frontend/onnx/onnx_importer.h"
#include "driver/array_file.h"
#include "tools/commands/exit_codes.h"

namespace tunefarm::tools {

int RunModelQuantizeCommand(const ModelQuantizeOptions& options, std::ostream& out,
                            std::ostream& err) {
  driver::QuantizeModelOptions q;
  if (options.method == "minmax") {
    q.method = driver::CalibrationMethod::kMinMax;
  } else if (options.method == "percentile") {
    q.method = driver::CalibrationMethod::kPercentile;
  } else {
    err << "tunefarm: --method must be minmax or percentile, not '" << options.method << "'\n";
    return kExitUsage;
  }
  q.percentile = options.percentile;
  q.qdq.per_channel_weights = !options.per_tensor;
  q.compile = options.compile;
  absl::StatusOr<std::vector<std::string>> inputs =
      frontend::onnx::ReadOnnxInputNames(options.file);
  if (!inputs.ok()) {
    err << "tunefarm: " << options.file << ": " << inputs.status().message() << "\n";
    return kExitFailed;
  }
  for (const std::string& entry : options.calibrate) {
    std::map<std::string, runtime::NDArray> sample;
    for (const std::string& part : std::vector<std::string>(absl::StrSplit(entry, ','))) {
      const size_t eq = part.find('=');
      std::string name, file = part;
      if (eq != std::string::npos) {
        name = part.substr(0, eq);
        file = part.substr(eq + 1);
      } else if (inputs->size() == 1) {
        name = inputs->front();
      } else {
        err << "tunefarm: --calibrate '" << entry << "': the model has " << inputs->size()
            << " inputs; give NAME=FILE for each\n";
        return kExitUsage;
      }
      absl::StatusOr<runtime::NDArray> array = driver::ReadArrayFile(file);
      if (!array.ok()) {
        err << "tunefarm: --calibrate " << file << ": " << array.status().message() << "\n";
        return kExitFailed;
      }
      sample[name] = *std::move(array);
    }
    q.calibration.push_back(std::move(sample));
  }
  absl::StatusOr<driver::QuantizeModelReport> report =
      driver::QuantizeModel(options.file, options.output, q);
  if (!report.ok()) {
    err << "tunefarm: " << options.file << ": " << report.status().message() << "\n";
    return kExitFailed;
  }
  const frontend::onnx::QdqSummary& s = report->summary;
  out << "wrote " << options.output << ": " << s.ops << " ops quantized (" << s.activations
      << " activations uint8, " << s.weights << " weights int8 "
      << (s.per_channel ? "per output channel" : "per tensor") << "), calibrated on "
      << report->samples << " samples (" << options.method << ")\n";
  char line[160];
  std::snprintf(line, sizeof(line),
                "int8 against float on the calibration inputs: largest difference %.2f %% of "
                "the largest output",
                100 * report->max_relative_difference);
  out << line;
  if (report->top1_rows > 0) {
    out << ", top-1 kept in " << report->top1_kept << " of " << report->top1_rows << " rows";
  }
  out << "\n";
  return kExitOk;
}

}  // namespace tunefarm::tools

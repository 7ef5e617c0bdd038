#include "tuner/measure/local_runner.h"

#include <cctype>

#include "absl/strings/str_cat.h"
#include "compiler/topi/cpu_info.h"
#include "runtime/measure/isolated_measurer.h"
#include "runtime/measure/measure_program.h"
#include "runtime/measure/measure_protocol.h"

namespace tunefarm::tuner {
namespace {

namespace rm = runtime::measure;

constexpr const char* kMeasuredBy = "local";

MeasureResult Failed(ErrorKind kind, std::string message, double build_seconds) {
  MeasureResult r;
  r.error_kind = kind;
  r.error_message = std::move(message);
  r.build_seconds = build_seconds;
  r.measured_by = kMeasuredBy;
  r.built_by = kMeasuredBy;  // the local runner measures what this process's builder made
  return r;
}

bool IsNoiseWord(const std::string& word) {
  return word == "processor" || word == "cpu" || word == "r" || word == "tm" || word.empty();
}

}  // namespace

std::string LocalDeviceKey(const std::string& cpu_model) {
  std::string model = cpu_model.substr(0, cpu_model.find(" @ "));  // "... @ 2.20GHz"
  std::vector<std::string> words(1);
  for (char c : model) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      words.back().push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    } else if (!words.back().empty()) {
      words.emplace_back();
    }
  }
  std::string key;
  for (const std::string& w : words) {
    if (IsNoiseWord(w)) continue;
    if (!key.empty() && key.size() + 1 + w.size() > 40) break;
    absl::StrAppend(&key, key.empty() ? "" : "-", w.substr(0, 40));
  }
  return absl::StrCat("local-", key.empty() ? "cpu" : key);
}

LocalRunner::LocalRunner(LocalRunnerOptions options, std::string program, std::string device_key)
    : options_(std::move(options)),
      device_key_(std::move(device_key)),
      measurer_(std::make_unique<rm::IsolatedMeasurer>(
          std::move(program), std::vector<std::string>{}, options_.reference_timeout_s)) {}

LocalRunner::~LocalRunner() = default;

absl::StatusOr<std::unique_ptr<LocalRunner>> LocalRunner::Create(LocalRunnerOptions options) {
  const MeasureOptions& m = options.measure;
  if (absl::Status s = ValidateMeasureOptions(m); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("local runner: ", s.message()));
  }
  absl::StatusOr<std::string> program = rm::FindMeasureProgram(options.program);
  if (!program.ok()) return program.status();
  std::string key =
      options.device_key.empty() ? LocalDeviceKey(topi::DetectHostCpu().model) : options.device_key;
  return std::unique_ptr<LocalRunner>(
      new LocalRunner(std::move(options), *std::move(program), std::move(key)));
}

std::vector<MeasureResult> LocalRunner::Run(const std::vector<MeasureInput>& inputs,
                                            const std::vector<BuildResult>& builds,
                                            double best_seconds) {
  std::vector<MeasureResult> results;
  results.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (i >= builds.size()) {
      results.push_back(Failed(ErrorKind::kRuntimeError, "no build result for this input", 0));
    } else if (builds[i].error_kind != ErrorKind::kOk) {
      results.push_back(
          Failed(builds[i].error_kind, builds[i].error_message, builds[i].build_seconds));
    } else {
      results.push_back(Measure(builds[i], best_seconds));
    }
  }
  return results;
}

MeasureResult LocalRunner::Measure(const BuildResult& build, double best_seconds) {
  rm::MeasureRequest request;
  request.library_path = build.library_path;
  request.function_name = build.function_name;
  request.reference_library_path = build.reference_library_path;
  request.reference_key = build.reference_key;
  request.options = options_.measure;
  request.options.check_correctness =
      options_.measure.check_correctness && !build.reference_library_path.empty();
  request.best_seconds = best_seconds;
  rm::MeasureOutcome outcome =
      measurer_->Measure(std::move(request), rm::CandidateDeadlineSeconds(options_.measure));
  MeasureResult result;
  result.error_kind = outcome.kind;
  result.error_message = std::move(outcome.message);
  result.repeat_seconds = std::move(outcome.repeat_seconds);
  result.canary_ratio = outcome.canary_ratio;
  result.noisy = outcome.noisy;
  result.build_seconds = build.build_seconds;
  result.measured_by = kMeasuredBy;
  result.built_by = kMeasuredBy;
  return result;
}

int LocalRunner::children_started() const { return measurer_->children_started(); }

}  // namespace tunefarm::tuner

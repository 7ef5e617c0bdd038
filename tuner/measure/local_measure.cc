#include "tuner/measure/local_measure.h"

namespace tunefarm::tuner {

absl::StatusOr<LocalMeasure> MakeLocalMeasure(const MeasureOptions& options,
                                              const std::string& device_key) {
  LocalBuilderOptions build;
  build.measure = options;
  absl::StatusOr<std::unique_ptr<LocalBuilder>> builder = LocalBuilder::Create(build);
  if (!builder.ok()) return builder.status();
  LocalRunnerOptions run;
  run.measure = options;
  run.device_key = device_key;
  absl::StatusOr<std::unique_ptr<LocalRunner>> runner = LocalRunner::Create(run);
  if (!runner.ok()) return runner.status();
  return LocalMeasure{*std::move(builder), *std::move(runner)};
}

}  // namespace tunefarm::tuner

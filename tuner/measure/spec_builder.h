// SpecBuilder: a building worker's compiler. It turns each lease's BuildSpec into a library with
// a LocalBuilder, making the spec's task through tuner::TaskFromBuildSpec exactly as the tracker
// does, and keeps the last few tasks so a job's leases do not re-create theirs.
#pragma once

#include <list>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "runtime/measure/candidate_builder.h"
#include "tuner/measure/local_builder.h"
#include "tuner/task.h"

namespace tunefarm::tuner {

class SpecBuilder final : public runtime::measure::CandidateBuilder {
 public:
  // `work_dir_parent` as LocalBuilderOptions'; the builders made here build one candidate at a
  // time.
  explicit SpecBuilder(std::string work_dir_parent = "");
  ~SpecBuilder() override;

  // A spec whose task cannot be made here, or whose config does not parse in the task's space,
  // is cannot_build with the reason; the candidate's own failures are invalid_config,
  // build_error or build_timeout.
  runtime::measure::BuiltCandidate Build(const runtime::measure::BuildSpec& spec) override;

  static constexpr size_t kTasksKept = 8;

 private:
  absl::StatusOr<const Task*> TaskFor(const runtime::measure::BuildSpec& spec);
  absl::StatusOr<LocalBuilder*> BuilderFor(const runtime::measure::BuildSpec& spec);

  std::string work_dir_parent_;
  // Most recently used first; a task is named by everything in the spec but the config.
  std::list<std::pair<std::string, std::unique_ptr<Task>>> tasks_;
  // One builder per (build timeout, with reference): its libraries of the last calls stay.
  std::map<std::pair<double, bool>, std::unique_ptr<LocalBuilder>> builders_;
};

}  // namespace tunefarm::tuner

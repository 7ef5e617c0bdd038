#include "tuner/measure/spec_builder.h"

#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
#include "compiler/space/config_json.h"
#include "tuner/templates/build_spec_task.h"

namespace tunefarm::tuner {
namespace {

namespace rm = runtime::measure;

rm::BuiltCandidate Failed(ErrorKind kind, std::string message) {
  rm::BuiltCandidate b;
  b.error_kind = kind;
  b.error_message = std::move(message);
  return b;
}

rm::BuiltCandidate CannotBuild(std::string message) {
  rm::BuiltCandidate b = Failed(ErrorKind::kBuildError, std::move(message));
  b.cannot_build = true;
  return b;
}

// Every field that shapes the task, unambiguously joined.
std::string TaskName(const rm::BuildSpec& spec) {
  return nlohmann::json({spec.workload_key, spec.script_name, spec.script_source,
                         spec.script_bindings, spec.target})
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

SpecBuilder::SpecBuilder(std::string work_dir_parent)
    : work_dir_parent_(std::move(work_dir_parent)) {}

SpecBuilder::~SpecBuilder() = default;

absl::StatusOr<const Task*> SpecBuilder::TaskFor(const rm::BuildSpec& spec) {
  const std::string name = TaskName(spec);
  for (auto it = tasks_.begin(); it != tasks_.end(); ++it) {
    if (it->first != name) continue;
    tasks_.splice(tasks_.begin(), tasks_, it);
    return tasks_.front().second.get();
  }
  absl::StatusOr<std::unique_ptr<Task>> task = TaskFromBuildSpec(spec);
  if (!task.ok()) return task.status();
  tasks_.emplace_front(name, *std::move(task));
  if (tasks_.size() > kTasksKept) tasks_.pop_back();
  return tasks_.front().second.get();
}

absl::StatusOr<LocalBuilder*> SpecBuilder::BuilderFor(const rm::BuildSpec& spec) {
  auto key = std::make_pair(spec.build_timeout_s, spec.with_reference);
  auto it = builders_.find(key);
  if (it != builders_.end()) return it->second.get();
  LocalBuilderOptions o;
  o.work_dir_parent = work_dir_parent_;
  o.parallelism = 1;
  o.measure.build_timeout_s = spec.build_timeout_s;
  o.measure.check_correctness = spec.with_reference;
  absl::StatusOr<std::unique_ptr<LocalBuilder>> made = LocalBuilder::Create(o);
  if (!made.ok()) return made.status();
  return builders_.emplace(key, *std::move(made)).first->second.get();
}

rm::BuiltCandidate SpecBuilder::Build(const rm::BuildSpec& spec) {
  absl::StatusOr<const Task*> task = TaskFor(spec);
  if (!task.ok()) return CannotBuild(absl::StrCat("task: ", task.status().message()));
  absl::StatusOr<space::Config> config = space::ConfigFromJson((*task)->space(), spec.config_json);
  if (!config.ok()) return CannotBuild(absl::StrCat("config: ", config.status().message()));
  absl::StatusOr<LocalBuilder*> builder = BuilderFor(spec);
  if (!builder.ok()) return CannotBuild(std::string(builder.status().message()));
  std::vector<BuildResult> built = (*builder)->Build({MeasureInput{*task, *std::move(config)}});
  if (built.empty()) return Failed(ErrorKind::kBuildError, "the builder returned no result");
  BuildResult& r = built[0];
  rm::BuiltCandidate b;
  b.error_kind = r.error_kind;
  b.error_message = std::move(r.error_message);
  b.library_path = std::move(r.library_path);
  b.function_name = std::move(r.function_name);
  b.reference_library_path = std::move(r.reference_library_path);
  b.reference_key = std::move(r.reference_key);
  b.build_seconds = r.build_seconds;
  return b;
}

}  // namespace tunefarm::tuner

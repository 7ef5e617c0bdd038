// Tuning a TE script with `cfg` knobs (docs/te-script.md, "Tunable scripts"): the script is the
// template. Its knobs are the config space, each config re-runs it in apply mode, and its
// workload key names the file and a hash of its text: "script/tune_matmul@1a2b3c4d:512:float32".
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/script/script.h"
#include "tuner/task.h"
#include "tuner/task_template.h"
#include "tuner/workload.h"

namespace tunefarm::tuner {

// "script/<file stem>@<8 hex digits of a stable 64-bit FNV-1a hash of the source>"; characters
// of the stem a workload key does not allow become '_'.
std::string ScriptTemplateName(const std::string& path_or_name, std::string_view source);

class ScriptTemplate final : public TaskTemplate {
 public:
  // Runs the script once (plain mode) to check it and to find its workload, outputs and flops.
  // `bindings` give its variables' values; empty means the script's "# bind:" line. Errors: the
  // script's own (FILE:LINE:COL), and a shape that stays symbolic (name the variable to bind).
  static absl::StatusOr<std::unique_ptr<ScriptTemplate>> Make(
      std::string path_or_name, std::string source, std::map<std::string, int64_t> bindings);

  // template_name from ScriptTemplateName, args the bound values in the order the script
  // creates its variables, dtype the first output's.
  const Workload& workload() const { return workload_; }

  absl::Status DefineSpace(space::ConfigSpace& space) const override;
  // The point every knob's fallback value makes (compiler/script/tuning.h FallbackIndex).
  absl::StatusOr<space::Config> DefaultConfig(const space::ConfigSpace& space) const override;
  absl::StatusOr<topi::ScheduledOp> Apply(const space::Config& config) const override;
  // A fresh, unscheduled schedule of the script's outputs (run at `config`), over the same args.
  // Knobs must not change the arguments' shapes: every config shares one reference.
  absl::StatusOr<topi::ScheduledOp> Reference(const space::Config& config) const override;
  double Flops() const override { return flops_; }

 private:
  ScriptTemplate() = default;
  absl::StatusOr<script::ScriptResult> Run(space::ConfigSpace* define_into,
                                           const space::Config* config) const;

  std::string filename_;
  std::string source_;
  std::map<std::string, int64_t> bindings_;  // empty: the bind line
  Workload workload_;
  std::vector<int64_t> fallback_indices_;
  double flops_ = 0;
};

// The task of tuning the script at `path_or_name` (its text `source`) on `target`, through
// Task::FromTemplate with the target's CPU (compiler/target/target_cpu.h).
absl::StatusOr<std::unique_ptr<Task>> CreateScriptTask(
    const std::string& path_or_name, std::string_view source,
    const std::map<std::string, int64_t>& bindings, const target::Target& target);

}  // namespace tunefarm::tuner

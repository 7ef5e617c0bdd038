#include "tuner/templates/script_template.h"

#include <cstdio>
#include <filesystem>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/target/target_cpu.h"
#include "compiler/te/flop_count.h"

namespace tunefarm::tuner {
namespace {

// FNV-1a, 64 bits: the same on every platform and build, so a script's key never drifts.
uint64_t StableHash(std::string_view text) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

bool IsKeyChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '.';
}

std::vector<te::Tensor> Outputs(const schedule::Schedule& s) {
  std::vector<te::Tensor> outputs;
  for (const te::Operation& op : s.outputs()) outputs.push_back(te::Tensor(op));
  return outputs;
}

}  // namespace

std::string ScriptTemplateName(const std::string& path_or_name, std::string_view source) {
  std::string stem = std::filesystem::path(path_or_name).stem().string();
  for (char& c : stem) {
    if (!IsKeyChar(c)) c = '_';
  }
  if (stem.empty()) stem = "script";
  char hash[9];
  std::snprintf(hash, sizeof(hash), "%08x", static_cast<unsigned>(StableHash(source) >> 32));
  return absl::StrCat("script/", stem, "@", hash);
}

absl::StatusOr<std::unique_ptr<ScriptTemplate>> ScriptTemplate::Make(
    std::string path_or_name, std::string source, std::map<std::string, int64_t> bindings) {
  std::unique_ptr<ScriptTemplate> t(new ScriptTemplate());
  t->filename_ = std::move(path_or_name);
  t->source_ = std::move(source);
  t->bindings_ = std::move(bindings);
  absl::StatusOr<script::ScriptResult> plain = t->Run(nullptr, nullptr);
  if (!plain.ok()) return plain.status();
  const std::vector<te::Tensor> outputs = Outputs(plain->schedule);
  absl::StatusOr<double> flops = te::CountFlops(outputs, {});
  if (!flops.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(t->filename_, ": ", flops.status().message(),
                     " (a tuned script needs constant shapes: bind its variables, e.g. n=512)"));
  }
  t->flops_ = *flops;
  t->fallback_indices_ = plain->knob_indices;
  t->workload_.template_name = ScriptTemplateName(t->filename_, t->source_);
  for (const auto& [name, value] : plain->bound_vars) t->workload_.args.push_back(value);
  t->workload_.dtype = outputs.front().dtype().ToString();
  return t;
}

absl::StatusOr<script::ScriptResult> ScriptTemplate::Run(space::ConfigSpace* define_into,
                                                         const space::Config* config) const {
  script::ScriptOptions options;
  if (!bindings_.empty()) options.bindings = bindings_;
  options.define_into = define_into;
  options.config = config;
  return script::RunScript(source_, filename_, options);
}

absl::Status ScriptTemplate::DefineSpace(space::ConfigSpace& space) const {
  return Run(&space, nullptr).status();
}

absl::StatusOr<space::Config> ScriptTemplate::DefaultConfig(const space::ConfigSpace& space) const {
  return space.FromKnobIndices(fallback_indices_);
}

absl::StatusOr<topi::ScheduledOp> ScriptTemplate::Apply(const space::Config& config) const {
  absl::StatusOr<script::ScriptResult> r = Run(nullptr, &config);
  if (!r.ok()) return r.status();
  return topi::ScheduledOp{std::move(r->schedule), std::move(r->args)};
}

absl::StatusOr<topi::ScheduledOp> ScriptTemplate::Reference(const space::Config& config) const {
  // At the config, in case a knob shapes the arguments; a config the script itself rejects
  // still gets the plain run's reference.
  absl::StatusOr<script::ScriptResult> r = Run(nullptr, &config);
  if (!r.ok()) r = Run(nullptr, nullptr);
  if (!r.ok()) return r.status();
  // The outputs' operations are the definitions (cache_read/cache_write rewrite stages, not the
  // tensors), so a fresh schedule of them is the plain loop nest.
  return topi::ScheduledOp{schedule::Schedule::Create(r->schedule.outputs()), std::move(r->args)};
}

absl::StatusOr<std::unique_ptr<Task>> CreateScriptTask(
    const std::string& path_or_name, std::string_view source,
    const std::map<std::string, int64_t>& bindings, const target::Target& target) {
  absl::StatusOr<std::unique_ptr<ScriptTemplate>> tmpl =
      ScriptTemplate::Make(path_or_name, std::string(source), bindings);
  if (!tmpl.ok()) return tmpl.status();
  Workload workload = (*tmpl)->workload();
  return Task::FromTemplate(std::move(workload), *std::move(tmpl), target,
                            target::CpuInfoOf(target));
}

}  // namespace tunefarm::tuner

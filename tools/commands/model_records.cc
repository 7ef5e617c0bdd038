#include "tools/commands/model_records.h"

#include <cstdio>

#include "absl/strings/str_cat.h"
#include "compiler/graph/fusion.h"
#include "compiler/space/config_json.h"
#include "compiler/topi/conv2d_knobs.h"
#include "compiler/topi/depthwise_conv2d_knobs.h"
#include "tuner/model_tasks.h"
#include "tuner/record.h"
#include "tuner/record_store.h"
#include "tuner/target_cpu.h"
#include "tuner/templates/conv2d_template.h"
#include "tuner/templates/conv_shape.h"
#include "tuner/templates/depthwise_conv2d_template.h"

namespace tunefarm::tools {
namespace {

// The record's config as the template's own config struct.
absl::StatusOr<graph::AnchorConfig> ConfigOf(const tuner::Workload& w, const std::string& json,
                                             const topi::CpuInfo& cpu) {
  const bool depthwise = w.template_name == "depthwise_conv2d";
  absl::StatusOr<tuner::templates::ConvShape> shape = tuner::templates::ParseConvShape(
      w, depthwise ? tuner::templates::DepthwiseConv2dTemplateInfo()
                   : tuner::templates::Conv2dTemplateInfo());
  if (!shape.ok()) return shape.status();
  space::ConfigSpace space;
  if (depthwise) {
    absl::StatusOr<topi::DepthwiseConv2dTensors> t = shape->DepthwiseConv2dInWholeVectors();
    if (!t.ok()) return t.status();
    absl::Status s = topi::DefineDepthwiseConv2dKnobs(space, *t, shape->window(), cpu);
    if (!s.ok()) return s;
  } else {
    absl::StatusOr<topi::Conv2dTensors> t = shape->Conv2dInWholeVectors();
    if (!t.ok()) return t.status();
    absl::Status s = topi::DefineConv2dKnobs(space, *t, shape->window(), cpu);
    if (!s.ok()) return s;
  }
  absl::StatusOr<space::Config> config = space::ConfigFromJson(space, json);
  if (!config.ok()) return config.status();
  if (depthwise) {
    absl::StatusOr<topi::DepthwiseConv2dScheduleConfig> c =
        topi::DepthwiseConv2dConfigFromKnobs(*config, cpu);
    if (!c.ok()) return c.status();
    return graph::AnchorConfig(*c);
  }
  absl::StatusOr<topi::Conv2dScheduleConfig> c = topi::Conv2dConfigFromKnobs(*config, cpu);
  if (!c.ok()) return c.status();
  return graph::AnchorConfig(*c);
}

}  // namespace

absl::StatusOr<TunedGroups> TunedConfigsFromRecords(const graph::Graph& fused,
                                                    const std::string& db,
                                                    const std::string& target,
                                                    const std::string& device_key,
                                                    const topi::CpuInfo& cpu) {
  absl::StatusOr<std::string> canonical = tuner::CanonicalTarget(target);
  if (!canonical.ok()) return canonical.status();
  absl::StatusOr<std::unique_ptr<tuner::RecordStore>> store = tuner::RecordStore::Open(db);
  if (!store.ok()) return store.status();
  const graph::FusionPlan plan = graph::PlanFusion(fused);
  TunedGroups tuned;
  for (const tuner::ModelTask& task : tuner::ExtractModelTasks(fused, plan)) {
    const std::string key = task.workload.Key();
    if (task.workload.template_name != "conv2d" &&
        task.workload.template_name != "depthwise_conv2d") {
      continue;  // gemm kernels use the default schedule: no template of theirs to configure
    }
    absl::StatusOr<std::optional<tuner::Record>> best =
        (*store)->Best({key, *canonical, device_key, std::nullopt});
    if (!best.ok()) return best.status();
    if (!best->has_value()) {
      tuned.missing.push_back(key);
      continue;
    }
    absl::StatusOr<graph::AnchorConfig> config = ConfigOf(task.workload, (*best)->config_json, cpu);
    if (!config.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("the best record of ", key, " in ", db,
                       " does not fit its template: ", config.status().message()));
    }
    for (int g : task.groups) tuned.configs[g] = *config;
    char ms[32];
    std::snprintf(ms, sizeof ms, "%.3f ms",
                  tuner::MedianSeconds((*best)->repeat_seconds).value_or(0) * 1e3);
    tuned.found.push_back(absl::StrCat(key, ": ", ms, " (", task.groups.size(), " groups)"));
  }
  return tuned;
}

}  // namespace tunefarm::tools

#include "tools/commands/model_records.h"

#include <cstdio>
#include <functional>
#include <memory>

#include "absl/strings/str_cat.h"
#include "compiler/graph/fusion.h"
#include "compiler/space/config_json.h"
#include "compiler/topi/conv2d_knobs.h"
#include "compiler/topi/conv2d_nchwc_knobs.h"
#include "compiler/topi/depthwise_conv2d_knobs.h"
#include "compiler/topi/depthwise_conv2d_nchwc_knobs.h"
#include "tuner/model_tasks.h"
#include "tuner/record.h"
#include "tuner/record_store.h"
#include "tuner/target_cpu.h"
#include "tuner/templates/conv2d_template.h"
#include "tuner/templates/conv_shape.h"
#include "tuner/templates/depthwise_conv2d_template.h"

namespace tunefarm::tools {
namespace {

// The record's config point in `space`, once `define` has declared the template's knobs there.
// The point refers to `space`, which must outlive it.
absl::StatusOr<space::Config> RecordPoint(
    space::ConfigSpace& space, const std::string& json,
    const std::function<absl::Status(space::ConfigSpace&)>& define) {
  if (absl::Status s = define(space); !s.ok()) return s;
  return space::ConfigFromJson(space, json);
}

// The record's config as the template's own config struct.
absl::StatusOr<graph::AnchorConfig> ConfigOf(const tuner::Workload& w, const std::string& json,
                                             const topi::CpuInfo& cpu) {
  const bool depthwise = w.template_name.rfind("depthwise_conv2d", 0) == 0;
  absl::StatusOr<tuner::templates::ConvShape> shape = tuner::templates::ParseConvShape(
      w, depthwise ? tuner::templates::DepthwiseConv2dTemplateInfo()
                   : tuner::templates::Conv2dTemplateInfo());
  if (!shape.ok()) return shape.status();
  const std::vector<int64_t> data = {shape->n, shape->c, shape->h, shape->w};
  space::ConfigSpace space;
  if (w.template_name == "conv2d_nchwc") {
    absl::StatusOr<space::Config> point = RecordPoint(space, json, [&](space::ConfigSpace& knobs) {
      return topi::DefineConv2dNchwcKnobs(knobs, data, {shape->o, shape->c, shape->kh, shape->kw},
                                          shape->window(), cpu);
    });
    if (!point.ok()) return point.status();
    absl::StatusOr<topi::Conv2dNchwcScheduleConfig> c =
        topi::Conv2dNchwcConfigFromKnobs(*point, cpu);
    if (!c.ok()) return c.status();
    return graph::AnchorConfig(*c);
  }
  if (w.template_name == "depthwise_conv2d_nchwc") {
    absl::StatusOr<space::Config> point = RecordPoint(space, json, [&](space::ConfigSpace& knobs) {
      return topi::DefineDepthwiseConv2dNchwcKnobs(knobs, data, shape->kh, shape->kw,
                                                   shape->window(), cpu);
    });
    if (!point.ok()) return point.status();
    absl::StatusOr<topi::DepthwiseConv2dNchwcScheduleConfig> c =
        topi::DepthwiseConv2dNchwcConfigFromKnobs(*point, cpu);
    if (!c.ok()) return c.status();
    return graph::AnchorConfig(*c);
  }
  if (depthwise) {
    absl::StatusOr<space::Config> point = RecordPoint(space, json, [&](space::ConfigSpace& knobs) {
      absl::StatusOr<topi::DepthwiseConv2dTensors> t = shape->DepthwiseConv2dInWholeVectors();
      if (!t.ok()) return t.status();
      return topi::DefineDepthwiseConv2dKnobs(knobs, *t, shape->window(), cpu);
    });
    if (!point.ok()) return point.status();
    absl::StatusOr<topi::DepthwiseConv2dScheduleConfig> c =
        topi::DepthwiseConv2dConfigFromKnobs(*point, cpu);
    if (!c.ok()) return c.status();
    return graph::AnchorConfig(*c);
  }
  absl::StatusOr<space::Config> point = RecordPoint(space, json, [&](space::ConfigSpace& knobs) {
    absl::StatusOr<topi::Conv2dTensors> t = shape->Conv2dInWholeVectors();
    if (!t.ok()) return t.status();
    return topi::DefineConv2dKnobs(knobs, *t, shape->window(), cpu);
  });
  if (!point.ok()) return point.status();
  absl::StatusOr<topi::Conv2dScheduleConfig> c = topi::Conv2dConfigFromKnobs(*point, cpu);
  if (!c.ok()) return c.status();
  return graph::AnchorConfig(*c);
}

}  // namespace

bool BuildAppliesRecordsOf(const tuner::Workload& workload) {
  const std::string& name = workload.template_name;
  return name == "conv2d" || name == "depthwise_conv2d" || name == "conv2d_nchwc" ||
         name == "depthwise_conv2d_nchwc";
}

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
    if (!BuildAppliesRecordsOf(task.workload)) {
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

absl::StatusOr<graph::ConvBlockChooser> TunedBlocksFromRecords(const std::string& db,
                                                               const std::string& target,
                                                               const std::string& device_key,
                                                               const topi::CpuInfo& cpu) {
  absl::StatusOr<std::string> canonical = tuner::CanonicalTarget(target);
  if (!canonical.ok()) return canonical.status();
  absl::StatusOr<std::unique_ptr<tuner::RecordStore>> opened = tuner::RecordStore::Open(db);
  if (!opened.ok()) return opened.status();
  std::shared_ptr<tuner::RecordStore> store = *std::move(opened);
  return graph::ConvBlockChooser(
      [store, target = *canonical, device_key, cpu](
          const graph::Graph& graph, const graph::Node& conv) -> std::optional<graph::ConvBlocks> {
        std::optional<tuner::Workload> w = tuner::BlockedWorkloadOfConv(graph, conv);
        if (!w) return std::nullopt;
        absl::StatusOr<std::optional<tuner::Record>> best =
            store->Best({w->Key(), target, device_key, std::nullopt});
        // A record that cannot be read leaves the default blocks; TunedConfigsFromRecords, which
        // reads the same records after the passes, reports it.
        if (!best.ok() || !best->has_value()) return std::nullopt;
        absl::StatusOr<graph::AnchorConfig> config = ConfigOf(*w, (*best)->config_json, cpu);
        if (!config.ok()) return std::nullopt;
        if (const auto* c = std::get_if<topi::Conv2dNchwcScheduleConfig>(&*config)) {
          return graph::ConvBlocks{c->ic_block, c->oc_block};
        }
        if (const auto* c = std::get_if<topi::DepthwiseConv2dNchwcScheduleConfig>(&*config)) {
          return graph::ConvBlocks{c->channel_block, c->channel_block};
        }
        return std::nullopt;
      });
}

}  // namespace tunefarm::tools

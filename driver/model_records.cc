#include "driver/model_records.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <optional>

#include "absl/strings/str_cat.h"
#include "compiler/graph/fusion.h"
#include "compiler/graph/winograd_rewrite.h"
#include "compiler/space/config_json.h"
#include "compiler/topi/conv2d_int8_knobs.h"
#include "compiler/topi/conv2d_knobs.h"
#include "compiler/topi/conv2d_nchwc_knobs.h"
#include "compiler/topi/conv2d_winograd_knobs.h"
#include "compiler/topi/dense_int8_knobs.h"
#include "compiler/topi/depthwise_conv2d_knobs.h"
#include "compiler/topi/depthwise_conv2d_nchwc_knobs.h"
#include "compiler/topi/gemm_knobs.h"
#include "compiler/topi/gpu_conv2d_knobs.h"
#include "compiler/topi/gpu_depthwise_conv2d_knobs.h"
#include "driver/record_db.h"
#include "tuner/model_tasks.h"
#include "tuner/record.h"
#include "tuner/record_store.h"
#include "tuner/templates/conv2d_int8_template.h"
#include "tuner/templates/conv2d_template.h"
#include "tuner/templates/conv_shape.h"
#include "tuner/templates/depthwise_conv2d_template.h"
#include "tuner/templates/gpu_conv_templates.h"

namespace tunefarm::driver {

// An ok record of a task, its config read as the template's, and its median time.
struct ModelRecords::Candidate {
  graph::AnchorConfig config;
  double seconds = 0;
  tuner::CacheFlush cache_flush = tuner::CacheFlush::kNone;  // how it was timed: compare alike
};

namespace {

using Candidate = ModelRecords::Candidate;

// The record's config point in `space`, once `define` has declared the template's knobs there.
// The point refers to `space`, which must outlive it.
absl::StatusOr<space::Config> RecordPoint(
    space::ConfigSpace& space, const std::string& json,
    const std::function<absl::Status(space::ConfigSpace&)>& define) {
  if (absl::Status s = define(space); !s.ok()) return s;
  return space::ConfigFromJson(space, json);
}

// A GPU record's config: the GPU conv2d's or depthwise conv2d's (NCHW, the layout GPU builds
// keep).
absl::StatusOr<graph::AnchorConfig> GpuConfigOf(const tuner::Workload& w, const std::string& json) {
  const bool depthwise = w.template_name == "depthwise_conv2d";
  if (!depthwise && w.template_name != "conv2d") {
    return absl::InvalidArgumentError(
        absl::StrCat(w.Key(), ": GPU builds configure conv2d and depthwise_conv2d only"));
  }
  absl::StatusOr<tuner::templates::ConvShape> shape = tuner::templates::ParseConvShape(
      w, depthwise ? tuner::templates::GpuDepthwiseConv2dTemplateInfo()
                   : tuner::templates::GpuConv2dTemplateInfo());
  if (!shape.ok()) return shape.status();
  space::ConfigSpace space;
  if (depthwise) {
    absl::StatusOr<space::Config> point = RecordPoint(space, json, [&](space::ConfigSpace& knobs) {
      absl::StatusOr<topi::DepthwiseConv2dTensors> t = shape->DepthwiseConv2d();
      if (!t.ok()) return t.status();
      return topi::DefineGpuDepthwiseConv2dKnobs(knobs, *t, shape->window());
    });
    if (!point.ok()) return point.status();
    absl::StatusOr<topi::GpuDepthwiseConv2dScheduleConfig> c =
        topi::GpuDepthwiseConv2dConfigFromKnobs(*point);
    if (!c.ok()) return c.status();
    return graph::AnchorConfig(*c);
  }
  absl::StatusOr<space::Config> point = RecordPoint(space, json, [&](space::ConfigSpace& knobs) {
    absl::StatusOr<topi::Conv2dTensors> t = shape->Conv2d();
    if (!t.ok()) return t.status();
    return topi::DefineGpuConv2dKnobs(knobs, *t, shape->window());
  });
  if (!point.ok()) return point.status();
  absl::StatusOr<topi::GpuConv2dScheduleConfig> c = topi::GpuConv2dConfigFromKnobs(*point);
  if (!c.ok()) return c.status();
  return graph::AnchorConfig(*c);
}

// The record's config as the template's own config struct.
absl::StatusOr<graph::AnchorConfig> ConfigOf(const tuner::Workload& w, const std::string& json,
                                             const topi::CpuInfo& cpu) {
  if (w.template_name == "dense_packed") {
    if (w.args.size() != 4) return absl::InvalidArgumentError(w.Key() + ": not M,N,K,block");
    space::ConfigSpace space;
    absl::StatusOr<space::Config> point = RecordPoint(space, json, [&](space::ConfigSpace& knobs) {
      return topi::DefineGemmKnobs(knobs, 1, w.args[0], w.args[1], w.args[2], cpu,
                                   topi::WeightLayout::kKN, w.args[3]);
    });
    if (!point.ok()) return point.status();
    absl::StatusOr<topi::GemmScheduleConfig> c = topi::GemmConfigFromKnobs(*point, cpu);
    if (!c.ok()) return c.status();
    return graph::AnchorConfig(*c);
  }
  if (w.template_name == "dense_int8") {
    if (w.args.size() != 3) return absl::InvalidArgumentError(w.Key() + ": not M,N,K");
    space::ConfigSpace space;
    absl::StatusOr<space::Config> point = RecordPoint(space, json, [&](space::ConfigSpace& knobs) {
      return topi::DefineDenseInt8Knobs(knobs, w.args[0], w.args[1], w.args[2], cpu);
    });
    if (!point.ok()) return point.status();
    absl::StatusOr<topi::DenseInt8Config> c = topi::DenseInt8ConfigFromKnobs(*point, cpu);
    if (!c.ok()) return c.status();
    return graph::AnchorConfig(*c);
  }
  if (w.template_name == "conv2d_int8") {
    absl::StatusOr<topi::Conv2dInt8Tensors> t = tuner::templates::Conv2dInt8WorkloadTensors(w, cpu);
    if (!t.ok()) return t.status();
    space::ConfigSpace space;
    absl::StatusOr<space::Config> point = RecordPoint(space, json, [&](space::ConfigSpace& knobs) {
      return topi::DefineConv2dInt8Knobs(knobs, *t, cpu);
    });
    if (!point.ok()) return point.status();
    absl::StatusOr<topi::Conv2dInt8Config> c = topi::Conv2dInt8ConfigFromKnobs(*point);
    if (!c.ok()) return c.status();
    return graph::AnchorConfig(*c);
  }
  const bool depthwise = w.template_name.rfind("depthwise_conv2d", 0) == 0;
  absl::StatusOr<tuner::templates::BlockedConvShape> blocked =
      tuner::templates::ParseBlockedConvShape(
          w, depthwise ? tuner::templates::DepthwiseConv2dTemplateInfo()
                       : tuner::templates::Conv2dTemplateInfo());
  if (!blocked.ok()) return blocked.status();
  const tuner::templates::ConvShape* shape = &blocked->shape;
  const std::optional<topi::NchwcBlocks>& blocks = blocked->blocks;
  const std::vector<int64_t> data = {shape->n, shape->c, shape->h, shape->w};
  space::ConfigSpace space;
  if (w.template_name == "conv2d_nchwc") {
    absl::StatusOr<space::Config> point = RecordPoint(space, json, [&](space::ConfigSpace& knobs) {
      return topi::DefineConv2dNchwcKnobs(knobs, data, {shape->o, shape->c, shape->kh, shape->kw},
                                          shape->window(), cpu, blocks);
    });
    if (!point.ok()) return point.status();
    absl::StatusOr<topi::Conv2dNchwcScheduleConfig> c =
        topi::Conv2dNchwcConfigFromKnobs(*point, cpu);
    if (!c.ok()) return c.status();
    return graph::AnchorConfig(*c);
  }
  if (w.template_name == "conv2d_winograd_nchwc") {
    if (!blocks) return absl::InvalidArgumentError(absl::StrCat(w.Key(), ": no channel blocks"));
    absl::StatusOr<space::Config> point = RecordPoint(space, json, [&](space::ConfigSpace& knobs) {
      return topi::DefineConv2dWinogradKnobs(knobs, blocks->oc_block, cpu);
    });
    if (!point.ok()) return point.status();
    absl::StatusOr<topi::Conv2dWinogradScheduleConfig> c =
        topi::Conv2dWinogradConfigFromKnobs(*point, cpu);
    if (!c.ok()) return c.status();
    return graph::AnchorConfig(*c);
  }
  if (w.template_name == "depthwise_conv2d_nchwc") {
    absl::StatusOr<space::Config> point = RecordPoint(space, json, [&](space::ConfigSpace& knobs) {
      return topi::DefineDepthwiseConv2dNchwcKnobs(
          knobs, data, shape->kh, shape->kw, shape->window(), cpu,
          blocks ? std::optional<int64_t>(blocks->oc_block) : std::nullopt);
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

// The tile a config runs with: a Winograd config's m, 0 for the other templates'.
int64_t TileOf(const graph::AnchorConfig& config) {
  const auto* winograd = std::get_if<topi::Conv2dWinogradScheduleConfig>(&config);
  return winograd != nullptr ? winograd->tile : 0;
}

// The fastest candidate, of those with `tile` when it is given.
const Candidate* Fastest(const std::vector<Candidate>& candidates, std::optional<int64_t> tile) {
  const Candidate* best = nullptr;
  for (const Candidate& c : candidates) {
    if (tile && TileOf(c.config) != *tile) continue;
    if (best == nullptr || c.seconds < best->seconds) best = &c;
  }
  return best;
}

}  // namespace

struct ModelRecords::State {
  std::unique_ptr<tuner::RecordStore> store;
  std::string db;
  std::string target;  // canonical, as records are keyed
  std::string device_key;
  topi::CpuInfo cpu;
  bool gpu = false;  // the records are a GPU target's: its templates' configs
  std::map<std::string, absl::StatusOr<std::vector<Candidate>>> by_key;
  std::map<std::string, absl::StatusOr<std::optional<double>>> transform_seconds;
  std::optional<LayoutPlan> chosen_layout;
  std::vector<AlgorithmChoice> algorithm_choices;  // WinogradChoice's log

  // The fastest ok record's median of a layout transform, of the timing closest to a model's as
  // for the kernels. Read once per key.
  const absl::StatusOr<std::optional<double>>& TransformSeconds(const tuner::Workload& w) {
    const std::string key = w.Key();
    auto it = transform_seconds.find(key);
    if (it == transform_seconds.end()) it = transform_seconds.emplace(key, ReadTransform(w)).first;
    return it->second;
  }

  absl::StatusOr<std::optional<double>> ReadTransform(const tuner::Workload& w) {
    for (tuner::CacheFlush flush :
         {tuner::CacheFlush::kWeights, tuner::CacheFlush::kAll, tuner::CacheFlush::kNone}) {
      absl::StatusOr<std::vector<tuner::Record>> records =
          store->TaskRecords(w.Key(), target, device_key, flush);
      if (!records.ok()) {
        return absl::Status(
            records.status().code(),
            absl::StrCat("the records of ", w.Key(), " in ", db, ": ", records.status().message()));
      }
      std::optional<double> best;
      for (const tuner::Record& r : *records) {
        if (r.error_kind != tuner::ErrorKind::kOk) continue;
        const std::optional<double> seconds = tuner::MedianSeconds(r.repeat_seconds);
        if (seconds && *seconds > 0 && (!best || *seconds < *best)) best = seconds;
      }
      if (best) return best;
    }
    return std::optional<double>();
  }

  // Every ok record of the workload on (target, device key) whose config fits its template, of
  // those timed with the weights evicted (as model tuning times) when there are any, else with
  // every cache flushed, else the warm ones; records that do not fit (from another compiler) are
  // passed over, and InvalidArgument names the first when none fits. Errors say "the records of KEY
  // in DB: ...". Read once per key.
  const absl::StatusOr<std::vector<Candidate>>& OkCandidates(const tuner::Workload& w) {
    const std::string key = w.Key();
    auto it = by_key.find(key);
    if (it == by_key.end()) it = by_key.emplace(key, ReadOkCandidates(w)).first;
    return it->second;
  }

  absl::StatusOr<std::vector<Candidate>> ReadOkCandidates(const tuner::Workload& w) {
    absl::StatusOr<std::vector<Candidate>> found = std::vector<Candidate>();
    for (tuner::CacheFlush flush :
         {tuner::CacheFlush::kWeights, tuner::CacheFlush::kAll, tuner::CacheFlush::kNone}) {
      found = ReadOkCandidates(w, flush);
      if (!found.ok() || !found->empty()) break;
    }
    return found;
  }

  absl::StatusOr<std::vector<Candidate>> ReadOkCandidates(const tuner::Workload& w,
                                                          tuner::CacheFlush cache_flush) {
    auto in_records = [&](const absl::Status& s, absl::string_view what = "") {
      return absl::Status(
          s.code(), absl::StrCat("the records of ", w.Key(), " in ", db, ": ", what, s.message()));
    };
    absl::StatusOr<std::vector<tuner::Record>> records =
        store->TaskRecords(w.Key(), target, device_key, cache_flush);
    if (!records.ok()) return in_records(records.status());
    std::vector<Candidate> out;
    absl::Status unfit;
    for (const tuner::Record& r : *records) {
      if (r.error_kind != tuner::ErrorKind::kOk) continue;
      const std::optional<double> seconds = tuner::MedianSeconds(r.repeat_seconds);
      if (!seconds || *seconds <= 0) continue;
      absl::StatusOr<graph::AnchorConfig> config =
          gpu ? GpuConfigOf(w, r.config_json) : ConfigOf(w, r.config_json, cpu);
      if (!config.ok()) {
        if (unfit.ok()) unfit = config.status();
        continue;
      }
      out.push_back({*config, *seconds, cache_flush});
    }
    if (out.empty() && !unfit.ok()) {
      return in_records(absl::InvalidArgumentError(unfit.message()),
                        "no record fits its template: ");
    }
    return out;
  }
};

absl::StatusOr<ModelRecords> ModelRecords::Open(const std::string& db,
                                                const graph::KernelTarget& target,
                                                const std::string& device_key) {
  // A build reads records: a mistyped --db is an error, not an empty database and a silent
  // untuned build.
  absl::StatusOr<std::unique_ptr<tuner::RecordStore>> store = OpenRecordDb(db, DbMode::kMustExist);
  if (!store.ok()) return store.status();
  auto state = std::make_shared<State>();
  state->store = *std::move(store);
  state->db = db;
  state->target = target.target.str();
  state->device_key = device_key;
  state->cpu = target.cpu;
  state->gpu = target.is_gpu();
  return ModelRecords(std::move(state));
}

bool BuildAppliesRecordsOf(const tuner::Workload& workload) {
  const std::string& name = workload.template_name;
  return name == "conv2d" || name == "depthwise_conv2d" || name == "conv2d_nchwc" ||
         name == "depthwise_conv2d_nchwc" || name == "conv2d_winograd_nchwc" ||
         name == "conv2d_int8" || name == "dense_int8" || name == "dense_packed";
}

absl::StatusOr<TunedGroups> ModelRecords::TunedConfigs(const graph::Graph& fused) const {
  const graph::FusionPlan plan = graph::PlanFusion(fused);
  TunedGroups tuned;
  for (const tuner::ModelTask& task : tuner::ExtractModelTasks(fused, plan)) {
    const std::string key = task.workload.Key();
    if (!BuildAppliesRecordsOf(task.workload)) {
      continue;  // listed apart: no template of theirs the build configures
    }
    const absl::StatusOr<std::vector<Candidate>>& candidates = state_->OkCandidates(task.workload);
    if (!candidates.ok()) return candidates.status();
    // The workload fixes the blocks of the layout its groups have, so every record fits them all;
    // a Winograd conv's transformed weight fixes its tile too (the same for all its groups, since
    // the algorithm is chosen per workload).
    const graph::Node& anchor = fused.nodes()[plan.groups[task.groups.front()].anchor];
    const int64_t tile = anchor.attrs.Int("tile", 0).value_or(0);
    const Candidate* best = Fastest(*candidates, tile);
    if (best == nullptr) {
      tuned.missing.push_back(key);
      continue;
    }
    for (int g : task.groups) tuned.configs[g] = best->config;
    char ms[32];
    std::snprintf(ms, sizeof ms, "%.3f ms", best->seconds * 1e3);
    tuned.found.push_back(absl::StrCat(key, ": ", ms, " (", task.groups.size(), " groups)"));
  }
  return tuned;
}

graph::WinogradChooser ModelRecords::WinogradChoice(std::map<std::string, int64_t> forced) const {
  return [state = state_, forced = std::move(forced)](
             const graph::Graph& graph, const graph::Node& node) -> absl::StatusOr<int64_t> {
    const std::optional<tuner::Workload> direct = tuner::NodeWorkload(graph, node);
    if (!direct) return graph::DefaultWinogradTile(graph, node);
    const std::string key = direct->Key();
    const auto force = forced.find(key);
    const tuner::Workload winograd{"conv2d_winograd_nchwc", direct->args};
    const absl::StatusOr<std::vector<Candidate>>* ok[2] = {&state->OkCandidates(*direct),
                                                           &state->OkCandidates(winograd)};
    const Candidate* fastest[2] = {nullptr, nullptr};
    for (int i = 0; i < 2; ++i) {
      if (!ok[i]->ok()) return ok[i]->status();
      fastest[i] = Fastest(**ok[i], std::nullopt);
    }
    const int64_t winograd_tile = fastest[1] != nullptr ? TileOf(fastest[1]->config) : 0;
    const bool both_alike = fastest[0] != nullptr && fastest[1] != nullptr &&
                            fastest[0]->cache_flush == fastest[1]->cache_flush;
    if (both_alike) {
      const int64_t chosen = force != forced.end()                       ? force->second
                             : fastest[1]->seconds < fastest[0]->seconds ? winograd_tile
                                                                         : 0;
      auto logged = std::find_if(state->algorithm_choices.begin(), state->algorithm_choices.end(),
                                 [&](const AlgorithmChoice& c) { return c.workload == key; });
      if (logged == state->algorithm_choices.end()) {
        AlgorithmChoice choice{key, 0, chosen, force != forced.end(), {{0, fastest[0]->seconds}}};
        for (const Candidate& c : **ok[1]) {
          auto [it, added] = choice.best_seconds.emplace(TileOf(c.config), c.seconds);
          if (!added) it->second = std::min(it->second, c.seconds);
        }
        state->algorithm_choices.push_back(std::move(choice));
        logged = std::prev(state->algorithm_choices.end());
      }
      ++logged->convs;
      return chosen;
    }
    if (force != forced.end()) return force->second;
    // One algorithm measured says nothing of the other, nor does a time taken one way against one
    // taken another (warm, weights evicted, every cache flushed): the rule, with the measured tile.
    absl::StatusOr<int64_t> rule = graph::DefaultWinogradTile(graph, node);
    if (!rule.ok() || *rule == 0 || winograd_tile == 0) return rule;
    return winograd_tile;
  };
}

std::vector<AlgorithmChoice> ModelRecords::AlgorithmChoices() const {
  return state_->algorithm_choices;
}

graph::ConvBlockPlanner ModelRecords::LayoutChoice(bool winograd) const {
  return [state = state_,
          winograd](const graph::Graph& graph) -> absl::StatusOr<graph::ConvBlockPlan> {
    const WorkloadSeconds seconds =
        [&state](const tuner::Workload& w) -> absl::StatusOr<std::optional<double>> {
      if (w.template_name == "layout_transform") return state->TransformSeconds(w);
      const absl::StatusOr<std::vector<Candidate>>& ok = state->OkCandidates(w);
      if (!ok.ok()) return ok.status();
      const Candidate* best = Fastest(*ok, std::nullopt);
      return best != nullptr ? std::optional<double>(best->seconds) : std::nullopt;
    };
    absl::StatusOr<LayoutPlan> plan = PlanConvBlocks(graph, state->cpu, seconds, winograd);
    if (!plan.ok()) return plan.status();
    state->chosen_layout = *plan;
    return plan->plan;
  };
}

const std::optional<LayoutPlan>& ModelRecords::ChosenLayout() const {
  return state_->chosen_layout;
}

}  // namespace tunefarm::driver

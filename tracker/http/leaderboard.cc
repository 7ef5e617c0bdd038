#include "tracker/http/leaderboard.h"

#include <map>
#include <utility>

#include "compiler/space/config_json.h"
#include "compiler/target/target.h"
#include "tracker/http/api_json.h"
#include "tuner/templates/template_registry.h"
#include "tuner/workload.h"

namespace tunefarm::tracker::http {
namespace {

using nlohmann::json;

// The template's default config of the workload on `target`, as JSON, with the task that parses
// stored configs; nullopt when the key names no template (a TE script's workload).
struct DefaultOf {
  std::unique_ptr<tuner::Task> task;
  std::string config_json;
};

std::optional<DefaultOf> DefaultConfig(const std::string& workload_key, const std::string& target) {
  absl::StatusOr<tuner::Workload> workload = tuner::ParseWorkloadKey(workload_key);
  if (!workload.ok()) return std::nullopt;
  absl::StatusOr<target::Target> parsed = target::ParseTarget(target);
  if (!parsed.ok()) return std::nullopt;
  absl::StatusOr<std::unique_ptr<tuner::Task>> task = tuner::CreateTask(*workload, *parsed);
  if (!task.ok()) return std::nullopt;
  absl::StatusOr<space::Config> config = (*task)->DefaultConfig();
  if (!config.ok()) return std::nullopt;
  std::string text = space::ConfigToJson(*config);
  return DefaultOf{*std::move(task), std::move(text)};
}

// The default config's best record on (target, device key); null when none.
json DefaultRecord(tuner::RecordStore& store, const tuner::BestQuery& query, const DefaultOf& def,
                   std::optional<double> flops) {
  absl::StatusOr<std::optional<tuner::StoredRecord>> row =
      store.BestWithConfig(query, def.config_json);
  if (!row.ok() || !row->has_value()) return nullptr;
  // The SQL match is on canonical text; confirm it is the same point of the task's space.
  absl::StatusOr<space::Config> stored =
      space::ConfigFromJson(def.task->space(), (*row)->record.config_json);
  absl::StatusOr<space::Config> wanted = space::ConfigFromJson(def.task->space(), def.config_json);
  if (!stored.ok() || !wanted.ok() || stored->index() != wanted->index()) return nullptr;
  std::optional<double> median = tuner::MedianSeconds((*row)->record.repeat_seconds);
  return {{"record_id", (*row)->id},
          {"median_seconds", median ? json(*median) : json(nullptr)},
          {"gflops", Gflops(flops, median)}};
}

}  // namespace

json DefaultConfigRecord(tuner::RecordStore& store, const std::string& workload_key,
                         const std::string& target, const std::string& device_key,
                         tuner::CacheFlush cache_flush) {
  std::optional<DefaultOf> def = DefaultConfig(workload_key, target);
  if (!def) return nullptr;
  absl::StatusOr<std::optional<double>> flops = store.WorkloadFlops(workload_key);
  return DefaultRecord(store, {workload_key, target, device_key, std::nullopt, cache_flush}, *def,
                       flops.ok() ? *flops : std::nullopt);
}

absl::StatusOr<json> LeaderboardJson(tuner::RecordStore& store) {
  absl::StatusOr<std::vector<tuner::WorkloadEntry>> workloads = store.Workloads();
  if (!workloads.ok()) return workloads.status();
  json out = json::array();
  for (const tuner::WorkloadEntry& w : *workloads) {
    absl::StatusOr<std::vector<tuner::StoredRecord>> best = store.BestPerDeviceWithIds(w.key);
    if (!best.ok()) return best.status();
    // One task per target: building it sizes the template's space, which is not free.
    std::map<std::string, std::optional<DefaultOf>> defaults;
    json rows = json::array();
    for (const tuner::StoredRecord& b : *best) {
      const tuner::Record& r = b.record;
      auto it = defaults.find(r.target);
      if (it == defaults.end())
        it = defaults.emplace(r.target, DefaultConfig(w.key, r.target)).first;
      std::optional<double> median = tuner::MedianSeconds(r.repeat_seconds);
      json def =
          it->second
              ? DefaultRecord(store,
                              {r.workload_key, r.target, r.device_key, std::nullopt, r.cache_flush},
                              *it->second, w.flops)
              : json(nullptr);
      json speedup = nullptr;
      if (def.is_object() && def["median_seconds"].is_number() && median && *median > 0) {
        speedup = def["median_seconds"].get<double>() / *median;
      }
      rows.push_back({
          {"target", r.target},
          {"device_key", r.device_key},
          {"record_id", b.id},
          {"median_seconds", median ? json(*median) : json(nullptr)},
          {"gflops", Gflops(w.flops, median)},
          {"config", ConfigObject(r.config_json)},
          {"measured_by", r.measured_by},
          {"default_config", it->second ? ConfigObject(it->second->config_json) : json(nullptr)},
          {"default", def},
          {"speedup", speedup},
      });
    }
    out.push_back(
        {{"key", w.key}, {"flops", w.flops ? json(*w.flops) : json(nullptr)}, {"best", rows}});
  }
  return json{{"workloads", out}};
}

}  // namespace tunefarm::tracker::http

#include "tuner/search/strategy_factory.h"

#include <map>
#include <string>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "spdlog/spdlog.h"
#include "tuner/search/genetic_search.h"
#include "tuner/search/grid_search.h"
#include "tuner/search/model_based_search.h"
#include "tuner/search/random_search.h"
#include "tuner/search/transfer_rows.h"

namespace tunefarm::tuner {
namespace {

// Groups the records other tasks left (another shape, device or target) by where they were
// measured and turns each group into training rows.
void AddTransferSources(const Task& task, const StrategyOptions& o, StrategyBundle& bundle,
                        ModelBasedSearch& search) {
  if (o.transfer_from == nullptr || !o.make_task) return;
  TransferQuery query;
  query.template_name = task.workload().template_name;
  query.workload_key = task.key();
  query.target = task.target().str();
  query.device_key = o.device_key;
  query.other_devices = o.transfer_other_devices;
  query.cache_flush = o.transfer_cache_flush;
  query.limit = o.transfer_limit;
  absl::StatusOr<std::vector<Record>> records = o.transfer_from->TransferRecords(query);
  if (!records.ok()) {
    spdlog::warn("transfer: cannot read records: {}", std::string(records.status().message()));
    return;
  }
  std::map<std::tuple<std::string, std::string, std::string>, std::vector<Record>> groups;
  for (Record& r : *records) {
    groups[{r.workload_key, r.target, r.device_key}].push_back(std::move(r));
  }
  int rows = 0, sources = 0;
  for (auto& [where, group] : groups) {
    const auto& [key, target, device] = where;
    const std::string source = absl::StrCat(key, " on ", device);
    absl::StatusOr<Workload> w = ParseWorkloadKey(key);
    absl::StatusOr<std::unique_ptr<Task>> other =
        w.ok() ? o.make_task(*w) : absl::StatusOr<std::unique_ptr<Task>>(w.status());
    if (!other.ok()) {
      spdlog::info("transfer: skipping {}: {}", source, std::string(other.status().message()));
      continue;
    }
    FeatureOptions fo;
    fo.knob_only = o.knob_features_only;
    auto extractor = std::make_unique<FeatureExtractor>(**other, fo);
    absl::StatusOr<TransferRows> t = RowsFromRecords(*extractor, group, source);
    if (!t.ok()) continue;
    int n = static_cast<int>(t->throughput.size());
    if (absl::Status s = search.AddTransfer(*std::move(t)); !s.ok()) {
      spdlog::info("transfer: skipping {}: {}", source, std::string(s.message()));
      continue;
    }
    rows += n;
    ++sources;
    bundle.extractors.push_back(std::move(extractor));
    bundle.transfer_tasks.push_back(*std::move(other));
  }
  if (sources > 0) {
    bundle.transfer_summary =
        absl::StrCat("transfer: ", rows, " rows from ", sources, " other workloads or devices");
  }
}

}  // namespace

absl::Status CheckStrategyName(std::string_view name) {
  for (std::string_view known : {"xgb", "random", "grid", "ga"}) {
    if (name == known) return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown tuner '", std::string(name).substr(0, 80),
                                                 "' (known: xgb, random, grid, ga)"));
}

absl::StatusOr<std::unique_ptr<StrategyBundle>> MakeSearchStrategy(const Task& task,
                                                                   const StrategyOptions& o) {
  if (absl::Status s = CheckStrategyName(o.name); !s.ok()) return s;
  auto bundle = std::make_unique<StrategyBundle>();
  if (o.name == "random") {
    bundle->strategy = std::make_unique<RandomSearch>(task.space(), o.seed);
  } else if (o.name == "grid") {
    bundle->strategy = std::make_unique<GridSearch>(task.space());
  } else if (o.name == "ga") {
    GeneticOptions g;
    g.seed = o.seed;
    bundle->strategy = std::make_unique<GeneticSearch>(task.space(), g);
  } else if (o.name == "xgb") {
    FeatureOptions fo;
    fo.knob_only = o.knob_features_only;
    bundle->extractors.push_back(std::make_unique<FeatureExtractor>(task, fo));
    ModelBasedOptions m = o.model_based;
    m.seed = o.seed;
    auto search = std::make_unique<ModelBasedSearch>(*bundle->extractors.front(), m);
    AddTransferSources(task, o, *bundle, *search);
    bundle->strategy = std::move(search);
  }
  return bundle;
}

}  // namespace tunefarm::tuner

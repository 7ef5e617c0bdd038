#include "tools/commands/best_command.h"

#include <cstdio>
#include <map>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/target/target.h"
#include "driver/record_db.h"
#include "tools/commands/exit_codes.h"
#include "tools/commands/tune_command.h"
#include "tuner/record_json.h"
#include "tuner/templates/template_registry.h"
#include "tuner/workload.h"

namespace tunefarm::tools {

int RunBestCommand(const BestOptions& o, std::ostream& out, std::ostream& err) {
  absl::StatusOr<tuner::Workload> workload = tuner::ParseWorkloadKey(o.workload);
  if (!workload.ok()) {
    err << "tunefarm: " << workload.status().message() << "\n";
    return kExitUsage;
  }
  std::string target;
  if (!o.target.empty()) {
    absl::StatusOr<target::Target> parsed = target::ParseTarget(o.target);
    if (!parsed.ok()) {
      err << "tunefarm: " << parsed.status().message() << "\n";
      return kExitUsage;
    }
    target = parsed->str();
  }
  // The key must name a template and fit its arguments, as in every command that takes one
  // (a key no template accepts has no records to show).
  absl::StatusOr<target::Target> template_target =
      target::ParseTarget(o.target.empty() ? "llvm" : o.target);
  absl::StatusOr<std::unique_ptr<tuner::Task>> task =
      template_target.ok() ? tuner::CreateTask(*workload, *template_target)
                           : template_target.status();
  if (!task.ok()) {
    err << "tunefarm: " << task.status().message() << "\n";
    return kExitUsage;
  }
  const std::string key = workload->Key();
  std::vector<tuner::Record> shown;
  std::optional<double> flops;
  if (o.db.empty()) {
    absl::StatusOr<std::unique_ptr<client::FarmClient>> client =
        client::FarmClient::Connect(o.farm);
    absl::StatusOr<std::vector<client::BestRecord>> best =
        client.ok() ? (*client)->QueryBest(key, target, o.device) : client.status();
    if (!best.ok()) {
      err << "tunefarm: " << best.status().message() << "\n";
      return ExitCodeOf(best.status());
    }
    for (client::BestRecord& b : *best) {
      if (b.median_seconds > 0 && b.gflops > 0) flops = b.gflops * 1e9 * b.median_seconds;
      shown.push_back(std::move(b.record));
    }
  } else {
    absl::StatusOr<std::unique_ptr<tuner::RecordStore>> store =
        driver::OpenRecordDb(o.db, driver::DbMode::kMustExist);
    if (!store.ok()) {
      err << "tunefarm: " << store.status().message() << "\n";
      return kExitFailed;
    }
    absl::StatusOr<std::vector<tuner::Record>> best = (*store)->BestPerDevice(key, target);
    if (!best.ok()) {
      err << "tunefarm: " << best.status().message() << "\n";
      return ExitCodeOf(best.status());
    }
    for (tuner::Record& r : *best) {
      if (o.device.empty() || r.device_key == o.device) shown.push_back(std::move(r));
    }
    absl::StatusOr<std::optional<double>> stored_flops = (*store)->WorkloadFlops(key);
    if (stored_flops.ok()) flops = *stored_flops;
  }
  if (shown.empty()) {
    err << "tunefarm: no successful record of " << key
        << (target.empty() ? "" : absl::StrCat(" on ", target::DisplayTarget(target)))
        << (o.device.empty() ? "" : absl::StrCat(" for device ", o.device)) << " in "
        << (o.db.empty() ? absl::StrCat("the farm at ", o.farm.tracker) : o.db) << "\n";
    return kExitFailed;
  }
  for (const tuner::Record& r : shown) {
    if (o.json) {
      out << tuner::RecordToJsonLine(r) << "\n";
      continue;
    }
    double median = tuner::MedianSeconds(r.repeat_seconds).value_or(0);
    char line[160];
    std::snprintf(line, sizeof(line), "median_ms=%.4f", median * 1e3);
    // One row per timing kind: say which, in the words of --timing.
    out << key << "  target=\"" << target::DisplayTarget(r.target) << "\"  device=" << r.device_key
        << "  timing=" << TimingName(r.cache_flush) << "  " << line;
    if (flops.has_value() && median > 0) {
      std::snprintf(line, sizeof(line), "  gflops=%.2f", *flops / median / 1e9);
      out << line;
    }
    std::snprintf(line, sizeof(line), "  spread=%.1f%%%s", 100 * tuner::SpreadOf(r.repeat_seconds),
                  r.noisy ? "  noisy" : "");
    out << line << "  measured_by=" << r.measured_by << (r.emulated ? "  emulated" : "")
        << "  version=" << r.tunefarm_version << "\n  config=" << r.config_json << "\n";
  }
  return 0;
}

}  // namespace tunefarm::tools

#include "driver/tuned_schedule.h"

#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/space/config_json.h"
#include "compiler/topi/cpu_info.h"
#include "driver/record_db.h"
#include "tuner/measure/local_runner.h"
#include "tuner/templates/script_template.h"

namespace tunefarm::driver {

namespace {

std::string DeviceOf(const TunedLookup& lookup) {
  return lookup.device_key.empty() ? tuner::LocalDeviceKey(topi::DetectHostCpu().model)
                                   : lookup.device_key;
}

}  // namespace

absl::StatusOr<std::optional<TunedSchedule>> BestSchedule(const tuner::Task& task,
                                                          const TunedLookup& lookup) {
  absl::StatusOr<std::unique_ptr<tuner::RecordStore>> store =
      OpenRecordDb(lookup.db, DbMode::kMustExist);
  if (!store.ok()) return store.status();
  const std::string device = DeviceOf(lookup);
  // A kernel built alone is timed as `tunefarm tune` times it, from warm caches; a kernel only a
  // model's tuning measured (with its weights or every cache flushed) still has its best config.
  absl::StatusOr<std::optional<tuner::Record>> best = std::optional<tuner::Record>();
  for (tuner::CacheFlush flush :
       {tuner::CacheFlush::kNone, tuner::CacheFlush::kWeights, tuner::CacheFlush::kAll}) {
    best = (*store)->Best({task.key(), task.target().str(), device, std::nullopt, flush});
    if (!best.ok() || best->has_value()) break;
  }
  if (!best.ok()) return best.status();
  if (!best->has_value()) return std::optional<TunedSchedule>();
  absl::StatusOr<space::Config> config = space::ConfigFromJson(task.space(), (*best)->config_json);
  if (!config.ok()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the best record of ", task.key(), " in ", lookup.db,
        " does not fit this version's config space (", config.status().message(), "); re-tune it"));
  }
  absl::StatusOr<topi::ScheduledOp> op = task.Apply(*config);
  if (!op.ok()) return op.status();
  return std::optional<TunedSchedule>(TunedSchedule{*std::move(op), **std::move(best)});
}

std::string NoRecordText(const tuner::Task& task, const TunedLookup& lookup) {
  std::string text =
      absl::StrCat("no record of ", task.key(), " on ", target::DisplayTarget(task.target().str()),
                   " for device ", DeviceOf(lookup), " in ", lookup.db);
  absl::StatusOr<std::unique_ptr<tuner::RecordStore>> store =
      OpenRecordDb(lookup.db, DbMode::kMustExist);
  if (!store.ok()) return text;
  absl::StatusOr<std::vector<tuner::Record>> others =
      (*store)->BestPerDevice(task.key(), task.target().str());
  if (!others.ok() || others->empty()) return text;
  std::vector<std::string> devices;
  for (const tuner::Record& r : *others) devices.push_back(r.device_key);
  return absl::StrCat(text, "; it has records of it for --device-key ",
                      absl::StrJoin(devices, ", "));
}

absl::StatusOr<script::ScriptResult> LoadScheduledScript(
    const std::string& path, const std::map<std::string, int64_t>& bindings,
    const TunedLookup& lookup, const NoteSink& note) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open ", path));
  std::stringstream text;
  text << in.rdbuf();
  absl::StatusOr<script::ScriptResult> plain = script::RunScript(text.str(), path);
  if (!plain.ok()) return plain.status();
  // Without knobs the script's own schedule is the only one; its variables stay symbolic.
  if (plain->knob_names.empty()) {
    if (!lookup.db.empty()) note("schedule: the script's own (it declares no cfg knobs)");
    return plain;
  }
  if (!lookup.db.empty()) {
    absl::StatusOr<std::unique_ptr<tuner::Task>> task =
        tuner::CreateScriptTask(path, text.str(), bindings, lookup.target);
    if (!task.ok()) return task.status();
    absl::StatusOr<std::optional<TunedSchedule>> best = BestSchedule(**task, lookup);
    if (!best.ok()) return best.status();
    if (best->has_value()) {
      note(absl::StrCat("schedule: best recorded config of ", (*task)->key(), ": ",
                        (*best)->record.config_json));
      script::ScriptResult tuned;
      tuned.schedule = (*best)->op.schedule;
      tuned.args = (*best)->op.args;
      tuned.knob_names = plain->knob_names;
      return tuned;
    }
    note(absl::StrCat("schedule: fallback knob values (", NoRecordText(**task, lookup), ")"));
  }
  if (bindings.empty()) return plain;
  script::ScriptOptions options;
  options.bindings = bindings;
  return script::RunScript(text.str(), path, options);
}

}  // namespace tunefarm::driver

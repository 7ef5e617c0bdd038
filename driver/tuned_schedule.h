// The best recorded schedule of a task, for `build` and `run` given a database: the record
// store's fastest ok config of (workload, target, device key), applied by the task's template.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "compiler/script/script.h"
#include "compiler/target/target.h"
#include "compiler/topi/scheduled_op.h"
#include "driver/note_sink.h"
#include "tuner/record.h"
#include "tuner/task.h"

namespace tunefarm::driver {

struct TunedLookup {
  std::string db;          // empty: no lookup
  target::Target target;   // the build's
  std::string device_key;  // empty: this machine's local key (what `tune` records under)
};

struct TunedSchedule {
  topi::ScheduledOp op;
  tuner::Record record;  // the best record it comes from
};

// nullopt when the database has no ok record of the task on that target and device. Errors: a
// missing database, a recorded config that no longer fits the task's space.
absl::StatusOr<std::optional<TunedSchedule>> BestSchedule(const tuner::Task& task,
                                                          const TunedLookup& lookup);

// What was looked for when BestSchedule found nothing, for a message: "no record of KEY on TARGET
// for device DEVICE in DB", and the device keys that do have records of it there, if any.
std::string NoRecordText(const tuner::Task& task, const TunedLookup& lookup);

// The script run for `run`/`build`: plainly (its own schedule, fallback knob values), with
// `bindings` made constants when it declares knobs, and at the best recorded config when
// `lookup.db` is given and has one. Says which to `note` ("schedule: ...").
absl::StatusOr<script::ScriptResult> LoadScheduledScript(
    const std::string& path, const std::map<std::string, int64_t>& bindings,
    const TunedLookup& lookup, const NoteSink& note);

}  // namespace tunefarm::driver

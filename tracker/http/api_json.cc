#include "tracker/http/api_json.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "runtime/core/json_nesting.h"
#include "tracker/http/lowered_ir.h"

namespace tunefarm::tracker::http {
namespace {

using nlohmann::json;

// Jobs listed by /api/jobs: enough for any farm's history page; the database keeps the rest.
constexpr int kJobListLimit = 1000;

json OrNull(const std::optional<int64_t>& v) { return v ? json(*v) : json(nullptr); }

}  // namespace

// Stored configs are JSON objects; an unparsable one is shown as its text rather than dropped.
nlohmann::json ConfigObject(const std::string& config_json) {
  // Deep nesting (a database written before imports were checked) stays text: printing a
  // parsed tree recurses once per level.
  if (!runtime::JsonNestingWithin(config_json)) return json(config_json);
  json config = json::parse(config_json, nullptr, /*allow_exceptions=*/false);
  return config.is_discarded() ? json(config_json) : config;
}
json Gflops(std::optional<double> flops, std::optional<double> seconds) {
  if (!flops || !seconds || *flops <= 0 || *seconds <= 0) return nullptr;
  return *flops / *seconds / 1e9;
}

json WorkerJson(const farm_api::WorkerSnapshot& w, int64_t now_ms) {
  const farm_api::WorkerDescription& d = w.description;
  json worker = {
      {"id", d.worker_id},
      {"device_key", d.device_key},
      {"target", d.target},
      {"hardware",
       {{"cpu_model", d.cpu_model},
        {"cores", d.cores},
        {"memory_bytes", d.memory_bytes},
        {"gpu_model", d.gpu_model},
        {"gpu_memory_bytes", d.gpu_memory_bytes},
        {"gpu",
         {{"api", d.gpu.api},
          {"vendor", d.gpu.vendor},
          {"driver_version", d.gpu.driver_version},
          {"arch", d.gpu.arch},
          {"extensions", d.gpu.extensions},
          {"compute_units", d.gpu.compute_units},
          {"max_threads_per_block", d.gpu.max_threads_per_block},
          {"max_block_dims", d.gpu.max_block_dims},
          {"max_shared_bytes", d.gpu.max_shared_bytes}}},
        {"cpu_features", d.cpu_features}}},
      {"emulated", d.emulated},
      {"slowness", d.slowness},
      {"hostname", d.hostname},
      {"peer", d.peer},
      {"version", d.tunefarm_version},
      // A builder's lease is a build.
      {"state", d.build_only && w.state == farm_api::WorkerState::kBusy
                    ? std::string("building")
                    : std::string(farm_api::WorkerStateName(w.state))},
      {"role", d.build_only  ? "builder"
               : d.can_build ? "builds and measures"
                             : "measures"},
      {"lease_id", OrNull(w.lease_id)},
      {"job_id", w.job_id ? json(*w.job_id) : json(nullptr)},
      {"connected_ms", w.connected_ms},
      {"last_heartbeat_ms", w.last_heartbeat_ms},
      {"heartbeat_age_s", std::max<int64_t>(0, now_ms - w.last_heartbeat_ms) / 1000.0},
      {"measured", w.measured},
      {"failures", w.failures},
  };
  if (w.state == farm_api::WorkerState::kGone) worker["gone_ms"] = w.gone_ms;
  return worker;
}

json WorkersJson(const Dispatcher& dispatcher, int64_t now_ms) {
  json workers = json::array();
  for (const farm_api::WorkerSnapshot& w : dispatcher.Workers())
    workers.push_back(WorkerJson(w, now_ms));
  // Workers that left recently stay listed as gone, so a device that dropped out is noticed.
  for (const farm_api::WorkerSnapshot& w : dispatcher.RecentlyGone()) {
    workers.push_back(WorkerJson(w, now_ms));
  }
  return {{"workers", workers}};
}

json JobJson(const farm_api::JobStatus& job, int64_t now_ms) {
  // A finished job's rate stops at its last update, so it does not decay while it sits there.
  const int64_t end_ms = farm_api::IsFinished(job.state) ? job.updated_ms : now_ms;
  const double elapsed_s = std::max<int64_t>(0, end_ms - job.created_ms) / 1000.0;
  const double rate = elapsed_s > 0 ? job.progress.trials_done / elapsed_s : 0.0;
  json eta = nullptr;
  if (!farm_api::IsFinished(job.state) && rate > 0) {
    eta = std::max(0, job.trials - job.progress.trials_done) / rate;
  }
  return {
      {"id", job.id},
      {"state", std::string(farm_api::JobStateName(job.state))},
      {"workload", job.workload_key},
      {"target", job.target},
      {"device_key", job.device_key},
      {"trials", job.trials},
      {"trials_done", job.progress.trials_done},
      {"progress",
       job.trials > 0 ? std::min(1.0, double(job.progress.trials_done) / job.trials) : 0.0},
      {"rate", rate},
      {"eta_seconds", eta},
      {"errors", job.progress.errors},
      {"error_counts", job.progress.error_counts},
      {"best_seconds",
       job.progress.best_seconds > 0 ? json(job.progress.best_seconds) : json(nullptr)},
      {"best_gflops",
       job.progress.best_gflops > 0 ? json(job.progress.best_gflops) : json(nullptr)},
      {"best_config", job.progress.best_config_json.empty()
                          ? json(nullptr)
                          : ConfigObject(job.progress.best_config_json)},
      {"message", job.message},
      {"created_ms", job.created_ms},
      {"updated_ms", job.updated_ms},
      {"priority", job.priority},
      {"tuner", job.tuner},
  };
}

json JobsJson(const JobManager& jobs, int64_t now_ms) {
  json list = json::array();
  for (const farm_api::JobStatus& job : jobs.List(/*include_finished=*/true, kJobListLimit)) {
    list.push_back(JobJson(job, now_ms));
  }
  return {{"jobs", list}};
}

absl::StatusOr<json> JobDetailJson(const JobManager& jobs, tuner::RecordStore& store,
                                   const std::string& id, int64_t now_ms) {
  absl::StatusOr<farm_api::JobStatus> job = jobs.Get(id);
  if (!job.ok()) return job.status();
  absl::StatusOr<std::optional<double>> flops = store.WorkloadFlops(job->workload_key);
  if (!flops.ok()) return flops.status();
  absl::StatusOr<std::vector<tuner::StoredRecord>> rows = store.JobRecordsWithIds(id);
  if (!rows.ok()) return rows.status();
  json trials = json::array();
  std::map<std::string, int> breakdown;
  std::optional<double> best;
  int n = 0;
  for (const tuner::StoredRecord& row : *rows) {
    const tuner::Record& r = row.record;
    std::optional<double> median = tuner::MedianSeconds(r.repeat_seconds);
    json gflops = nullptr;
    if (r.error_kind == tuner::ErrorKind::kOk) {
      gflops = Gflops(*flops, median);
      if (gflops.is_number()) best = std::max(best.value_or(0.0), gflops.get<double>());
    } else {
      ++breakdown[std::string(tuner::ErrorKindName(r.error_kind))];
    }
    trials.push_back({
        {"trial", ++n},
        {"record_id", row.id},
        {"outcome", std::string(tuner::ErrorKindName(r.error_kind))},
        {"median_seconds", median ? json(*median) : json(nullptr)},
        {"spread", tuner::SpreadOf(r.repeat_seconds)},
        {"noisy", r.noisy},
        {"emulated", r.emulated},
        {"gflops", gflops},
        {"best_gflops", best ? json(*best) : json(nullptr)},
        {"measured_by", r.measured_by},
        {"error_message", r.error_message},
    });
  }
  return json{{"job", JobJson(*job, now_ms)},
              {"flops", *flops ? json(**flops) : json(nullptr)},
              {"trials", trials},
              {"error_breakdown", breakdown}};
}

absl::StatusOr<json> RecordJson(tuner::RecordStore& store, int64_t id) {
  absl::StatusOr<tuner::StoredRecord> row = store.RecordById(id);
  if (!row.ok()) return row.status();
  const tuner::Record& r = row->record;
  absl::StatusOr<std::optional<double>> flops = store.WorkloadFlops(r.workload_key);
  if (!flops.ok()) return flops.status();
  std::optional<double> median = tuner::MedianSeconds(r.repeat_seconds);
  json doc = {
      {"id", row->id},
      {"workload", r.workload_key},
      {"target", r.target},
      {"device_key", r.device_key},
      {"config", ConfigObject(r.config_json)},
      {"outcome", std::string(tuner::ErrorKindName(r.error_kind))},
      {"error_message", r.error_message},
      {"repeat_seconds", r.repeat_seconds},
      {"spread", tuner::SpreadOf(r.repeat_seconds)},
      {"canary_ratio", r.canary_ratio},
      {"noisy", r.noisy},
      {"emulated", r.emulated},
      {"median_seconds", median ? json(*median) : json(nullptr)},
      {"gflops", r.error_kind == tuner::ErrorKind::kOk ? Gflops(*flops, median) : json(nullptr)},
      {"build_seconds", r.build_seconds},
      {"built_by", r.built_by},
      {"measured_by", r.measured_by},
      {"cache_flush", runtime::measure::CacheFlushName(r.cache_flush)},
      {"timestamp_ms", r.timestamp_ms},
      {"tunefarm_version", r.tunefarm_version},
      {"job_id", r.job_id},
  };
  absl::StatusOr<std::string> ir = LoweredIr(r);
  doc["lowered_ir"] = ir.ok() ? json(*ir) : json(nullptr);
  doc["lowered_ir_error"] = ir.ok() ? json(nullptr) : json(std::string(ir.status().message()));
  return doc;
}

}  // namespace tunefarm::tracker::http

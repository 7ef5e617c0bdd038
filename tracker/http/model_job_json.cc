#include "tracker/http/model_job_json.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

#include "tracker/http/leaderboard.h"
#include "tuner/model_latency_estimate.h"
#include "tuner/record.h"

namespace tunefarm::tracker::http {
namespace {

using nlohmann::json;

constexpr int kModelJobListLimit = 200;

json Positive(double v) { return v > 0 ? json(v) : json(nullptr); }

// The tasks' layers, weights and best times, as the estimate reads them.
std::vector<tuner::TaskBest> Bests(const farm_api::ModelJobStatus& job,
                                   const std::vector<double>& best) {
  std::vector<tuner::TaskBest> bests;
  for (size_t i = 0; i < job.tasks.size(); ++i) {
    bests.push_back({job.tasks[i].layer, job.tasks[i].weight, best[i]});
  }
  return bests;
}

}  // namespace

json ModelJobJson(const farm_api::ModelJobStatus& job, int64_t now_ms) {
  const int64_t end_ms = farm_api::IsFinished(job.state) ? job.updated_ms : now_ms;
  json tasks = json::array();
  for (size_t i = 0; i < job.tasks.size(); ++i) {
    const farm_api::ModelTaskStatus& t = job.tasks[i];
    // An alternative or a block pair the build would not run costs the model nothing.
    const double cost = t.runs * t.best_seconds;
    tasks.push_back({
        {"workload", t.workload_key},
        {"weight", t.weight},
        {"layer", t.layer >= 0 ? json(t.layer) : json(nullptr)},
        {"chosen", t.runs > 0},
        {"runs", t.runs},
        {"job_id", t.job_id.empty() ? json(nullptr) : json(t.job_id)},
        {"trials", t.trials},
        {"trials_done", t.trials_done},
        {"best_seconds", Positive(t.best_seconds)},
        {"share", job.estimated_seconds > 0 ? json(cost / job.estimated_seconds) : json(nullptr)},
        {"state", std::string(farm_api::JobStateName(t.state))},
    });
  }
  const farm_api::ModelLatency& l = job.latency;
  return {
      {"id", job.id},
      {"state", std::string(farm_api::JobStateName(job.state))},
      {"model", job.model_name},
      {"target", job.target},
      {"device_key", job.device_key},
      {"trials", job.trials},
      {"trials_done", job.trials_done},
      {"cache_flush", runtime::measure::CacheFlushName(job.cache_flush)},
      {"progress", job.trials > 0 ? std::min(1.0, double(job.trials_done) / job.trials) : 0.0},
      {"elapsed_seconds", std::max<int64_t>(0, end_ms - job.created_ms) / 1000.0},
      {"estimated_seconds", Positive(job.estimated_seconds)},
      {"measured_seconds", Positive(l.measured_seconds)},
      {"untuned_seconds", Positive(l.untuned_seconds)},
      {"speedup", l.measured_seconds > 0 && l.untuned_seconds > 0
                      ? json(l.untuned_seconds / l.measured_seconds)
                      : json(nullptr)},
      {"measured_by", l.measured_by},
      {"message", job.message},
      {"created_ms", job.created_ms},
      {"updated_ms", job.updated_ms},
      {"tasks", tasks},
  };
}

json ModelJobsJson(const ModelJobManager& model_jobs, int64_t now_ms) {
  json list = json::array();
  for (const farm_api::ModelJobStatus& job :
       model_jobs.List(/*include_finished=*/true, kModelJobListLimit)) {
    list.push_back(ModelJobJson(job, now_ms));
  }
  return {{"model_jobs", list}};
}

json ModelLeaderboardJson(const std::vector<farm_api::ModelJobStatus>& jobs) {
  struct Best {
    const farm_api::ModelJobStatus* job = nullptr;
    int measured = 0;
  };
  // Ordered by (model, target, device key), so the rows come out by model.
  std::map<std::tuple<std::string, std::string, std::string>, Best> best;
  for (const farm_api::ModelJobStatus& job : jobs) {
    if (job.latency.measured_seconds <= 0) continue;
    Best& b = best[{job.model_name, job.target, job.device_key}];
    ++b.measured;
    // The earlier job keeps a tie: its measurement came first.
    if (b.job == nullptr || job.latency.measured_seconds < b.job->latency.measured_seconds ||
        (job.latency.measured_seconds == b.job->latency.measured_seconds &&
         job.created_ms < b.job->created_ms)) {
      b.job = &job;
    }
  }
  std::vector<const Best*> order;
  for (const auto& [key, b] : best) order.push_back(&b);
  std::stable_sort(order.begin(), order.end(), [](const Best* x, const Best* y) {
    if (x->job->model_name != y->job->model_name) return x->job->model_name < y->job->model_name;
    return x->job->latency.measured_seconds < y->job->latency.measured_seconds;
  });
  json rows = json::array();
  for (const Best* b : order) {
    const farm_api::ModelLatency& l = b->job->latency;
    rows.push_back({
        {"model", b->job->model_name},
        {"target", b->job->target},
        {"device_key", b->job->device_key},
        {"measured_seconds", l.measured_seconds},
        {"untuned_seconds", Positive(l.untuned_seconds)},
        {"speedup",
         l.untuned_seconds > 0 ? json(l.untuned_seconds / l.measured_seconds) : json(nullptr)},
        {"measured_by", l.measured_by},
        {"model_job_id", b->job->id},
        {"model_jobs", b->measured},
    });
  }
  return rows;
}

json ModelLeaderboardJson(const ModelJobManager& model_jobs) {
  return ModelLeaderboardJson(model_jobs.List(/*include_finished=*/true, kModelJobListLimit));
}

absl::StatusOr<json> ModelJobDetailJson(const ModelJobManager& model_jobs,
                                        tuner::RecordStore& store, const std::string& id,
                                        int64_t now_ms) {
  absl::StatusOr<farm_api::ModelJobStatus> job = model_jobs.Get(id);
  if (!job.ok()) return job.status();
  absl::StatusOr<farm_api::ModelJobSpec> spec = model_jobs.GetSpec(id);
  if (!spec.ok()) return spec.status();
  json doc = ModelJobJson(*job, now_ms);
  // Every trial of the tasks' jobs in time order: the estimate after each is EstimateModel of the
  // bests so far (the layout choice's tasks as its chosen layout runs them), once every kernel
  // the build would run has a result.
  struct Trial {
    int64_t timestamp_ms;
    size_t task;
    double seconds;  // 0: not ok
  };
  std::vector<Trial> trials;
  for (size_t i = 0; i < job->tasks.size(); ++i) {
    const farm_api::ModelTaskStatus& t = job->tasks[i];
    absl::StatusOr<std::vector<tuner::Record>> history =
        t.job_id.empty() ? std::vector<tuner::Record>() : store.JobHistory(t.job_id);
    if (!history.ok()) return history.status();
    // The default as the task's job timed it; before its first result, as model jobs time.
    const tuner::CacheFlush flush =
        history->empty() ? job->cache_flush : history->front().cache_flush;
    doc["tasks"][i]["default"] =
        DefaultConfigRecord(store, t.workload_key, job->target, job->device_key, flush);
    for (const tuner::Record& r : *history) {
      const double s = r.error_kind == tuner::ErrorKind::kOk
                           ? tuner::MedianSeconds(r.repeat_seconds).value_or(0)
                           : 0;
      trials.push_back({r.timestamp_ms, i, s});
    }
  }
  std::stable_sort(trials.begin(), trials.end(),
                   [](const Trial& a, const Trial& b) { return a.timestamp_ms < b.timestamp_ms; });
  std::vector<double> best(job->tasks.size(), 0);
  json curve = json::array();
  double last = 0;
  for (size_t n = 0; n < trials.size(); ++n) {
    const Trial& t = trials[n];
    // Only a better time can move the estimate (the layout search is not free).
    if (!(t.seconds > 0 && (best[t.task] == 0 || t.seconds < best[t.task]))) continue;
    best[t.task] = t.seconds;
    const double estimate =
        tuner::EstimateModel(Bests(*job, best), spec->layout).seconds.value_or(0);
    if (estimate <= 0 || estimate == last) continue;
    last = estimate;
    curve.push_back(
        {{"trial", n + 1},
         {"elapsed_seconds", std::max<int64_t>(0, t.timestamp_ms - job->created_ms) / 1000.0},
         {"estimated_seconds", estimate}});
  }
  return json{{"model_job", doc}, {"curve", curve}};
}

}  // namespace tunefarm::tracker::http

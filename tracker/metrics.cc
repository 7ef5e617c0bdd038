// Metrics: the counters and histograms the dispatcher and the job runners feed, and their
// rendering, with the fleet's and the jobs' state read at scrape time, as Prometheus text 0.0.4.
#include "tracker/metrics.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "farm_api/job.h"
#include "tracker/dispatcher.h"
#include "tracker/job_manager.h"
#include "tracker/model_job_manager.h"

namespace tunefarm::tracker {
namespace {

size_t KindIndex(tuner::ErrorKind kind) {
  for (size_t i = 0; i < std::size(tuner::kAllErrorKinds); ++i) {
    if (tuner::kAllErrorKinds[i] == kind) return i;
  }
  return 0;  // unreachable: every kind is listed
}

int64_t SteadySeconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The shortest text that reads back as the same double; Prometheus spellings for the specials.
std::string FormatDouble(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[64];
  // general: "0.0001" rather than "1e-04" for the bucket bounds, as other exporters write them.
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::general);
  if (ec != std::errc()) return "NaN";
  return std::string(buf, end);
}

// HELP text escapes backslash and newline (not quotes).
std::string EscapeHelp(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

class Writer {
 public:
  void Family(std::string_view name, std::string_view type, std::string_view help) {
    absl::StrAppend(&text_, "# HELP ", absl::string_view(name.data(), name.size()), " ",
                    EscapeHelp(help), "\n# TYPE ", absl::string_view(name.data(), name.size()), " ",
                    absl::string_view(type.data(), type.size()), "\n");
  }
  // `labels`: (name, raw value) pairs, escaped here.
  void Sample(std::string_view name, const std::vector<std::pair<std::string, std::string>>& labels,
              double value) {
    text_.append(name);
    if (!labels.empty()) {
      text_ += '{';
      for (size_t i = 0; i < labels.size(); ++i) {
        if (i > 0) text_ += ',';
        absl::StrAppend(&text_, labels[i].first, "=\"", EscapeLabelValue(labels[i].second), "\"");
      }
      text_ += '}';
    }
    absl::StrAppend(&text_, " ", FormatDouble(value), "\n");
  }
  void Histogram(std::string_view name, std::string_view help,
                 const LatencyHistogram::Snapshot& h) {
    Family(name, "histogram", help);
    const std::string base(name);
    for (size_t i = 0; i < h.upper_bounds.size(); ++i) {
      Sample(base + "_bucket", {{"le", FormatDouble(h.upper_bounds[i])}},
             static_cast<double>(h.cumulative_counts[i]));
    }
    Sample(base + "_bucket", {{"le", "+Inf"}}, static_cast<double>(h.count));
    Sample(base + "_sum", {}, h.sum);
    Sample(base + "_count", {}, static_cast<double>(h.count));
  }
  std::string Take() { return std::move(text_); }

 private:
  std::string text_;
};

constexpr farm_api::WorkerState kAllWorkerStates[] = {
    farm_api::WorkerState::kIdle, farm_api::WorkerState::kBusy, farm_api::WorkerState::kSession,
    farm_api::WorkerState::kDraining};
constexpr farm_api::JobState kAllJobStates[] = {
    farm_api::JobState::kQueued, farm_api::JobState::kRunning,   farm_api::JobState::kSucceeded,
    farm_api::JobState::kFailed, farm_api::JobState::kCancelled, farm_api::JobState::kPaused};

}  // namespace

LatencyHistogram::LatencyHistogram(std::vector<double> upper_bounds)
    : bounds_(std::move(upper_bounds)), counts_(bounds_.size() + 1, 0) {}

void LatencyHistogram::Observe(double seconds) {
  if (std::isnan(seconds)) return;
  seconds = std::max(seconds, 0.0);
  const size_t bucket = std::lower_bound(bounds_.begin(), bounds_.end(), seconds) - bounds_.begin();
  std::lock_guard<std::mutex> lock(mu_);
  ++counts_[bucket];
  ++count_;
  sum_ += seconds;
}

LatencyHistogram::Snapshot LatencyHistogram::Read() const {
  Snapshot s;
  s.upper_bounds = bounds_;
  std::lock_guard<std::mutex> lock(mu_);
  uint64_t running = 0;
  for (uint64_t c : counts_) {
    running += c;
    s.cumulative_counts.push_back(running);
  }
  s.count = count_;
  s.sum = sum_;
  return s;
}

std::vector<double> DefaultLatencyBuckets() {
  return {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
          0.05,   0.1,     0.25,   0.5,   1,      2.5,   5,    10};
}

Metrics::Metrics()
    : dispatch_latency_(DefaultLatencyBuckets()), db_write_(DefaultLatencyBuckets()) {}

void Metrics::CountResult(tuner::ErrorKind kind) { CountResultAt(kind, SteadySeconds()); }

void Metrics::CountResultAt(tuner::ErrorKind kind, int64_t now_s) {
  results_[KindIndex(kind)].fetch_add(1, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(rate_mu_);
  ++per_second_[now_s];
  // Keeps only the window's slots, so the map stays at most 60 entries.
  per_second_.erase(per_second_.begin(), per_second_.upper_bound(now_s - kRateWindowSeconds));
}

void Metrics::ObserveDispatchLatency(double seconds) { dispatch_latency_.Observe(seconds); }

void Metrics::ObserveDbWrite(double seconds) { db_write_.Observe(seconds); }

uint64_t Metrics::results(tuner::ErrorKind kind) const {
  return results_[KindIndex(kind)].load(std::memory_order_relaxed);
}

uint64_t Metrics::results_total() const {
  uint64_t total = 0;
  for (const auto& n : results_) total += n.load(std::memory_order_relaxed);
  return total;
}

double Metrics::trials_per_second() const { return TrialsPerSecondAt(SteadySeconds()); }

double Metrics::TrialsPerSecondAt(int64_t now_s) const {
  std::lock_guard<std::mutex> lock(rate_mu_);
  uint64_t n = 0;
  // The window is the slots (now - 60, now]: the current, partial second counts.
  for (auto it = per_second_.upper_bound(now_s - kRateWindowSeconds); it != per_second_.end();
       ++it) {
    if (it->first <= now_s) n += it->second;
  }
  return static_cast<double>(n) / kRateWindowSeconds;
}

std::string EscapeLabelValue(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string RenderMetricsText(const Metrics& metrics, const Dispatcher& dispatcher,
                              const JobManager& jobs, const ModelJobManager* model_jobs) {
  Writer w;

  // Workers by key and state: every state of every key with workers, 0 included, so that a
  // dashboard's series do not vanish when a state empties.
  const std::vector<std::string> keys = dispatcher.DeviceKeys();
  std::map<std::string, std::map<farm_api::WorkerState, int>> workers;
  std::map<std::string, int> emulated;
  for (const std::string& key : keys) workers[key];
  for (const farm_api::WorkerSnapshot& s : dispatcher.Workers()) {
    ++workers[s.description.device_key][s.state];
    if (s.description.emulated) ++emulated[s.description.device_key];
  }
  w.Family("tunefarm_workers", "gauge", "Connected workers by device key and state.");
  for (const auto& [key, by_state] : workers) {
    for (farm_api::WorkerState state : kAllWorkerStates) {
      auto it = by_state.find(state);
      w.Sample("tunefarm_workers",
               {{"device_key", key}, {"state", std::string(farm_api::WorkerStateName(state))}},
               it == by_state.end() ? 0 : it->second);
    }
  }

  w.Family("tunefarm_workers_emulated", "gauge",
           "Connected workers that run under an emulator (qemu-user), by device key: their times "
           "are the emulator's, not the device's.");
  for (const auto& [key, unused] : workers) {
    w.Sample("tunefarm_workers_emulated", {{"device_key", key}}, emulated[key]);
  }

  w.Family("tunefarm_queue_depth", "gauge",
           "Measurements waiting for a lease, by device key (keys with workers or queued work).");
  for (const auto& [key, unused] : workers) {
    w.Sample("tunefarm_queue_depth", {{"device_key", key}}, dispatcher.QueuedFor(key));
  }

  w.Family("tunefarm_leases_outstanding", "gauge", "Measurements leased to workers right now.");
  w.Sample("tunefarm_leases_outstanding", {}, dispatcher.LeasesOutstanding());

  w.Family("tunefarm_results_total", "counter",
           "Measurements completed by the dispatcher since the tracker started, by outcome: each "
           "result accepted from a worker, plus worker_lost for work given up after its leases "
           "were lost. Builds that failed before reaching a worker and cancelled work are not "
           "counted.");
  for (tuner::ErrorKind kind : tuner::kAllErrorKinds) {
    w.Sample("tunefarm_results_total", {{"outcome", std::string(tuner::ErrorKindName(kind))}},
             static_cast<double>(metrics.results(kind)));
  }

  w.Family("tunefarm_trials_per_second", "gauge",
           "tunefarm_results_total over the last 60 seconds, divided by 60.");
  w.Sample("tunefarm_trials_per_second", {}, metrics.trials_per_second());

  const std::map<farm_api::JobState, int> job_counts = jobs.CountByState();
  w.Family("tunefarm_jobs", "gauge", "Jobs in the database by state.");
  for (farm_api::JobState state : kAllJobStates) {
    auto it = job_counts.find(state);
    w.Sample("tunefarm_jobs", {{"state", std::string(farm_api::JobStateName(state))}},
             it == job_counts.end() ? 0 : it->second);
  }

  if (model_jobs != nullptr) {
    const ModelJobManager::Summary summary = model_jobs->Summarize();
    w.Family("tunefarm_model_jobs", "gauge", "Model jobs in the database by state.");
    for (farm_api::JobState state : kAllJobStates) {
      auto it = summary.by_state.find(state);
      w.Sample("tunefarm_model_jobs", {{"state", std::string(farm_api::JobStateName(state))}},
               it == summary.by_state.end() ? 0 : it->second);
    }
    const std::vector<farm_api::ModelJobStatus> running =
        model_jobs->List(/*include_finished=*/false, 0);
    w.Family("tunefarm_model_job_trials_done", "gauge",
             "Trials recorded by each running model job's tasks.");
    for (const farm_api::ModelJobStatus& m : running) {
      w.Sample("tunefarm_model_job_trials_done",
               {{"id", m.id}, {"model", m.model_name}, {"device_key", m.device_key}},
               m.trials_done);
    }
    w.Family("tunefarm_model_job_estimated_seconds", "gauge",
             "Each running model job's tuned kernels: the sum over its tasks of weight x best "
             "time (once every task has one).");
    for (const farm_api::ModelJobStatus& m : running) {
      if (m.estimated_seconds <= 0) continue;
      w.Sample("tunefarm_model_job_estimated_seconds",
               {{"id", m.id}, {"model", m.model_name}, {"device_key", m.device_key}},
               m.estimated_seconds);
    }
    w.Family("tunefarm_model_latency_seconds", "gauge",
             "The best end-to-end latency measured for each model on each device key.");
    for (const auto& [model_key, seconds] : summary.best_measured) {
      w.Sample("tunefarm_model_latency_seconds",
               {{"model", model_key.first}, {"device_key", model_key.second}}, seconds);
    }
  }

  w.Histogram("tunefarm_dispatch_latency_seconds",
              "Time from a worker's result reaching the dispatcher to that worker's next lease "
              "being made (only results followed at once by another lease).",
              metrics.dispatch_latency());
  w.Histogram("tunefarm_db_write_seconds",
              "Time to store a job's newly arrived results in the database (one transaction).",
              metrics.db_write_latency());
  return w.Take();
}

}  // namespace tunefarm::tracker

// Metrics: what the tracker counts while it runs (results by outcome, trials, dispatch latency,
// database write latency), rendered with the fleet's and the jobs' current state as Prometheus
// text for /metrics and read by the dashboard. Thread-safe; counting is a few atomic adds.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "tuner/record.h"

namespace tunefarm::tracker {

class Dispatcher;
class JobManager;
class ModelJobManager;

// A cumulative histogram with fixed upper bounds (seconds), Prometheus style.
class LatencyHistogram {
 public:
  // `upper_bounds` strictly increasing and finite; +Inf is implied.
  explicit LatencyHistogram(std::vector<double> upper_bounds);
  // A value lands in the first bucket whose bound is >= it (Prometheus `le`); negative values
  // count as 0 and NaN is ignored.
  void Observe(double seconds);
  struct Snapshot {
    std::vector<double> upper_bounds;
    std::vector<uint64_t> cumulative_counts;  // one per bound, then +Inf
    uint64_t count = 0;
    double sum = 0;
  };
  Snapshot Read() const;

 private:
  std::vector<double> bounds_;
  mutable std::mutex mu_;
  std::vector<uint64_t> counts_;  // per bucket (not cumulative), last is +Inf
  uint64_t count_ = 0;
  double sum_ = 0;
};

// 0.0001 s .. 10 s in 1-2.5-5 steps: the buckets of both latency histograms.
std::vector<double> DefaultLatencyBuckets();

class Metrics {
 public:
  Metrics();

  // A piece of work was completed by the dispatcher (exactly once per candidate sent to the
  // fleet) with this outcome: a worker's accepted result, or worker_lost.
  void CountResult(tuner::ErrorKind kind);
  // Time from a worker's result to its next lease.
  void ObserveDispatchLatency(double seconds);
  // One write of records to the database (a result, or a batch).
  void ObserveDbWrite(double seconds);

  uint64_t results(tuner::ErrorKind kind) const;
  uint64_t results_total() const;
  // Results per second over the last minute (a sliding window of one-second slots).
  double trials_per_second() const;
  LatencyHistogram::Snapshot dispatch_latency() const { return dispatch_latency_.Read(); }
  LatencyHistogram::Snapshot db_write_latency() const { return db_write_.Read(); }

  // The same with an explicit clock (seconds on any monotonic scale), for tests.
  void CountResultAt(tuner::ErrorKind kind, int64_t now_s);
  double TrialsPerSecondAt(int64_t now_s) const;

  static constexpr int kRateWindowSeconds = 60;

 private:
  std::array<std::atomic<uint64_t>, std::size(tuner::kAllErrorKinds)> results_{};
  LatencyHistogram dispatch_latency_;
  LatencyHistogram db_write_;
  mutable std::mutex rate_mu_;
  std::map<int64_t, uint64_t> per_second_;  // steady second -> results, last 60 s
};

// A label value as the exposition format wants it: backslash, double quote and newline escaped.
std::string EscapeLabelValue(std::string_view value);

// The Prometheus text exposition (version 0.0.4) of everything: tunefarm_workers{device_key,
// state}, tunefarm_queue_depth{device_key}, tunefarm_leases_outstanding,
// tunefarm_results_total{outcome}, tunefarm_trials_per_second, tunefarm_jobs{state},
// tunefarm_dispatch_latency_seconds (histogram), tunefarm_db_write_seconds (histogram), each
// with # HELP and # TYPE.
// With `model_jobs`: tunefarm_model_jobs{state}, and for each running model job
// tunefarm_model_job_trials_done and tunefarm_model_job_estimated_seconds {id, model,
// device_key}, and tunefarm_model_latency_seconds{model, device_key} (the best measured).
std::string RenderMetricsText(const Metrics& metrics, const Dispatcher& dispatcher,
                              const JobManager& jobs, const ModelJobManager* model_jobs = nullptr);

}  // namespace tunefarm::tracker

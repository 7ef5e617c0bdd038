// Metrics: histogram bucket math against a naive count, label escaping, the one-minute trial
// rate, what the dispatcher counts (accepted results and worker_lost, never cancelled work or a
// duplicate), and the Prometheus text: every line parses with a small parser of our own, every
// family has HELP and TYPE, and after a real job on the in-process fleet the results counted
// equal the job's records measured by workers in the database.
#include "tracker/metrics.h"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

#include "tests/unit/tracker/in_process_fleet.h"
#include "tracker/dispatcher.h"
#include "tracker/job_manager.h"
#include "tracker/job_table.h"
#include "tuner/record_store.h"

namespace tunefarm::tracker {
namespace {

using testing::InProcessFleet;

// ---- A small parser of the Prometheus text exposition format 0.0.4 ----

struct Sample {
  std::string name;
  std::map<std::string, std::string> labels;  // unescaped values
  double value = 0;
};

struct Family {
  std::string help;
  std::string type;
  bool has_help = false;
  bool has_type = false;
  std::vector<Sample> samples;
};

struct Exposition {
  std::map<std::string, Family> families;
  std::vector<std::string> errors;  // "line N: why"

  const Sample* Find(const std::string& name,
                     const std::map<std::string, std::string>& labels) const {
    for (const auto& [family, f] : families) {
      for (const Sample& s : f.samples) {
        if (s.name == name && s.labels == labels) return &s;
      }
    }
    return nullptr;
  }
  // The sample's value; NaN (never equal to anything) when it is missing.
  double Value(const std::string& name, const std::map<std::string, std::string>& labels) const {
    const Sample* s = Find(name, labels);
    return s == nullptr ? std::nan("") : s->value;
  }
  double Sum(const std::string& family) const {
    double total = 0;
    auto it = families.find(family);
    if (it != families.end()) {
      for (const Sample& s : it->second.samples) total += s.value;
    }
    return total;
  }
};

bool IsNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsNameChar(char c) { return IsNameStart(c) || std::isdigit(static_cast<unsigned char>(c)); }

// Reads a metric or label name at `pos` (metric names may also hold ':').
std::optional<std::string> ReadName(const std::string& line, size_t& pos, bool metric) {
  const size_t start = pos;
  if (pos >= line.size() || !(IsNameStart(line[pos]) || (metric && line[pos] == ':'))) {
    return std::nullopt;
  }
  while (pos < line.size() && (IsNameChar(line[pos]) || (metric && line[pos] == ':'))) ++pos;
  return line.substr(start, pos - start);
}

std::optional<double> ParseValue(const std::string& text) {
  if (text == "+Inf" || text == "Inf") return HUGE_VAL;
  if (text == "-Inf") return -HUGE_VAL;
  if (text == "NaN") return std::nan("");
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return v;
}

// The family a sample belongs to: a histogram's _bucket, _sum and _count samples are its own.
std::string FamilyOf(const std::string& sample, const std::map<std::string, Family>& families) {
  for (const char* suffix : {"_bucket", "_sum", "_count"}) {
    const std::string s(suffix);
    if (sample.size() > s.size() && sample.compare(sample.size() - s.size(), s.size(), s) == 0) {
      const std::string base = sample.substr(0, sample.size() - s.size());
      auto it = families.find(base);
      if (it != families.end() && it->second.type == "histogram") return base;
    }
  }
  return sample;
}

std::optional<std::string> ParseSample(const std::string& line, Sample& out) {
  size_t pos = 0;
  std::optional<std::string> name = ReadName(line, pos, /*metric=*/true);
  if (!name) return "bad metric name";
  out.name = *name;
  if (pos < line.size() && line[pos] == '{') {
    ++pos;
    while (pos < line.size() && line[pos] != '}') {
      std::optional<std::string> label = ReadName(line, pos, /*metric=*/false);
      if (!label) return "bad label name";
      if (line.compare(pos, 2, "=\"") != 0) return "label without =\"";
      pos += 2;
      std::string value;
      for (;;) {
        if (pos >= line.size()) return "unterminated label value";
        const char c = line[pos++];
        if (c == '"') break;
        if (c == '\n') return "raw newline in a label value";
        if (c != '\\') {
          value += c;
          continue;
        }
        if (pos >= line.size()) return "dangling backslash";
        const char e = line[pos++];
        if (e == '\\') {
          value += '\\';
        } else if (e == '"') {
          value += '"';
        } else if (e == 'n') {
          value += '\n';
        } else {
          return "bad escape in a label value";
        }
      }
      if (!out.labels.emplace(*label, value).second) return "repeated label " + *label;
      if (pos < line.size() && line[pos] == ',') ++pos;
    }
    if (pos >= line.size()) return "unterminated label set";
    ++pos;  // '}'
  }
  if (pos >= line.size() || line[pos] != ' ') return "no space before the value";
  std::string rest = line.substr(pos + 1);
  const size_t space = rest.find(' ');
  if (space != std::string::npos) {
    // An optional integer timestamp.
    const std::string ts = rest.substr(space + 1);
    if (ts.empty() || ts.find_first_not_of("-0123456789") != std::string::npos) {
      return "bad timestamp";
    }
    rest = rest.substr(0, space);
  }
  std::optional<double> value = ParseValue(rest);
  if (!value) return "bad value '" + rest + "'";
  out.value = *value;
  return std::nullopt;
}

Exposition ParseExposition(const std::string& text) {
  Exposition e;
  if (!text.empty() && text.back() != '\n') e.errors.push_back("no final newline");
  size_t start = 0;
  int n = 0;
  std::set<std::string> seen_samples;  // name + labels: no sample twice
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    ++n;
    auto error = [&](const std::string& why) {
      e.errors.push_back("line " + std::to_string(n) + ": " + why + ": " + line);
    };
    if (line.empty()) continue;
    if (line[0] == '#') {
      for (const std::string kw : {"HELP", "TYPE"}) {
        if (line.compare(0, kw.size() + 3, "# " + kw + " ") != 0) continue;
        size_t pos = kw.size() + 3;
        std::optional<std::string> name = ReadName(line, pos, /*metric=*/true);
        if (!name || pos >= line.size() || line[pos] != ' ') {
          error("bad " + kw + " line");
          break;
        }
        Family& f = e.families[*name];
        const std::string value = line.substr(pos + 1);
        if (kw == "HELP") {
          if (f.has_help) error("second HELP");
          f.has_help = true;
          f.help = value;
        } else {
          if (f.has_type) error("second TYPE");
          if (!f.samples.empty()) error("TYPE after samples");
          static const std::set<std::string> kTypes = {"counter", "gauge", "histogram", "summary",
                                                       "untyped"};
          if (!kTypes.contains(value)) error("unknown type");
          f.has_type = true;
          f.type = value;
        }
      }
      continue;  // other comments are allowed
    }
    Sample s;
    if (std::optional<std::string> why = ParseSample(line, s)) {
      error(*why);
      continue;
    }
    std::string key = s.name;
    for (const auto& [k, v] : s.labels) key += "|" + k + "=" + v;
    if (!seen_samples.insert(key).second) error("duplicate sample");
    e.families[FamilyOf(s.name, e.families)].samples.push_back(std::move(s));
  }
  return e;
}

// Every family has HELP and TYPE, and every histogram is well formed (cumulative buckets ending
// in +Inf equal to _count, with _sum).
void ExpectWellFormed(const Exposition& e) {
  EXPECT_TRUE(e.errors.empty()) << e.errors.front();
  for (const auto& [name, f] : e.families) {
    EXPECT_TRUE(f.has_help) << name;
    EXPECT_TRUE(f.has_type) << name;
    if (f.type != "histogram") continue;
    std::vector<std::pair<double, double>> buckets;
    std::optional<double> count, sum;
    for (const Sample& s : f.samples) {
      if (s.name == name + "_bucket") {
        ASSERT_TRUE(s.labels.contains("le")) << name;
        std::optional<double> le = ParseValue(s.labels.at("le"));
        ASSERT_TRUE(le.has_value()) << s.labels.at("le");
        buckets.emplace_back(*le, s.value);
      } else if (s.name == name + "_count") {
        count = s.value;
      } else if (s.name == name + "_sum") {
        sum = s.value;
      }
    }
    ASSERT_FALSE(buckets.empty()) << name;
    ASSERT_TRUE(count.has_value() && sum.has_value()) << name;
    EXPECT_TRUE(std::isinf(buckets.back().first)) << name << ": no le=\"+Inf\" bucket last";
    EXPECT_EQ(buckets.back().second, *count) << name;
    for (size_t i = 1; i < buckets.size(); ++i) {
      EXPECT_LT(buckets[i - 1].first, buckets[i].first) << name;
      EXPECT_LE(buckets[i - 1].second, buckets[i].second) << name;
    }
  }
}

// ---- Units ----

TEST(PrometheusParserTest, RejectsMalformedText) {
  // The parser the other tests rely on must not be vacuous.
  for (const char* bad : {"9name 1\n", "x{a=\"b} 1\n", "x{a=\"\\q\"} 1\n", "x 1.2.3\n",
                          "x{a=\"1\",a=\"2\"} 1\n", "x 1\nx 2\n", "# TYPE x countr\n", "x 1"}) {
    EXPECT_FALSE(ParseExposition(bad).errors.empty()) << bad;
  }
  const Exposition ok = ParseExposition(
      "# HELP x a \\ help\n# TYPE x counter\nx{a=\"q\\\"\\n\"} 3 1700000000000\ny_no_help +Inf\n");
  EXPECT_TRUE(ok.errors.empty()) << ok.errors.front();
  EXPECT_EQ(ok.Value("x", {{"a", "q\"\n"}}), 3);
  EXPECT_FALSE(ok.families.at("y_no_help").has_help);
  EXPECT_TRUE(std::isinf(ok.Value("y_no_help", {})));
}

TEST(LatencyHistogramTest, BucketsMatchANaiveCount) {
  const std::vector<double> bounds = {0.001, 0.01, 0.1, 1, 10};
  LatencyHistogram h(bounds);
  // Values on the bounds land in that bound's bucket (le); negative counts as 0; NaN is dropped.
  const std::vector<double> values = {0.0005, 0.001, 0.002, 0.01, 0.5, 1, 3, 10, 11, 1e6, -2};
  for (double v : values) h.Observe(v);
  h.Observe(std::nan(""));

  LatencyHistogram::Snapshot s = h.Read();
  ASSERT_EQ(s.upper_bounds, bounds);
  ASSERT_EQ(s.cumulative_counts.size(), bounds.size() + 1);
  double naive_sum = 0;
  for (double v : values) naive_sum += std::max(v, 0.0);
  for (size_t b = 0; b < bounds.size(); ++b) {
    uint64_t naive = 0;
    for (double v : values) naive += std::max(v, 0.0) <= bounds[b] ? 1 : 0;
    EXPECT_EQ(s.cumulative_counts[b], naive) << "le=" << bounds[b];
  }
  EXPECT_EQ(s.cumulative_counts.back(), values.size());
  EXPECT_EQ(s.count, values.size());
  EXPECT_NEAR(s.sum, naive_sum, 1e-9 * naive_sum);
}

TEST(LatencyHistogramTest, DefaultBucketsSpanATenthOfAMillisecondToTenSeconds) {
  const std::vector<double> b = DefaultLatencyBuckets();
  ASSERT_GE(b.size(), 2u);
  EXPECT_DOUBLE_EQ(b.front(), 0.0001);
  EXPECT_DOUBLE_EQ(b.back(), 10);
  for (size_t i = 1; i < b.size(); ++i) EXPECT_LT(b[i - 1], b[i]);
}

TEST(MetricsTest, EscapesLabelValues) {
  EXPECT_EQ(EscapeLabelValue("plain-key_1"), "plain-key_1");
  EXPECT_EQ(EscapeLabelValue("a\\b\"c\nd"), "a\\\\b\\\"c\\nd");
  EXPECT_EQ(EscapeLabelValue(""), "");
}

TEST(MetricsTest, TrialRateIsTheLastMinute) {
  Metrics m;
  for (int i = 0; i < 30; ++i) m.CountResultAt(tuner::ErrorKind::kOk, 1000);
  for (int i = 0; i < 30; ++i) m.CountResultAt(tuner::ErrorKind::kWrongAnswer, 1030);
  EXPECT_NEAR(m.TrialsPerSecondAt(1030), 60.0 / 60, 1e-12);
  EXPECT_NEAR(m.TrialsPerSecondAt(1059), 60.0 / 60, 1e-12);
  EXPECT_NEAR(m.TrialsPerSecondAt(1060), 30.0 / 60, 1e-12);  // second 1000 left the window
  EXPECT_NEAR(m.TrialsPerSecondAt(1090), 0, 1e-12);
  EXPECT_EQ(m.results(tuner::ErrorKind::kOk), 30u);
  EXPECT_EQ(m.results(tuner::ErrorKind::kWrongAnswer), 30u);
  EXPECT_EQ(m.results_total(), 60u);
}

// ---- The dispatcher's counting ----

MeasureWork MetricsWork(const std::string& job, const std::string& key = "cpu") {
  MeasureWork w;
  w.job_id = job;
  w.device_key = key;
  w.function_name = "f";
  w.options.run_timeout_s = 1;
  return w;
}

farm_api::WorkerDescription MetricsWorker(const std::string& id, const std::string& key = "cpu") {
  farm_api::WorkerDescription d;
  d.worker_id = id;
  d.device_key = key;
  return d;
}

TEST(MetricsTest, DispatcherCountsResultsAndLostWorkButNotCancelledWork) {
  DispatcherOptions o;
  o.max_attempts = 5;
  o.quarantine_after_workers = 2;
  Dispatcher d(o);
  Metrics m;
  d.SetMetrics(&m);
  auto ignore = [](const WorkOutcome&) {};
  d.Submit(MetricsWork("j"), ignore, 0);
  d.Submit(MetricsWork("j"), ignore, 0);
  d.Submit(MetricsWork("j"), ignore, 0);
  absl::StatusOr<std::vector<Assignment>> first = d.AddWorker(MetricsWorker("w1"), 0);
  ASSERT_TRUE(first.ok() && first->size() == 1u);

  // An ok result; the same worker takes the next piece at once: one dispatch latency.
  std::vector<Assignment> next = d.Complete("w1", (*first)[0].lease_id, WorkOutcome{}, 10);
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(d.Complete("w1", (*first)[0].lease_id, WorkOutcome{}, 11).size(), 0u);  // duplicate
  WorkOutcome wrong;
  wrong.error_kind = tuner::ErrorKind::kWrongAnswer;
  std::vector<Assignment> third = d.Complete("w1", next[0].lease_id, wrong, 20);
  ASSERT_EQ(third.size(), 1u);
  EXPECT_EQ(m.results(tuner::ErrorKind::kOk), 1u);
  EXPECT_EQ(m.results(tuner::ErrorKind::kWrongAnswer), 1u);
  EXPECT_EQ(m.dispatch_latency().count, 2u);

  // The third piece is lost with two different workers: quarantined as worker_lost.
  d.RemoveWorker("w1", 30);
  absl::StatusOr<std::vector<Assignment>> again = d.AddWorker(MetricsWorker("w2"), 40);
  ASSERT_TRUE(again.ok() && again->size() == 1u);
  d.RemoveWorker("w2", 50);
  EXPECT_EQ(m.results(tuner::ErrorKind::kWorkerLost), 1u);

  // A cancelled job's work (leased and queued) is not a result.
  d.Submit(MetricsWork("k"), ignore, 60);
  d.Submit(MetricsWork("k"), ignore, 60);
  absl::StatusOr<std::vector<Assignment>> leased = d.AddWorker(MetricsWorker("w3"), 60);
  ASSERT_TRUE(leased.ok() && leased->size() == 1u);
  EXPECT_EQ(d.CancelJob("k").size(), 1u);
  EXPECT_EQ(d.Complete("w3", (*leased)[0].lease_id, WorkOutcome{}, 70).size(), 0u);
  EXPECT_EQ(m.results_total(), 3u);
  EXPECT_EQ(m.dispatch_latency().count, 2u);
}

TEST(MetricsTest, DeviceKeysListKeysWithWorkersOrQueuedWork) {
  Dispatcher d;
  d.Submit(
      MetricsWork("j", "queued-only"), [](const WorkOutcome&) {}, 0);
  ASSERT_TRUE(d.AddWorker(MetricsWorker("w1", "b-key"), 0).ok());
  ASSERT_TRUE(d.AddWorker(MetricsWorker("w2", "gone-key"), 0).ok());
  d.RemoveWorker("w2", 1);
  EXPECT_EQ(d.DeviceKeys(), (std::vector<std::string>{"b-key", "queued-only"}));
}

// ---- The rendered text ----

struct NullSender final : LeaseSender {
  void Send(std::vector<Assignment>) override {}
  void Withdraw(std::vector<Withdrawal>) override {}
};

std::string TempDb(const std::string& name) {
  std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / ("tf-metrics-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string db = (dir / (name + ".db")).string();
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db + suffix);
  return db;
}

TEST(MetricsTextTest, EveryLineParsesAndEveryFamilyHasHelpAndType) {
  Dispatcher d;
  NullSender sender;
  const std::string db = TempDb("render");
  absl::StatusOr<std::unique_ptr<JobTable>> table = JobTable::Open(db);
  ASSERT_TRUE(table.ok()) << table.status();
  absl::StatusOr<std::unique_ptr<tuner::RecordStore>> records = tuner::RecordStore::Open(db);
  ASSERT_TRUE(records.ok()) << records.status();
  absl::StatusOr<std::unique_ptr<JobManager>> jobs =
      JobManager::Create({}, d, sender, **table, *std::move(records));
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  const std::string odd_key = "odd\"key\\with\nnewline";
  ASSERT_TRUE(d.AddWorker(MetricsWorker("w1", odd_key), 0).ok());
  farm_api::WorkerDescription under_qemu = MetricsWorker("w2", odd_key);
  under_qemu.emulated = true;
  ASSERT_TRUE(d.AddWorker(under_qemu, 0).ok());
  d.Submit(
      MetricsWork("j", odd_key), [](const WorkOutcome&) {}, 0);  // w1 or w2 busy
  d.Submit(
      MetricsWork("j", "nobody"), [](const WorkOutcome&) {}, 0);
  Metrics m;
  m.ObserveDbWrite(0.003);
  m.CountResult(tuner::ErrorKind::kRunTimeout);

  const std::string text = RenderMetricsText(m, d, **jobs);
  const Exposition e = ParseExposition(text);
  ExpectWellFormed(e);
  for (const char* family :
       {"tunefarm_workers", "tunefarm_queue_depth", "tunefarm_leases_outstanding",
        "tunefarm_results_total", "tunefarm_trials_per_second", "tunefarm_jobs",
        "tunefarm_dispatch_latency_seconds", "tunefarm_db_write_seconds"}) {
    EXPECT_TRUE(e.families.contains(family)) << family << "\n" << text;
  }
  EXPECT_EQ(e.families.at("tunefarm_results_total").type, "counter");
  EXPECT_EQ(e.families.at("tunefarm_dispatch_latency_seconds").type, "histogram");

  // The odd key reads back unescaped; every state is there, 0 included.
  auto workers = [&](const std::string& key, const std::string& state) {
    return e.Value("tunefarm_workers", {{"device_key", key}, {"state", state}});
  };
  EXPECT_EQ(workers(odd_key, "idle"), 1);
  EXPECT_EQ(workers(odd_key, "measuring"), 1);
  EXPECT_EQ(workers(odd_key, "session"), 0);
  EXPECT_EQ(workers(odd_key, "draining"), 0);
  EXPECT_EQ(workers("nobody", "idle"), 0);  // a key with queued work only
  EXPECT_EQ(e.Value("tunefarm_workers_emulated", {{"device_key", odd_key}}), 1);
  EXPECT_EQ(e.Value("tunefarm_workers_emulated", {{"device_key", "nobody"}}), 0);
  const Sample* depth = e.Find("tunefarm_queue_depth", {{"device_key", "nobody"}});
  ASSERT_NE(depth, nullptr);
  EXPECT_EQ(depth->value, 1);
  EXPECT_EQ(e.Value("tunefarm_leases_outstanding", {}), 1);
  EXPECT_EQ(e.families.at("tunefarm_results_total").samples.size(),
            std::size(tuner::kAllErrorKinds));
  EXPECT_EQ(e.Value("tunefarm_results_total", {{"outcome", "run_timeout"}}), 1);
  EXPECT_EQ(e.families.at("tunefarm_jobs").samples.size(), 6u);  // one per JobState
  EXPECT_EQ(e.Sum("tunefarm_jobs"), 0);
  EXPECT_EQ(e.Value("tunefarm_db_write_seconds_bucket", {{"le", "0.0025"}}), 0);
  EXPECT_EQ(e.Value("tunefarm_db_write_seconds_bucket", {{"le", "0.005"}}), 1);
  EXPECT_EQ(e.Value("tunefarm_db_write_seconds_count", {}), 1);
  EXPECT_NE(text.find("tunefarm_dispatch_latency_seconds_bucket{le=\"0.0001\"} 0\n"),
            std::string::npos);
}

TEST(MetricsTextTest, ResultsMatchTheDatabaseAfterAJobOnTheFleet) {
  const std::string db = TempDb("job");
  Metrics m;  // outlives the dispatcher that counts into it
  Dispatcher d;
  d.SetMetrics(&m);
  InProcessFleet fleet(d);
  JobManagerOptions o;
  o.build_parallelism = 2;
  o.metrics = &m;
  absl::StatusOr<std::unique_ptr<JobTable>> table = JobTable::Open(db);
  ASSERT_TRUE(table.ok()) << table.status();
  absl::StatusOr<std::unique_ptr<tuner::RecordStore>> job_records = tuner::RecordStore::Open(db);
  ASSERT_TRUE(job_records.ok()) << job_records.status();
  absl::StatusOr<std::unique_ptr<JobManager>> jobs =
      JobManager::Create(o, d, fleet, **table, *std::move(job_records));
  ASSERT_TRUE(jobs.ok()) << jobs.status();

  farm_api::JobSpec spec;
  spec.workload = "matmul:16,16,16:float32";
  spec.device_key = "test-cpu";
  spec.trials = 8;
  spec.batch_size = 4;
  spec.tuner = "random";
  spec.measure.number = 0;
  spec.measure.repeat = 1;
  spec.measure.min_repeat_ms = 100;
  absl::StatusOr<farm_api::JobStatus> job = (*jobs)->Submit(spec);
  ASSERT_TRUE(job.ok()) << job.status();
  // The one worker joins only once two built candidates wait, so its first result is followed
  // at once by its next lease however slow the builds are (sanitizers, a loaded machine): at
  // least one dispatch latency is observed.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (d.QueuedFor("test-cpu") < 2 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_GE(d.QueuedFor("test-cpu"), 2);
  fleet.AddWorker("test-cpu");
  absl::StatusOr<farm_api::JobStatus> s = job;
  while (s.ok() && !farm_api::IsFinished(s->state) && std::chrono::steady_clock::now() < deadline) {
    s = (*jobs)->WaitForChange(job->id, s->version, 1000);
  }
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_EQ(s->state, farm_api::JobState::kSucceeded) << s->message;

  const std::string text = RenderMetricsText(m, d, **jobs);
  const Exposition e = ParseExposition(text);
  ExpectWellFormed(e);

  // What the dispatcher counts: records a worker measured, plus worker_lost ones (the tracker
  // writes those for work whose leases kept being lost); not the tuning loop's build failures.
  absl::StatusOr<std::unique_ptr<tuner::RecordStore>> store = tuner::RecordStore::Open(db);
  ASSERT_TRUE(store.ok()) << store.status();
  absl::StatusOr<std::vector<tuner::Record>> records = (*store)->JobHistory(job->id);
  ASSERT_TRUE(records.ok()) << records.status();
  ASSERT_EQ(records->size(), 8u);
  std::map<std::string, int> dispatched;
  int total = 0;
  for (const tuner::Record& r : *records) {
    const bool by_worker = !r.measured_by.empty() && r.measured_by != "tracker";
    if (!by_worker && r.error_kind != tuner::ErrorKind::kWorkerLost) continue;
    ++dispatched[std::string(tuner::ErrorKindName(r.error_kind))];
    ++total;
  }
  EXPECT_GT(total, 0);
  EXPECT_EQ(e.Sum("tunefarm_results_total"), total);
  EXPECT_EQ(m.results_total(), static_cast<uint64_t>(total));
  for (tuner::ErrorKind kind : tuner::kAllErrorKinds) {
    const std::string name(tuner::ErrorKindName(kind));
    const Sample* sample = e.Find("tunefarm_results_total", {{"outcome", name}});
    ASSERT_NE(sample, nullptr) << name;
    EXPECT_EQ(sample->value, dispatched[name]) << name;
  }
  // The job stores the results that arrive together in one timed transaction.
  EXPECT_GE(e.Value("tunefarm_db_write_seconds_count", {}), 1);
  EXPECT_LE(e.Value("tunefarm_db_write_seconds_count", {}), 8);
  EXPECT_GT(e.Value("tunefarm_dispatch_latency_seconds_count", {}), 0);
  EXPECT_EQ(e.Value("tunefarm_jobs", {{"state", "succeeded"}}), 1);
  EXPECT_EQ(e.Sum("tunefarm_jobs"), 1);
  EXPECT_GT(e.Value("tunefarm_trials_per_second", {}), 0);
  EXPECT_EQ(e.Value("tunefarm_workers", {{"device_key", "test-cpu"}, {"state", "idle"}}), 1);

  jobs->reset();  // before the fleet and the dispatcher
}

}  // namespace
}  // namespace tunefarm::tracker

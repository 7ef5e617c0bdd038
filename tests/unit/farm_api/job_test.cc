// JobSpec as the jobs table stores it: every field survives the JSON round trip, unknown
// fields are ignored (a newer tracker's spec still loads), and a wrong type names the field.
#include "farm_api/job.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace tunefarm::farm_api {
namespace {

using ::testing::HasSubstr;

JobSpec FullSpec() {
  JobSpec s;
  s.script_source = "x = 1\n";
  s.script_name = "tune.te";
  s.bindings = {{"n", 64}, {"m", -3}};
  s.dtype = "float64";
  s.target = "llvm -mtriple=aarch64-linux-gnu";
  s.device_key = "rasp4b";
  s.trials = 123;
  s.tuner = "ga";
  s.batch_size = 7;
  s.early_stopping = 11;
  s.seed = 18446744073709551615ull;
  s.measure.number = 5;
  s.measure.repeat = 4;
  s.measure.min_repeat_ms = 9;
  s.measure.cooldown_ms = 2;
  s.measure.cache_flush = tuner::CacheFlush::kWeights;
  s.measure.warmup_ms = 50;
  s.measure.build_timeout_s = 3.5;
  s.measure.run_timeout_s = 4.25;
  s.measure.check_correctness = false;
  s.measure.rtol = 0.5;
  s.measure.atol = 0.25;
  s.measure.slow_cutoff_ratio = -1;
  s.measure.threads = 3;
  s.priority = 42;
  s.transfer = true;
  return s;
}

void ExpectSameSpec(const JobSpec& a, const JobSpec& b) {
  EXPECT_EQ(a.workload, b.workload);
  EXPECT_EQ(a.script_source, b.script_source);
  EXPECT_EQ(a.script_name, b.script_name);
  EXPECT_EQ(a.bindings, b.bindings);
  EXPECT_EQ(a.dtype, b.dtype);
  EXPECT_EQ(a.target, b.target);
  EXPECT_EQ(a.device_key, b.device_key);
  EXPECT_EQ(a.trials, b.trials);
  EXPECT_EQ(a.tuner, b.tuner);
  EXPECT_EQ(a.batch_size, b.batch_size);
  EXPECT_EQ(a.early_stopping, b.early_stopping);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.measure.number, b.measure.number);
  EXPECT_EQ(a.measure.repeat, b.measure.repeat);
  EXPECT_EQ(a.measure.min_repeat_ms, b.measure.min_repeat_ms);
  EXPECT_EQ(a.measure.cooldown_ms, b.measure.cooldown_ms);
  EXPECT_EQ(a.measure.cache_flush, b.measure.cache_flush);
  EXPECT_EQ(a.measure.warmup_ms, b.measure.warmup_ms);
  EXPECT_EQ(a.measure.build_timeout_s, b.measure.build_timeout_s);
  EXPECT_EQ(a.measure.run_timeout_s, b.measure.run_timeout_s);
  EXPECT_EQ(a.measure.check_correctness, b.measure.check_correctness);
  EXPECT_EQ(a.measure.rtol, b.measure.rtol);
  EXPECT_EQ(a.measure.atol, b.measure.atol);
  EXPECT_EQ(a.measure.slow_cutoff_ratio, b.measure.slow_cutoff_ratio);
  EXPECT_EQ(a.measure.threads, b.measure.threads);
  EXPECT_EQ(a.priority, b.priority);
  EXPECT_EQ(a.transfer, b.transfer);
}

TEST(JobSpecJsonTest, EveryFieldRoundTrips) {
  const JobSpec spec = FullSpec();
  absl::StatusOr<JobSpec> back = JobSpecFromJson(JobSpecToJson(spec));
  ASSERT_TRUE(back.ok()) << back.status();
  ExpectSameSpec(*back, spec);

  JobSpec workload;
  workload.workload = "matmul:16,16,16:float32";
  workload.device_key = "cpu";
  workload.trials = 6;
  back = JobSpecFromJson(JobSpecToJson(workload));
  ASSERT_TRUE(back.ok()) << back.status();
  ExpectSameSpec(*back, workload);
}

TEST(JobSpecJsonTest, MissingFieldsKeepDefaultsAndUnknownOnesAreIgnored) {
  absl::StatusOr<JobSpec> spec = JobSpecFromJson(
      R"({"workload": "matmul:8,8,8", "trials": 3, "future_field": [1, 2],
          "measure": {"repeat": 2, "also_new": {}}})");
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->workload, "matmul:8,8,8");
  EXPECT_EQ(spec->trials, 3);
  EXPECT_EQ(spec->measure.repeat, 2);
  const JobSpec defaults;
  EXPECT_EQ(spec->tuner, defaults.tuner);
  EXPECT_EQ(spec->batch_size, defaults.batch_size);
  EXPECT_EQ(spec->target, defaults.target);
  EXPECT_EQ(spec->measure.min_repeat_ms, defaults.measure.min_repeat_ms);
  EXPECT_EQ(spec->measure.check_correctness, defaults.measure.check_correctness);
}

TEST(JobSpecJsonTest, BadTypesNameTheField) {
  struct Case {
    const char* json;
    const char* field;
  };
  for (const Case& c : {
           Case{R"({"trials": "many"})", "'trials'"},
           Case{R"({"trials": 1.5})", "'trials'"},
           Case{R"({"trials": 9999999999})", "'trials'"},
           Case{R"({"workload": 7})", "'workload'"},
           Case{R"({"seed": -1})", "'seed'"},
           Case{R"({"transfer": 1})", "'transfer'"},
           Case{R"({"bindings": [1]})", "'bindings'"},
           Case{R"({"bindings": {"n": "x"}})", "'bindings.n'"},
           Case{R"({"measure": 3})", "'measure'"},
           Case{R"({"measure": {"repeat": "x"}})", "'measure.repeat'"},
           Case{R"({"measure": {"rtol": "x"}})", "'measure.rtol'"},
           Case{R"({"measure": {"flush_cache": "yes"}})", "'measure.flush_cache'"},
           Case{R"({"measure": {"cache_flush": "lukewarm"}})", "'measure.cache_flush'"},
           Case{R"({"measure": {"cache_flush": 1}})", "'measure.cache_flush'"},
           Case{R"({"measure": {"warmup_ms": -1}})", "measure.warmup_ms"},
       }) {
    absl::StatusOr<JobSpec> spec = JobSpecFromJson(c.json);
    ASSERT_FALSE(spec.ok()) << c.json;
    EXPECT_EQ(spec.status().code(), absl::StatusCode::kInvalidArgument) << c.json;
    EXPECT_THAT(spec.status().message(), HasSubstr(c.field)) << c.json;
  }
  EXPECT_FALSE(JobSpecFromJson("{not json").ok());
  EXPECT_FALSE(JobSpecFromJson("[1, 2]").ok());
}

// A spec an older tracker stored with numbers now refused is not resumed with them.
TEST(JobSpecJsonTest, StoredMeasureNumbersOutOfRangeAreRefused) {
  absl::StatusOr<JobSpec> spec = JobSpecFromJson(R"({"measure": {"run_timeout_s": 1e300}})");
  ASSERT_FALSE(spec.ok());
  EXPECT_EQ(spec.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(spec.status().message(),
            "job spec: measure.run_timeout_s must be a finite number in (0, 86400] s, got 1e+300");
  EXPECT_FALSE(JobSpecFromJson(R"({"measure": {"cooldown_ms": 100000000}})").ok());
}

// A spec stored before cache_flush said flush_cache: true for every cache flushed; the job resumes
// timing that way, and its records stay apart from the weights-only ones.
TEST(JobSpecJsonTest, StoredFlushCacheIsEveryCacheFlushed) {
  absl::StatusOr<JobSpec> spec =
      JobSpecFromJson(R"({"measure": {"number": 1, "min_repeat_ms": 0, "flush_cache": true}})");
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->measure.cache_flush, tuner::CacheFlush::kAll);
  EXPECT_EQ(runtime::measure::TimedFlush(spec->measure), tuner::CacheFlush::kAll);
}

TEST(JobStateTest, NamesRoundTrip) {
  for (JobState s : {JobState::kQueued, JobState::kRunning, JobState::kSucceeded, JobState::kFailed,
                     JobState::kCancelled}) {
    absl::StatusOr<JobState> back = ParseJobState(JobStateName(s));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, s);
  }
  EXPECT_EQ(JobStateName(JobState::kCancelled), "cancelled");
  EXPECT_FALSE(ParseJobState("bogus").ok());
  EXPECT_FALSE(IsFinished(JobState::kRunning));
  EXPECT_TRUE(IsFinished(JobState::kFailed));
}

}  // namespace
}  // namespace tunefarm::farm_api

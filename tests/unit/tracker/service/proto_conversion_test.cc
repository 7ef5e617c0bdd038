// The tunefarm.v1 conversions both ways: what the tracker sends is what a client reads back.
#include "tracker/service/proto_conversion.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <limits>
#include <string>
#include <vector>

#include "farm_api/model_job_proto.h"
#include "proto/tunefarm/v1/session.pb.h"

namespace tunefarm::tracker {
namespace {

TEST(ProtoConversionTest, JobSpecSurvivesTheClientAndTheTracker) {
  farm_api::JobSpec spec;
  spec.workload = "matmul:64,64,64:float32";
  spec.device_key = "rasp4b";
  spec.target = "llvm -mtriple=aarch64-linux-gnu";
  spec.trials = 40;
  spec.tuner = "ga";
  spec.batch_size = 8;
  spec.early_stopping = 12;
  spec.seed = 7;
  spec.priority = 3;
  spec.transfer = true;
  spec.measure.repeat = 5;
  spec.measure.min_repeat_ms = 30;
  spec.measure.run_timeout_s = 4;
  spec.measure.threads = 2;
  spec.measure.check_correctness = false;
  absl::StatusOr<farm_api::JobSpec> back =
      farm_api::JobSpecFromProto(farm_api::JobSpecToProto(spec));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(farm_api::JobSpecToJson(*back), farm_api::JobSpecToJson(spec));
}

TEST(ProtoConversionTest, AModelJobsLayoutChoiceSurvivesTheClientAndTheTracker) {
  farm_api::ModelJobSpec spec;
  spec.model_name = "resnet18.onnx";
  spec.tasks = {{"conv2d_nchwc:1,64,56,56,64,3,3,1,1,16,16:float32", 2, 0},
                {"conv2d_nchwc:1,64,56,56,64,3,3,1,1,16,8:float32", 2, 0}};
  spec.device_key = "rasp4b";
  spec.trials = 64;
  spec.layout.vars = {{16, {8, 16}, 64}};
  spec.layout.site_required = {true};
  spec.layout.uses = {{0, 0, {{0, 16}}}, {1, 0, {{0, 8}}}};
  v1::SubmitModelJobRequest request = farm_api::ModelJobSpecToProto(spec);
  absl::StatusOr<farm_api::ModelJobSpec> back = farm_api::ModelJobSpecFromProto(request);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(farm_api::ModelJobSpecToJson(*back), farm_api::ModelJobSpecToJson(spec));
  request.set_layout_choice(R"({"vars":[],"sites":"x","uses":[]})");
  EXPECT_THAT(farm_api::ModelJobSpecFromProto(request).status().message(),
              ::testing::HasSubstr("layout choice: field 'sites' is not an array"));
  request.clear_layout_choice();
  back = farm_api::ModelJobSpecFromProto(request);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(back->layout.empty());
}

TEST(ProtoConversionTest, AModelJobsStatusReadsBackAsSent) {
  farm_api::ModelJobStatus s;
  s.id = "model-1";
  s.state = farm_api::JobState::kRunning;
  s.model_name = "resnet18.onnx";
  s.target = "llvm -mcpu=znver3";
  s.device_key = "epyc";
  s.trials = 64;
  s.trials_done = 32;
  s.cache_flush = tuner::CacheFlush::kWeights;
  s.estimated_seconds = 0.0115;
  s.message = "tuning";
  s.created_ms = 1000;
  s.updated_ms = 2000;
  s.latency = {0.012, 0.02, "worker-a"};
  farm_api::ModelTaskStatus pair;
  pair.workload_key = "conv2d_nchwc:1,64,56,56,64,3,3,1,1,16,16:float32";
  pair.weight = 2;
  pair.layer = 0;
  pair.job_id = "job-7";
  pair.trials = 16;
  pair.trials_done = 16;
  pair.best_seconds = 0.0004;
  pair.state = farm_api::JobState::kSucceeded;
  pair.runs = 3;  // its sites in the chosen layout, not its weight
  farm_api::ModelTaskStatus other;
  other.workload_key = "dense:1,512,1000:float32";
  s.tasks = {pair, other};
  const farm_api::ModelJobStatus back =
      farm_api::ModelJobStatusFromProto(farm_api::ModelJobStatusToProto(s));
  EXPECT_EQ(back.id, s.id);
  EXPECT_EQ(back.state, s.state);
  EXPECT_EQ(back.model_name, s.model_name);
  EXPECT_EQ(back.target, s.target);
  EXPECT_EQ(back.device_key, s.device_key);
  EXPECT_EQ(back.trials, s.trials);
  EXPECT_EQ(back.trials_done, s.trials_done);
  EXPECT_EQ(back.cache_flush, s.cache_flush);
  EXPECT_EQ(back.estimated_seconds, s.estimated_seconds);
  EXPECT_EQ(back.message, s.message);
  EXPECT_EQ(back.created_ms, s.created_ms);
  EXPECT_EQ(back.updated_ms, s.updated_ms);
  EXPECT_EQ(back.latency.measured_seconds, s.latency.measured_seconds);
  EXPECT_EQ(back.latency.untuned_seconds, s.latency.untuned_seconds);
  EXPECT_EQ(back.latency.measured_by, s.latency.measured_by);
  ASSERT_EQ(back.tasks.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    const farm_api::ModelTaskStatus& a = s.tasks[i];
    const farm_api::ModelTaskStatus& b = back.tasks[i];
    EXPECT_EQ(b.workload_key, a.workload_key);
    EXPECT_EQ(b.weight, a.weight);
    EXPECT_EQ(b.layer, a.layer) << "-1 stays absent";
    EXPECT_EQ(b.job_id, a.job_id);
    EXPECT_EQ(b.trials, a.trials);
    EXPECT_EQ(b.trials_done, a.trials_done);
    EXPECT_EQ(b.best_seconds, a.best_seconds);
    EXPECT_EQ(b.state, a.state);
    EXPECT_EQ(b.runs, a.runs);
  }
}

TEST(ProtoConversionTest, JobStatusWorkerAndRecordReadBackAsSent) {
  farm_api::JobStatus job;
  job.id = "job-1";
  job.state = farm_api::JobState::kCancelled;
  job.workload_key = "matmul:8,8,8:float32";
  job.trials = 10;
  job.progress.trials_done = 4;
  job.progress.errors = 1;
  job.progress.error_counts = {{"run_timeout", 1}};
  job.progress.best_seconds = 0.5;
  job.progress.best_gflops = 2;
  job.message = "cancelled";
  farm_api::JobStatus read = farm_api::JobStatusFromProto(farm_api::JobStatusToProto(job));
  EXPECT_EQ(read.id, job.id);
  EXPECT_EQ(read.state, job.state);
  EXPECT_EQ(read.progress.trials_done, 4);
  EXPECT_EQ(read.progress.error_counts, job.progress.error_counts);
  EXPECT_EQ(read.message, job.message);

  farm_api::WorkerSnapshot w;
  w.description.worker_id = "w-1-pi";
  w.description.device_key = "rasp4b";
  w.description.cores = 4;
  w.state = farm_api::WorkerState::kBusy;
  w.measured = 9;
  farm_api::WorkerSnapshot wr =
      farm_api::WorkerSnapshotFromProto(farm_api::WorkerSnapshotToProto(w));
  EXPECT_EQ(wr.description.worker_id, "w-1-pi");
  EXPECT_EQ(wr.state, farm_api::WorkerState::kBusy);
  EXPECT_EQ(wr.measured, 9);

  tuner::Record r;
  r.workload_key = job.workload_key;
  r.config_json = "{\"a\":1}";
  r.repeat_seconds = {0.25, 0.5};
  r.error_kind = tuner::ErrorKind::kWrongAnswer;
  r.measured_by = "w-1-pi";
  r.canary_ratio = 1.25;
  r.noisy = true;
  r.emulated = true;
  EXPECT_EQ(farm_api::RecordFromProto(farm_api::RecordToProto(r, 0)), r);
  EXPECT_DOUBLE_EQ(farm_api::RecordToProto(r, 0).spread(), 1.0);  // (0.5 - 0.25) / 0.25
}

// A job's measure options go through proto_mapping, whose own test covers every number: a bad
// one refuses the whole job, named.
TEST(ProtoConversionTest, ABadMeasureNumberRefusesTheJobByName) {
  v1::SubmitJobRequest request;
  request.set_workload("matmul:8,8,8");
  request.mutable_measure()->set_run_timeout_s(std::numeric_limits<double>::infinity());
  absl::StatusOr<farm_api::JobSpec> spec = farm_api::JobSpecFromProto(request);
  ASSERT_FALSE(spec.ok());
  EXPECT_EQ(spec.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(spec.status().message(),
            "measure.run_timeout_s must be a finite number in (0, 86400] s, got inf");
}

// Without a measure seed of its own, a job's seed also seeds its generated inputs (as before
// the measure options carried one); with one, that one does.
TEST(ProtoConversionTest, AJobsSeedSeedsItsInputsUnlessTheMeasureOptionsSayOtherwise) {
  v1::SubmitJobRequest request;
  request.set_workload("matmul:8,8,8");
  request.set_seed(42);
  absl::StatusOr<farm_api::JobSpec> spec = farm_api::JobSpecFromProto(request);
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->seed, 42u);
  EXPECT_EQ(spec->measure.seed, 42u);
  request.mutable_measure()->set_seed(5);
  spec = farm_api::JobSpecFromProto(request);
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->seed, 42u);
  EXPECT_EQ(spec->measure.seed, 5u);
}

TEST(ProtoConversionTest, SessionTimeoutsAreCheckedBeforeAnyDeadlineIsComputed) {
  v1::OpenSessionRequest request;
  absl::StatusOr<SessionTimeouts> t = SessionTimeoutsFromProto(request);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_DOUBLE_EQ(t->wait_s, 30);
  EXPECT_DOUBLE_EQ(t->idle_timeout_s, 300);
  request.set_wait_s(0.5);
  request.set_idle_timeout_s(86400);
  t = SessionTimeoutsFromProto(request);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_DOUBLE_EQ(t->wait_s, 0.5);
  EXPECT_DOUBLE_EQ(t->idle_timeout_s, 86400);

  // 1e300 s used to overflow int64: "no idle worker ... within -9223372036854775808 s".
  request.set_wait_s(1e300);
  t = SessionTimeoutsFromProto(request);
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(t.status().message(), "wait_s must be a finite number in [0, 86400] s, got 1e+300");
  request.set_wait_s(1);
  request.set_idle_timeout_s(std::numeric_limits<double>::infinity());
  t = SessionTimeoutsFromProto(request);
  EXPECT_EQ(t.status().message(),
            "idle_timeout_s must be a finite number in [0, 86400] s, got inf");
  request.set_idle_timeout_s(-1);
  EXPECT_FALSE(SessionTimeoutsFromProto(request).ok());
}

TEST(ProtoConversionTest, AResultIsTimingsOrABuildersLibrariesAndNeverTrustedBlindly) {
  v1::LeaseResult result;
  result.mutable_outcome()->set_error_kind("ok");
  result.mutable_outcome()->add_repeat_seconds(2e-3);
  result.set_build_seconds(0.5);
  WorkOutcome o = WorkOutcomeFromResult(result, "w1");
  EXPECT_EQ(o.error_kind, tuner::ErrorKind::kOk);
  EXPECT_EQ(o.repeat_seconds, std::vector<double>{2e-3});
  EXPECT_DOUBLE_EQ(o.build_seconds, 0.5);
  EXPECT_FALSE(o.built.has_value());

  // A builder's answer: the libraries, hashed here.
  v1::LeaseResult built;
  built.mutable_outcome()->set_error_kind("ok");
  built.set_build_seconds(std::numeric_limits<double>::infinity());  // no time at all
  built.mutable_library()->set_bytes("library bytes");
  built.set_function_name("default_function");
  built.mutable_reference_library()->set_bytes("reference bytes");
  built.set_reference_key("matmul-ref");
  o = WorkOutcomeFromResult(built, "b1");
  ASSERT_EQ(o.error_kind, tuner::ErrorKind::kOk) << o.error_message;
  ASSERT_TRUE(o.built.has_value());
  EXPECT_EQ(o.build_seconds, 0);
  EXPECT_EQ(*o.built->library.bytes, "library bytes");
  EXPECT_EQ(o.built->library.sha256.size(), 64u);
  EXPECT_EQ(o.built->function_name, "default_function");
  ASSERT_TRUE(o.built->reference.has_value());
  EXPECT_EQ(o.built->reference_key, "matmul-ref");
  EXPECT_TRUE(o.repeat_seconds.empty());

  // A claimed hash that is not the bytes', a library without bytes or without a kernel name.
  v1::LeaseResult bad = built;
  bad.mutable_library()->set_sha256(std::string(64, '0'));
  o = WorkOutcomeFromResult(bad, "b1");
  EXPECT_EQ(o.error_kind, tuner::ErrorKind::kRuntimeError);
  EXPECT_THAT(o.error_message, ::testing::HasSubstr("does not match its sha256"));
  EXPECT_FALSE(o.built.has_value());
  bad = built;
  bad.mutable_reference_library()->clear_bytes();
  o = WorkOutcomeFromResult(bad, "b1");
  EXPECT_THAT(o.error_message, ::testing::HasSubstr("reference library without bytes"));
  bad = built;
  bad.clear_function_name();
  o = WorkOutcomeFromResult(bad, "b1");
  EXPECT_THAT(o.error_message, ::testing::HasSubstr("without its function name"));

  // A refusal to build and a failed build carry neither timings nor libraries.
  v1::LeaseResult refused = built;
  refused.set_cannot_build(true);
  o = WorkOutcomeFromResult(refused, "b1");
  EXPECT_TRUE(o.unbuilt);
  EXPECT_FALSE(o.built.has_value());
  v1::LeaseResult failed = built;
  failed.mutable_outcome()->set_error_kind("build_error");
  o = WorkOutcomeFromResult(failed, "b1");
  EXPECT_EQ(o.error_kind, tuner::ErrorKind::kBuildError);
  EXPECT_FALSE(o.built.has_value());
  failed.mutable_outcome()->set_error_kind("no_such_kind");
  o = WorkOutcomeFromResult(failed, "b1");
  EXPECT_EQ(o.error_kind, tuner::ErrorKind::kRuntimeError);
  EXPECT_THAT(o.error_message, ::testing::HasSubstr("unknown error kind 'no_such_kind'"));
}

}  // namespace
}  // namespace tunefarm::tracker

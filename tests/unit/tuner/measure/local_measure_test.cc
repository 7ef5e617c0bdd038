// LocalBuilder + LocalRunner end to end on the probe template: correct candidates are timed,
// wrong ones are wrong_answer, a crash and a hang are recorded and the next candidate of the same
// batch still measures ok, and build failures and timeouts pass through the runner.
#include <chrono>
#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "spdlog/sinks/stdout_sinks.h"
#include "spdlog/spdlog.h"
#include "tests/unit/tuner/measure/probe_template.h"
#include "tuner/measure/local_builder.h"
#include "tuner/measure/local_runner.h"

namespace tunefarm::tuner {
namespace {

using ::testing::HasSubstr;
using testing::MakeProbeTask;
using testing::ProbeConfig;

// Quick timing: these tests check outcomes, not speed.
MeasureOptions FastOptions() {
  MeasureOptions m;
  m.repeat = 2;
  m.min_repeat_ms = 1;
  m.threads = 1;
  return m;
}

struct Pipeline {
  std::unique_ptr<LocalBuilder> builder;
  std::unique_ptr<LocalRunner> runner;
};

Pipeline MakePipeline(const MeasureOptions& m, double late_build_grace_s = 2) {
  LocalBuilderOptions b;
  b.measure = m;
  b.parallelism = 2;
  b.late_build_grace_s = late_build_grace_s;
  LocalRunnerOptions r;
  r.measure = m;
  absl::StatusOr<std::unique_ptr<LocalBuilder>> builder = LocalBuilder::Create(b);
  absl::StatusOr<std::unique_ptr<LocalRunner>> runner = LocalRunner::Create(r);
  EXPECT_TRUE(builder.ok()) << builder.status();
  EXPECT_TRUE(runner.ok()) << runner.status();
  return {builder.ok() ? *std::move(builder) : nullptr, runner.ok() ? *std::move(runner) : nullptr};
}

std::vector<MeasureInput> Inputs(const Task& task, const std::vector<std::string>& behaviors) {
  std::vector<MeasureInput> inputs;
  for (const std::string& b : behaviors) inputs.push_back({&task, ProbeConfig(task, b)});
  return inputs;
}

std::vector<MeasureResult> BuildAndRun(Pipeline& p, const std::vector<MeasureInput>& inputs) {
  std::vector<BuildResult> builds = p.builder->Build(inputs);
  EXPECT_EQ(builds.size(), inputs.size());
  return p.runner->Run(inputs, builds, /*best_seconds=*/0);
}

TEST(LocalMeasureTest, CorrectCandidatesAreTimed) {
  std::unique_ptr<Task> task = MakeProbeTask("probe_ok");
  ASSERT_NE(task, nullptr);
  Pipeline p = MakePipeline(FastOptions());
  std::vector<MeasureInput> inputs = {{task.get(), ProbeConfig(*task, "ok", 1)},
                                      {task.get(), ProbeConfig(*task, "ok", 8)}};
  std::vector<BuildResult> builds = p.builder->Build(inputs);
  ASSERT_EQ(builds.size(), 2u);
  for (const BuildResult& b : builds) {
    ASSERT_EQ(b.error_kind, ErrorKind::kOk) << b.error_message;
    EXPECT_GT(b.build_seconds, 0);
    EXPECT_TRUE(std::filesystem::exists(b.library_path));
  }
  // One reference library serves both configs.
  EXPECT_EQ(builds[0].reference_library_path, builds[1].reference_library_path);
  EXPECT_FALSE(builds[0].reference_key.empty());
  std::vector<MeasureResult> results = p.runner->Run(inputs, builds, 0);
  for (const MeasureResult& r : results) {
    EXPECT_EQ(r.error_kind, ErrorKind::kOk) << r.error_message;
    ASSERT_EQ(r.repeat_seconds.size(), 2u);
    for (double t : r.repeat_seconds) EXPECT_GT(t, 0);
    EXPECT_EQ(r.measured_by, "local");
  }
  EXPECT_EQ(p.runner->children_started(), 1);
  EXPECT_THAT(p.runner->device_key(), ::testing::StartsWith("local-"));
}

TEST(LocalMeasureTest, WrongAnswerNamesTheFirstMismatch) {
  std::unique_ptr<Task> task = MakeProbeTask("probe_wrong");
  ASSERT_NE(task, nullptr);
  Pipeline p = MakePipeline(FastOptions());
  std::vector<MeasureResult> results = BuildAndRun(p, Inputs(*task, {"wrong", "ok"}));
  EXPECT_EQ(results[0].error_kind, ErrorKind::kWrongAnswer) << results[0].error_message;
  EXPECT_THAT(results[0].error_message, HasSubstr("C["));
  EXPECT_THAT(results[0].error_message, HasSubstr("expected"));
  EXPECT_TRUE(results[0].repeat_seconds.empty());
  EXPECT_EQ(results[1].error_kind, ErrorKind::kOk) << results[1].error_message;
  EXPECT_EQ(p.runner->children_started(), 2);  // a fresh process after the wrong answer
}

TEST(LocalMeasureTest, ACrashIsARuntimeErrorAndTheNextCandidateRuns) {
  std::unique_ptr<Task> task = MakeProbeTask("probe_crash");
  ASSERT_NE(task, nullptr);
  Pipeline p = MakePipeline(FastOptions());
  std::vector<MeasureResult> results = BuildAndRun(p, Inputs(*task, {"ok", "crash", "ok"}));
  EXPECT_EQ(results[0].error_kind, ErrorKind::kOk) << results[0].error_message;
  EXPECT_EQ(results[1].error_kind, ErrorKind::kRuntimeError);
  EXPECT_THAT(results[1].error_message, HasSubstr("killed by SIGSEGV"));
  EXPECT_EQ(results[2].error_kind, ErrorKind::kOk) << results[2].error_message;
  EXPECT_EQ(p.runner->children_started(), 2);
}

TEST(LocalMeasureTest, AHangIsARunTimeoutAndTheNextCandidateRuns) {
  std::unique_ptr<Task> task = MakeProbeTask("probe_hang");
  ASSERT_NE(task, nullptr);
  MeasureOptions m = FastOptions();
  m.run_timeout_s = 1.0;
  Pipeline p = MakePipeline(m);
  std::vector<MeasureInput> inputs = Inputs(*task, {"hang", "ok"});
  std::vector<BuildResult> builds = p.builder->Build(inputs);
  const auto start = std::chrono::steady_clock::now();
  std::vector<MeasureResult> results = p.runner->Run(inputs, builds, 0);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(results[0].error_kind, ErrorKind::kRunTimeout) << results[0].error_message;
  EXPECT_EQ(results[1].error_kind, ErrorKind::kOk) << results[1].error_message;
  EXPECT_GE(seconds, 1.0);
  EXPECT_LT(seconds, 8.0);  // the timeout plus a fresh child, with room for a loaded machine
}

TEST(LocalMeasureTest, BuildFailuresPassThroughTheRunner) {
  std::unique_ptr<Task> task = MakeProbeTask("probe_build");
  ASSERT_NE(task, nullptr);
  Pipeline p = MakePipeline(FastOptions());
  std::vector<MeasureResult> results = BuildAndRun(p, Inputs(*task, {"invalid", "build_error"}));
  EXPECT_EQ(results[0].error_kind, ErrorKind::kInvalidConfig);
  EXPECT_THAT(results[0].error_message, HasSubstr("rejects this config"));
  EXPECT_EQ(results[1].error_kind, ErrorKind::kBuildError);
  EXPECT_THAT(results[1].error_message, HasSubstr("blockIdx.x"));
  EXPECT_EQ(results[1].measured_by, "local");
  EXPECT_GT(results[1].build_seconds, 0);
  EXPECT_EQ(p.runner->children_started(), 0);  // nothing reached the child
}

TEST(LocalMeasureTest, ABuildPastItsDeadlineIsABuildTimeout) {
  std::unique_ptr<Task> task = MakeProbeTask("probe_build_timeout");
  ASSERT_NE(task, nullptr);
  MeasureOptions m = FastOptions();
  m.build_timeout_s = 1e-4;
  Pipeline p = MakePipeline(m, /*late_build_grace_s=*/0);
  std::string work_dir = p.builder->work_dir();
  std::vector<MeasureResult> results = BuildAndRun(p, Inputs(*task, {"ok", "ok", "ok"}));
  for (const MeasureResult& r : results) {
    EXPECT_EQ(r.error_kind, ErrorKind::kBuildTimeout);
    EXPECT_THAT(r.error_message, HasSubstr("longer than"));
  }
  // Late builds may still be running: destroying the builder must not disturb them, and the
  // last of them removes the work directory.
  p.builder.reset();
  task.reset();
  ASSERT_TRUE(LocalBuilder::WaitForLateBuilds(30));
  EXPECT_FALSE(std::filesystem::exists(work_dir));
}

// The process's exit hook waits for a late build, so it does not tear the logger and LLVM down
// under it (ThreadSanitizer caught a test binary exiting mid-build). The hook exists once a
// build has ended, as in a tuning run whose late builds come after many on-time ones.
TEST(LocalMeasureTest, AProcessExitingDuringALateBuildWaitsForIt) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        spdlog::set_default_logger(spdlog::stderr_logger_mt("late_build_exit"));
        std::unique_ptr<Task> task = MakeProbeTask("probe_exit_during_late_build");
        LocalBuilderOptions b;
        b.measure = FastOptions();
        b.parallelism = 2;
        b.late_build_grace_s = 0;
        if ((*LocalBuilder::Create(b))->Build(Inputs(*task, {"ok"}))[0].error_kind !=
            ErrorKind::kOk) {
          std::exit(4);
        }
        b.measure.build_timeout_s = 1e-4;
        std::unique_ptr<LocalBuilder> builder = *LocalBuilder::Create(b);
        // A build takes milliseconds against a 0.1 ms deadline, so one is nearly always still
        // running when Build returns; try again in the rare case none is.
        for (int attempt = 0; attempt < 20; ++attempt) {
          builder->Build(Inputs(*task, {"ok", "ok", "ok", "ok"}));
          if (!LocalBuilder::WaitForLateBuilds(0)) std::exit(0);
        }
        std::exit(3);
      },
      ::testing::ExitedWithCode(0), "waiting for [0-9]+ build\\(s\\) past their deadline");
}

TEST(LocalMeasureTest, TheWorkDirectoryIsRemovedWithTheBuilder) {
  std::unique_ptr<Task> task = MakeProbeTask("probe_cleanup");
  ASSERT_NE(task, nullptr);
  Pipeline p = MakePipeline(FastOptions());
  std::vector<BuildResult> builds = p.builder->Build(Inputs(*task, {"ok"}));
  ASSERT_EQ(builds[0].error_kind, ErrorKind::kOk) << builds[0].error_message;
  const std::string dir = p.builder->work_dir();
  EXPECT_TRUE(std::filesystem::exists(builds[0].library_path));
  p.builder.reset();
  EXPECT_FALSE(std::filesystem::exists(dir));
}

TEST(LocalMeasureTest, DirectoriesOfDeadProcessesAreSwept) {
  const std::filesystem::path parent =
      std::filesystem::path(::testing::TempDir()) / ("measure_sweep_" + std::to_string(getpid()));
  std::filesystem::create_directories(parent);
  pid_t dead = fork();  // a pid that certainly belongs to no process once reaped
  if (dead == 0) _exit(0);
  ASSERT_GT(dead, 0);
  waitpid(dead, nullptr, 0);
  const auto stale = parent / ("tunefarm-build-" + std::to_string(dead) + "-abcdef");
  const auto live = parent / ("tunefarm-build-" + std::to_string(getppid()) + "-abcdef");
  const auto kept = parent / "tunefarm-kept-build-abcdef";
  for (const auto& dir : {stale, live, kept}) std::filesystem::create_directories(dir / "sub");
  LocalBuilderOptions options;
  options.work_dir_parent = parent.string();
  absl::StatusOr<std::unique_ptr<LocalBuilder>> builder = LocalBuilder::Create(options);
  ASSERT_TRUE(builder.ok()) << builder.status();
  EXPECT_FALSE(std::filesystem::exists(stale));
  EXPECT_TRUE(std::filesystem::exists(live));
  EXPECT_TRUE(std::filesystem::exists(kept));
  EXPECT_THAT((*builder)->work_dir(),
              ::testing::HasSubstr("tunefarm-build-" + std::to_string(getpid()) + "-"));
  builder->reset();
  std::filesystem::remove_all(parent);
}

TEST(LocalMeasureTest, OldBatchesAreDeletedAfterKeepBatches) {
  std::unique_ptr<Task> task = MakeProbeTask("probe_batches");
  ASSERT_NE(task, nullptr);
  LocalBuilderOptions options;
  options.keep_batches = 1;
  options.measure = FastOptions();
  absl::StatusOr<std::unique_ptr<LocalBuilder>> builder = LocalBuilder::Create(options);
  ASSERT_TRUE(builder.ok()) << builder.status();
  std::vector<BuildResult> first = (*builder)->Build(Inputs(*task, {"ok"}));
  std::vector<BuildResult> second = (*builder)->Build(Inputs(*task, {"ok"}));
  ASSERT_EQ(second[0].error_kind, ErrorKind::kOk) << second[0].error_message;
  EXPECT_FALSE(std::filesystem::exists(first[0].library_path));
  EXPECT_TRUE(std::filesystem::exists(second[0].library_path));
  EXPECT_TRUE(std::filesystem::exists(second[0].reference_library_path));
}

TEST(LocalMeasureTest, DeviceKeysAreShortAndSanitized) {
  EXPECT_EQ(LocalDeviceKey("AMD EPYC 7B13 64-Core Processor"), "local-amd-epyc-7b13-64-core");
  EXPECT_EQ(LocalDeviceKey("Intel(R) Xeon(R) CPU E5-2690 v4 @ 2.60GHz"),
            "local-intel-xeon-e5-2690-v4");
  EXPECT_EQ(LocalDeviceKey(""), "local-cpu");
  EXPECT_LE(LocalDeviceKey(std::string(200, 'x')).size(), 6u + 40u);
}

}  // namespace
}  // namespace tunefarm::tuner

// An OpenCL device in a real farm on 127.0.0.1: `tunefarm worker --device opencl:0:0` (PoCL here;
// every test skips with the reason where the machine has no OpenCL platform) beside a CPU worker,
// a tracker, and jobs for both keys at once.
#include <chrono>
#include <csignal>
#include <set>
#include <thread>

#include "absl/strings/match.h"
#include "driver/model_executor.h"
#include "runtime/devices/process_gpu.h"
#include "tests/e2e/small_cnn_onnx.h"
#include "tests/integration/farm_fixture.h"
#include "tools/commands/model_tune_command.h"

namespace tunefarm::integration {
namespace {

constexpr char kGpuKey[] = "pocl-test";
constexpr char kCpuKey[] = "cpu-test";

class FarmOpenClTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::shared_ptr<runtime::gpu::GpuDevice>> device =
        runtime::devices::ProcessGpuDevice(runtime::gpu::GpuApi::kOpenCl);
    if (!device.ok()) GTEST_SKIP() << "no OpenCL device: " << device.status().message();
    tracker::TrackerServerOptions options = Farm::FastOptions();
    options.jobs.build_placement = tracker::BuildPlacement::kWorkers;
    farm_.StartTracker(options);
    client_ = farm_.Client();
  }

  ChildProcess StartGpuWorker() {
    return farm_.StartWorkerWithFlags(kGpuKey, {"--device", "opencl:0:0"});
  }

  static farm_api::JobSpec GpuJob(int trials) {
    farm_api::JobSpec spec = SmallJob(kGpuKey, trials);
    spec.target = "opencl -device=pocl";
    spec.workload = "matmul:64,64,64:float32";
    return spec;
  }

  std::vector<tuner::Record> SucceededRecords(const std::string& id) {
    farm_api::JobStatus done = farm_.WaitForJob(id, 180);
    EXPECT_EQ(done.state, farm_api::JobState::kSucceeded) << done.message;
    std::vector<tuner::Record> records = farm_.JobRecords(id);
    EXPECT_TRUE(NoDuplicateConfigs(records));
    return records;
  }

  Farm farm_{"opencl"};
  std::unique_ptr<client::FarmClient> client_;
};

TEST_F(FarmOpenClTest, TheWorkerRegistersItsDeviceLimitsAndAnOpenClTarget) {
  ChildProcess gpu = StartGpuWorker();
  ASSERT_TRUE(farm_.WaitForWorkers(kGpuKey, 1)) << gpu.Log();
  absl::StatusOr<std::vector<farm_api::WorkerSnapshot>> workers = client_->ListWorkers(kGpuKey);
  ASSERT_TRUE(workers.ok()) << workers.status();
  ASSERT_EQ(workers->size(), 1u);
  const farm_api::WorkerDescription& d = workers->front().description;
  EXPECT_EQ(d.target, "opencl -device=pocl");
  EXPECT_FALSE(d.gpu_model.empty());
  EXPECT_GT(d.gpu_memory_bytes, 0);
  EXPECT_EQ(d.gpu.api, "opencl");
  EXPECT_GT(d.gpu.compute_units, 0);
  EXPECT_GT(d.gpu.max_threads_per_block, 0);
  EXPECT_EQ(d.gpu.max_block_dims.size(), 3u);
  EXPECT_GT(d.gpu.max_shared_bytes, 0);
  EXPECT_FALSE(d.gpu.driver_version.empty());
}

TEST_F(FarmOpenClTest, ANonexistentDeviceIsRefusedNamingWhatTheMachineHas) {
  ChildProcess bad = farm_.StartWorkerWithFlags(kGpuKey, {"--device", "opencl:0:7"});
  EXPECT_EQ(bad.Wait(30), 2);
  EXPECT_TRUE(absl::StrContains(bad.Log(), "no such OpenCL device")) << bad.Log();
  EXPECT_TRUE(absl::StrContains(bad.Log(), "0:0 ")) << bad.Log();
}

TEST_F(FarmOpenClTest, AJobForEachKeyAtOnceRecordsEveryTrialOnceOnItsOwnDevice) {
  ChildProcess gpu = StartGpuWorker();
  ChildProcess cpu = farm_.StartWorker(kCpuKey);
  ASSERT_TRUE(farm_.WaitForWorkers(kGpuKey, 1)) << gpu.Log();
  ASSERT_TRUE(farm_.WaitForWorkers(kCpuKey, 1)) << cpu.Log();
  absl::StatusOr<farm_api::JobStatus> gpu_job = client_->SubmitJob(GpuJob(8));
  ASSERT_TRUE(gpu_job.ok()) << gpu_job.status();
  absl::StatusOr<farm_api::JobStatus> cpu_job = client_->SubmitJob(SmallJob(kCpuKey, 8));
  ASSERT_TRUE(cpu_job.ok()) << cpu_job.status();

  std::vector<tuner::Record> gpu_records = SucceededRecords(gpu_job->id);
  std::vector<tuner::Record> cpu_records = SucceededRecords(cpu_job->id);
  ASSERT_EQ(gpu_records.size(), 8u) << gpu.Log();
  ASSERT_EQ(cpu_records.size(), 8u) << cpu.Log();
  std::set<std::string> gpu_measurers;
  for (const tuner::Record& r : gpu_records) {
    EXPECT_EQ(r.device_key, kGpuKey);
    EXPECT_EQ(r.target, "opencl -device=pocl");
    // The space holds only launches within the profile's and the device's limits: all run.
    EXPECT_EQ(r.error_kind, tuner::ErrorKind::kOk) << r.error_message;
    EXPECT_GT(tuner::MedianSeconds(r.repeat_seconds).value_or(0), 0);
    gpu_measurers.insert(r.measured_by);
  }
  for (const tuner::Record& r : cpu_records) {
    EXPECT_EQ(r.device_key, kCpuKey);
    EXPECT_EQ(r.error_kind, tuner::ErrorKind::kOk) << r.error_message;
    EXPECT_EQ(gpu_measurers.count(r.measured_by), 0u) << "a CPU trial measured on the GPU worker";
  }
}

TEST_F(FarmOpenClTest, TheDeviceLostMidLeaseIsReleasedAndEachTrialRecordedOnce) {
  ChildProcess gpu = StartGpuWorker();
  ASSERT_TRUE(farm_.WaitForWorkers(kGpuKey, 1)) << gpu.Log();
  absl::StatusOr<farm_api::JobStatus> job = client_->SubmitJob(GpuJob(6));
  ASSERT_TRUE(job.ok()) << job.status();
  const auto deadline = Farm::Deadline(120);
  bool busy = false;
  while (!busy && std::chrono::steady_clock::now() < deadline) {
    auto workers = client_->ListWorkers(kGpuKey);
    busy =
        workers.ok() && !workers->empty() && workers->front().state == farm_api::WorkerState::kBusy;
    if (!busy) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_TRUE(busy) << "the worker should hold a lease";
  gpu.Signal(SIGKILL);
  ChildProcess again = StartGpuWorker();
  std::vector<tuner::Record> records = SucceededRecords(job->id);
  EXPECT_EQ(records.size(), 6u) << again.Log();
}

// The model's outputs for a fixed input through `executor`.
std::vector<float> Probabilities(driver::ModelExecutor& executor) {
  std::vector<float> input(3 * 16 * 16);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>((i * 37) % 29) / 14 - 1;
  EXPECT_TRUE(executor.SetInput(0, input.data(), input.size() * sizeof(float)).ok());
  EXPECT_TRUE(executor.Run().ok());
  absl::StatusOr<const DLTensor*> out = executor.Output(0);
  EXPECT_TRUE(out.ok()) << out.status();
  if (!out.ok()) return {};
  const auto* p = static_cast<const float*>((*out)->data);
  return std::vector<float>(p, p + 10);
}

TEST_F(FarmOpenClTest, AModelJobForTheOpenClKeyBuildsWithItsRecordsAndMatchesTheCpuBuild) {
  ChildProcess gpu = StartGpuWorker();
  ASSERT_TRUE(farm_.WaitForWorkers(kGpuKey, 1)) << gpu.Log();
  const std::string model = fixtures::SmallCnnOnnx("farm_opencl_cnn.onnx");
  tools::ModelTuneOptions tune;
  tune.file = model;
  tune.output = farm_.dir() + "/cnn.opencl.so";
  tune.tune.tracker = farm_.address();
  tune.tune.key = kGpuKey;
  tune.tune.target = "opencl -device=pocl";
  tune.tune.trials = 6;
  tune.tune.batch_size = 3;
  tune.tune.tuner = "random";
  tune.tune.measure.repeat = 1;
  tune.tune.measure.min_repeat_ms = 1;
  tune.tune.progress = false;
  std::ostringstream out, err;
  ASSERT_EQ(tools::RunModelTuneCommand(tune, nullptr, out, err), 0)
      << out.str() << err.str() << gpu.Log();
  EXPECT_NE(out.str().find("wrote " + tune.output), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("remote sessions run CPU models only"), std::string::npos) << out.str();
  absl::StatusOr<std::vector<farm_api::ModelJobStatus>> jobs = client_->ListModelJobs(true, 1);
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  ASSERT_EQ(jobs->size(), 1u);
  for (const farm_api::ModelTaskStatus& t : jobs->front().tasks) {
    for (const tuner::Record& r : farm_.JobRecords(t.job_id)) {
      EXPECT_EQ(r.target, "opencl -device=pocl") << t.workload_key;
      EXPECT_EQ(r.error_kind, tuner::ErrorKind::kOk) << r.error_message;
    }
  }
  absl::StatusOr<std::unique_ptr<driver::ModelExecutor>> on_gpu =
      driver::OpenModelModule(tune.output);
  ASSERT_TRUE(on_gpu.ok()) << on_gpu.status();
  absl::StatusOr<std::unique_ptr<driver::ModelExecutor>> on_cpu =
      driver::LoadModelForRun(model, {}, target::Target::Host());
  ASSERT_TRUE(on_cpu.ok()) << on_cpu.status();
  const std::vector<float> got = Probabilities(**on_gpu);
  const std::vector<float> want = Probabilities(**on_cpu);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5f) << i;
}

}  // namespace
}  // namespace tunefarm::integration

// An OpenCL device in a real farm on 127.0.0.1: `tunefarm worker --device opencl:0:0` (PoCL here;
// every test skips with the reason where the machine has no OpenCL platform) beside a CPU worker,
// a tracker, and jobs for both keys at once.
#include <chrono>
#include <csignal>
#include <set>
#include <thread>

#include "absl/strings/match.h"
#include "runtime/devices/process_gpu.h"
#include "tests/integration/farm_fixture.h"

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

}  // namespace
}  // namespace tunefarm::integration

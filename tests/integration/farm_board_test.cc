// An AArch64 board in a farm: the slim worker cross-built for AArch64 (scripts/build-aarch64.sh)
// runs under qemu-aarch64 as a board would, registers as emulated with its CPU features, and
// measures what a builder cross-compiles for it. Skipped, with the reason, where the AArch64
// build or qemu is missing.
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <numeric>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "driver/model_executor.h"
#include "runtime/core/elf_machine.h"
#include "tests/integration/farm_fixture.h"
#include "tests/testing/deployed_programs.h"
#include "tests/testing/files.h"
#include "tests/unit/compiler/frontend/onnx/onnx_model_builder.h"
#include "tools/commands/model_tune_command.h"

#ifndef TUNEFARM_AARCH64_SLIM_WORKER
#define TUNEFARM_AARCH64_SLIM_WORKER ""
#endif

namespace tunefarm::integration {
namespace {

constexpr char kBoardKey[] = "a64-board";
constexpr char kBoardTarget[] = "llvm -mtriple=aarch64-linux-gnu -mattr=+neon";

// The board's command line: qemu, the slim worker, and --emulator (no binfmt_misc here, so its
// children are started through qemu too). Empty, with `missing` set, where it cannot run.
std::vector<std::string> BoardCommand(const Farm& farm, int n, std::string* missing) {
  const std::string slim = TUNEFARM_AARCH64_SLIM_WORKER;
  if (slim.empty() || access(slim.c_str(), X_OK) != 0) {
    *missing =
        "the AArch64 slim worker is not built (scripts/build-aarch64.sh needs the cross "
        "compiler and libgrpc++-dev:arm64)";
    return {};
  }
  const std::string qemu = fixtures::QemuAarch64Command(missing);
  if (qemu.empty()) return {};
  std::vector<std::string> argv;
  std::istringstream words(qemu);
  for (std::string word; words >> word;) argv.push_back(word);
  argv.insert(argv.end(), {slim, "--tracker", farm.address(), "--key", kBoardKey, "--work-dir",
                           absl::StrCat(farm.dir(), "/board", n), "--emulator", qemu});
  return argv;
}

const farm_api::WorkerSnapshot* Find(const std::vector<farm_api::WorkerSnapshot>& workers,
                                     bool builder) {
  for (const farm_api::WorkerSnapshot& w : workers) {
    if (w.description.build_only == builder) return &w;
  }
  return nullptr;
}

// conv 3x3 -> relu -> global average pool -> dense -> softmax: a classifier small enough for
// qemu, whose two kinds of layer both become tasks.
std::string BoardCnn() {
  using B = frontend::onnx::testing::OnnxModelBuilder;
  B b(13);
  b.Input("image", {1, 3, 12, 12});
  b.FloatInit("k", {16, 3, 3, 3});
  b.FloatInit("fc", {10, 16});
  B::Ints(b.Node("Conv", {"image", "k"}, {"c"}), "pads", {1, 1, 1, 1});
  b.Node("Relu", {"c"}, {"r"});
  b.Node("GlobalAveragePool", {"r"}, {"p"});
  b.Node("Flatten", {"p"}, {"f"});
  B::Int(b.Node("Gemm", {"f", "fc"}, {"logits"}), "transB", 1);
  b.Node("Softmax", {"logits"}, {"prob"});
  b.Output("prob");
  return fixtures::WriteTempFile("board_cnn.onnx", b.Bytes());
}

// The classes of the 5 largest of `prob`, largest first.
std::vector<int> Top5(const float* prob, int n) {
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::partial_sort(order.begin(), order.begin() + 5, order.end(),
                    [&](int a, int b) { return prob[a] > prob[b]; });
  order.resize(5);
  return order;
}

farm_api::JobSpec BoardJob(int trials) {
  farm_api::JobSpec spec = SmallJob(kBoardKey, trials);
  spec.target = kBoardTarget;
  return spec;
}

class FarmBoardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Every candidate to the builders (`--builds workers`), as a farm whose tracker is busy does.
    tracker::TrackerServerOptions options = Farm::FastOptions();
    options.jobs.build_placement = tracker::BuildPlacement::kWorkers;
    farm_.StartTracker(options);
    client_ = farm_.Client();
    std::string missing;
    if (BoardCommand(farm_, 0, &missing).empty()) GTEST_SKIP() << missing;
  }

  // A builder for the board's key and one board; ids in builder_id_ and board_id_.
  void StartBuilderAndBoard() {
    builder_ = farm_.StartBuilder(kBoardKey, 1, kBoardTarget);
    StartBoard();
    ASSERT_TRUE(farm_.WaitForWorkers(kBoardKey, 2, 60)) << board_.Log();
    auto workers = client_->ListWorkers(kBoardKey);
    ASSERT_TRUE(workers.ok()) << workers.status();
    ASSERT_NE(Find(*workers, true), nullptr);
    ASSERT_NE(Find(*workers, false), nullptr);
    builder_id_ = Find(*workers, true)->description.worker_id;
    board_id_ = Find(*workers, false)->description.worker_id;
  }

  // Waits for `id` to succeed (ASSERTs) and returns its records, each config once.
  std::vector<tuner::Record> SucceededRecords(const std::string& id) {
    farm_api::JobStatus done = farm_.WaitForJob(id, 300);
    EXPECT_EQ(done.state, farm_api::JobState::kSucceeded) << done.message << "\n" << board_.Log();
    std::vector<tuner::Record> records = farm_.JobRecords(id);
    EXPECT_TRUE(NoDuplicateConfigs(records));
    return records;
  }

  void StartBoard() {
    std::string missing;
    const int n = ++boards_;
    board_ = farm_.StartProgram(BoardCommand(farm_, n, &missing), absl::StrCat("board", n));
  }

  Farm farm_{"board"};
  std::unique_ptr<client::FarmClient> client_;
  ChildProcess builder_;
  ChildProcess board_;
  std::string builder_id_;
  std::string board_id_;
  int boards_ = 0;
};

TEST_F(FarmBoardTest, TheBoardRegistersItsArchitectureFeaturesAndThatItIsEmulated) {
  StartBuilderAndBoard();
  auto workers = client_->ListWorkers(kBoardKey);
  ASSERT_TRUE(workers.ok()) << workers.status();
  const farm_api::WorkerDescription& board = Find(*workers, false)->description;
  EXPECT_NE(board.target.find("aarch64"), std::string::npos) << board.target;
  EXPECT_TRUE(board.emulated);
  EXPECT_NE(board.cpu_model.find("aarch64 emulated on"), std::string::npos) << board.cpu_model;
  // qemu's CPU has Advanced SIMD and the dot product instructions.
  EXPECT_NE(std::find(board.cpu_features.begin(), board.cpu_features.end(), "neon"),
            board.cpu_features.end());
  EXPECT_NE(std::find(board.cpu_features.begin(), board.cpu_features.end(), "dotprod"),
            board.cpu_features.end());
  EXPECT_FALSE(board.can_build) << "the slim worker has no compiler";
  // Its speed probe against the tracker's: qemu is many times slower natively, less so beside a
  // sanitizer-built tracker; its run timeouts are scaled by this.
  EXPECT_GE(board.slowness, 1);
  std::printf("the board under qemu: %.1fx slower than the tracker\n", board.slowness);
  EXPECT_FALSE(Find(*workers, true)->description.emulated) << "the builder runs natively";

  // `tunefarm workers` says so too, so nobody takes its times for a board's.
  ChildProcess listing =
      farm_.StartProgram({TUNEFARM_BINARY, "workers", "--tracker", farm_.address()}, "workers");
  ASSERT_EQ(listing.Wait(30), 0) << listing.Log();
  EXPECT_NE(listing.Log().find("(emulated: its times are not a device's)"), std::string::npos)
      << listing.Log();
}

TEST_F(FarmBoardTest, UnderAnEmulatorTheKernelCannotStartItRefusesToRunWithoutTheCommand) {
  if (access("/proc/sys/fs/binfmt_misc/qemu-aarch64", F_OK) == 0) {
    GTEST_SKIP() << "binfmt_misc starts AArch64 binaries here: children need no --emulator";
  }
  std::string missing;
  std::vector<std::string> argv = BoardCommand(farm_, 99, &missing);
  argv.resize(argv.size() - 2);  // no --emulator
  ChildProcess board = farm_.StartProgram(argv, "board_without_emulator");
  EXPECT_EQ(board.Wait(60), 2) << board.Log();
  EXPECT_NE(board.Log().find("runs under an emulator (/proc/cpuinfo describes an x86_64 CPU)"),
            std::string::npos)
      << board.Log();
  EXPECT_NE(board.Log().find("--emulator 'qemu-aarch64"), std::string::npos) << board.Log();
}

TEST_F(FarmBoardTest, AKernelJobIsBuiltByTheBuilderAndMeasuredOnTheBoard) {
  StartBuilderAndBoard();
  farm_api::JobSpec spec = BoardJob(4);
  absl::StatusOr<farm_api::JobStatus> job = client_->SubmitJob(spec);
  ASSERT_TRUE(job.ok()) << job.status();
  std::vector<tuner::Record> records = SucceededRecords(job->id);
  ASSERT_EQ(records.size(), 4u);
  for (const tuner::Record& r : records) {
    EXPECT_EQ(r.error_kind, tuner::ErrorKind::kOk) << r.error_message;
    EXPECT_EQ(r.built_by, builder_id_);
    EXPECT_EQ(r.measured_by, board_id_);
    EXPECT_EQ(r.device_key, kBoardKey);
    EXPECT_TRUE(r.emulated) << "the board runs under qemu: its records say so";
  }
  absl::StatusOr<std::vector<client::BestRecord>> best =
      client_->QueryBest(spec.workload, "", kBoardKey);
  ASSERT_TRUE(best.ok()) << best.status();
  ASSERT_FALSE(best->empty());
  EXPECT_EQ(best->front().record.measured_by, board_id_);
  EXPECT_TRUE(best->front().record.emulated);
  EXPECT_GT(best->front().median_seconds, 0);
}

TEST_F(FarmBoardTest, TheBoardKilledMidLeaseComesBackAndEachTrialIsRecordedOnce) {
  StartBuilderAndBoard();
  farm_api::JobSpec spec = BoardJob(6);
  absl::StatusOr<farm_api::JobStatus> job = client_->SubmitJob(spec);
  ASSERT_TRUE(job.ok()) << job.status();
  // Killed once it holds a lease (the builder has built it); a new board process takes over.
  const auto deadline = Farm::Deadline(120);
  bool busy = false;
  while (!busy && std::chrono::steady_clock::now() < deadline) {
    auto workers = client_->ListWorkers(kBoardKey);
    const farm_api::WorkerSnapshot* board = workers.ok() ? Find(*workers, false) : nullptr;
    busy = board != nullptr && board->state == farm_api::WorkerState::kBusy;
    if (!busy) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_TRUE(busy) << "the board should hold a lease";
  board_.Signal(SIGKILL);
  EXPECT_EQ(board_.Wait(10), 128 + SIGKILL);
  StartBoard();
  std::vector<tuner::Record> records = SucceededRecords(job->id);
  EXPECT_EQ(records.size(), 6u);
  for (const tuner::Record& r : records) {
    EXPECT_EQ(r.error_kind, tuner::ErrorKind::kOk) << r.error_message;
    EXPECT_EQ(r.built_by, builder_id_);
  }
}

TEST_F(FarmBoardTest, AModelJobBuildsAModuleForTheBoardThatComputesWhatTheHostDoes) {
  StartBuilderAndBoard();
  const std::string model = BoardCnn();
  tools::ModelTuneOptions tune;
  tune.file = model;
  tune.output = farm_.dir() + "/board_cnn.so";
  tune.tune.tracker = farm_.address();
  tune.tune.key = kBoardKey;
  tune.tune.target = kBoardTarget;
  tune.tune.trials = 8;
  tune.tune.batch_size = 4;
  tune.tune.tuner = "random";
  tune.tune.measure.repeat = 1;
  tune.tune.measure.min_repeat_ms = 1;
  tune.tune.progress = false;
  std::ostringstream out, err;
  ASSERT_EQ(tools::RunModelTuneCommand(tune, nullptr, out, err), 0)
      << out.str() << err.str() << board_.Log();
  EXPECT_NE(out.str().find("succeeded"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("wrote " + tune.output), std::string::npos) << out.str();
  // The built module was timed end to end on the board, through a session.
  EXPECT_NE(out.str().find("end to end on " + board_id_), std::string::npos) << out.str();
  absl::StatusOr<std::vector<farm_api::ModelJobStatus>> jobs = client_->ListModelJobs(true, 1);
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  ASSERT_EQ(jobs->size(), 1u);
  EXPECT_EQ(jobs->front().latency.measured_by, board_id_);
  for (const farm_api::ModelTaskStatus& t : jobs->front().tasks) {
    for (const tuner::Record& r : farm_.JobRecords(t.job_id)) {
      EXPECT_EQ(r.measured_by, board_id_) << t.workload_key;
      EXPECT_EQ(r.built_by, builder_id_) << t.workload_key;
      EXPECT_TRUE(r.emulated) << t.workload_key;
    }
  }

  // The module on the board (deploy/run_model for AArch64, under qemu) picks the classes the host
  // computes for the same input.
  std::vector<float> input(3 * 12 * 12);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>((i * 29) % 23) / 11 - 1;
  const std::string input_file = farm_.dir() + "/input.bin";
  std::ofstream(input_file, std::ios::binary)
      .write(reinterpret_cast<const char*>(input.data()),
             static_cast<std::streamsize>(input.size() * sizeof(float)));
  std::string missing;
  const std::string qemu = fixtures::QemuAarch64Command(&missing);
  const std::string run_model =
      std::filesystem::path(TUNEFARM_AARCH64_SLIM_WORKER).parent_path() / "run_model";
  std::vector<std::string> argv;
  std::istringstream words(qemu);
  for (std::string word; words >> word;) argv.push_back(word);
  argv.insert(argv.end(), {run_model, tune.output, "--input", input_file});
  ChildProcess run = farm_.StartProgram(argv, "run_model");
  ASSERT_EQ(run.Wait(120), 0) << run.Log();

  absl::StatusOr<std::unique_ptr<driver::ModelExecutor>> host =
      driver::LoadModelForRun(model, {}, target::Target::Host());
  ASSERT_TRUE(host.ok()) << host.status();
  ASSERT_TRUE((*host)->SetInput(0, input.data(), input.size() * sizeof(float)).ok());
  ASSERT_TRUE((*host)->Run().ok());
  absl::StatusOr<const DLTensor*> prob = (*host)->Output(0);
  ASSERT_TRUE(prob.ok()) << prob.status();
  EXPECT_EQ(fixtures::PrintedTop5(run.Log(), "prob"),
            Top5(static_cast<const float*>((*prob)->data), 10))
      << run.Log();
}

TEST_F(FarmBoardTest, AJobForAnotherArchitectureIsRefusedNamingBoth) {
  StartBuilderAndBoard();
  farm_api::JobSpec spec = BoardJob(2);
  spec.target = "llvm -mtriple=x86_64-linux-gnu";
  absl::StatusOr<farm_api::JobStatus> job = client_->SubmitJob(spec);
  ASSERT_FALSE(job.ok());
  EXPECT_EQ(job.status().code(), absl::StatusCode::kInvalidArgument);
  const std::string message(job.status().message());
  EXPECT_NE(message.find("x86_64"), std::string::npos) << message;
  EXPECT_NE(message.find("aarch64"), std::string::npos) << message;
}

TEST_F(FarmBoardTest, ALibraryForAnotherArchitectureIsRefusedBeforeItIsSent) {
  StartBuilderAndBoard();
  const std::string host_library = farm_.dir() + "/host_matmul.so";
  ChildProcess build = farm_.StartProgram(
      {TUNEFARM_BINARY, "build", "--workload", "matmul:16,16,16", "-o", host_library}, "build");
  ASSERT_EQ(build.Wait(60), 0) << build.Log();
  ChildProcess session = farm_.StartProgram(
      {TUNEFARM_BINARY, "session", "--tracker", farm_.address(), "--key", kBoardKey, host_library},
      "session");
  EXPECT_EQ(session.Wait(60), 2) << session.Log();
  EXPECT_NE(session.Log().find("host_matmul.so was built for " +
                               std::string(runtime::HostMachine()) + ", and worker " + board_id_ +
                               " runs aarch64: build it with --target 'llvm"),
            std::string::npos)
      << session.Log();
}

}  // namespace
}  // namespace tunefarm::integration

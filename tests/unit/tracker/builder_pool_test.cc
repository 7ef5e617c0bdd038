// The builder pool: jobs building at once never compile more candidates together than the pool's
// limit, and a job's builder compiles for its own target, cross targets included.
#include "tracker/builder_pool.h"

#include <fstream>
#include <gtest/gtest.h>
#include <thread>

#include "tuner/templates/template_registry.h"

namespace tunefarm::tracker {
namespace {

std::unique_ptr<tuner::Task> MatmulTask(const std::string& target) {
  absl::StatusOr<tuner::Workload> w = tuner::ParseWorkloadKey("matmul:16,16,16:float32");
  EXPECT_TRUE(w.ok());
  absl::StatusOr<std::unique_ptr<tuner::Task>> task = tuner::CreateTask(*w, target);
  EXPECT_TRUE(task.ok()) << task.status();
  return task.ok() ? *std::move(task) : nullptr;
}

std::vector<tuner::MeasureInput> Inputs(const tuner::Task& task, int n) {
  absl::StatusOr<space::Config> config = task.DefaultConfig();
  EXPECT_TRUE(config.ok());
  return std::vector<tuner::MeasureInput>(n, tuner::MeasureInput{&task, *config});
}

TEST(BuildSlotsTest, TakesWhatIsFreeUpToTheWish) {
  BuildSlots slots(3);
  EXPECT_EQ(slots.AcquireUpTo(2), 2);
  EXPECT_EQ(slots.AcquireUpTo(5), 1);
  slots.Release(3);
  EXPECT_EQ(slots.AcquireUpTo(0), 1);  // at least one
  slots.Release(1);
  EXPECT_EQ(slots.peak_in_use(), 3);
}

TEST(BuilderPoolTest, JobsShareOneLimit) {
  BuilderPool pool(BuilderPoolOptions{/*parallelism=*/1, ""});
  std::unique_ptr<tuner::Task> task = MatmulTask("llvm");
  ASSERT_NE(task, nullptr);
  tuner::MeasureOptions measure;
  measure.check_correctness = false;
  std::vector<std::vector<tuner::BuildResult>> results(2);
  std::vector<std::unique_ptr<tuner::Builder>> builders;  // their libraries go with them
  for (int j = 0; j < 2; ++j) {
    absl::StatusOr<std::unique_ptr<tuner::Builder>> builder = pool.MakeBuilder(measure, 3);
    ASSERT_TRUE(builder.ok()) << builder.status();
    builders.push_back(*std::move(builder));
  }
  std::vector<std::thread> jobs;
  for (int j = 0; j < 2; ++j) {
    jobs.emplace_back([&, j] { results[j] = builders[j]->Build(Inputs(*task, 3)); });
  }
  for (std::thread& t : jobs) t.join();
  for (const auto& job : results) {
    ASSERT_EQ(job.size(), 3u);
    for (const tuner::BuildResult& r : job) {
      EXPECT_EQ(r.error_kind, tuner::ErrorKind::kOk) << r.error_message;
      EXPECT_TRUE(std::ifstream(r.library_path).good()) << r.library_path;
    }
  }
  EXPECT_EQ(pool.peak_builds(), 1);
}

TEST(BuilderPoolTest, CrossCompilesForTheTasksTarget) {
  BuilderPool pool(BuilderPoolOptions{/*parallelism=*/2, ""});
  std::unique_ptr<tuner::Task> task = MatmulTask("llvm -mtriple=aarch64-linux-gnu");
  ASSERT_NE(task, nullptr);
  absl::StatusOr<std::unique_ptr<tuner::Builder>> builder =
      pool.MakeBuilder(tuner::MeasureOptions{}, 2);
  ASSERT_TRUE(builder.ok()) << builder.status();
  std::vector<tuner::BuildResult> built = (*builder)->Build(Inputs(*task, 2));
  ASSERT_EQ(built.size(), 2u);
  for (const tuner::BuildResult& r : built) {
    ASSERT_EQ(r.error_kind, tuner::ErrorKind::kOk) << r.error_message;
    for (const std::string& path : {r.library_path, r.reference_library_path}) {
      std::ifstream in(path, std::ios::binary);
      char header[20] = {};
      ASSERT_TRUE(in.read(header, sizeof(header))) << path;
      EXPECT_EQ(std::string(header + 1, 3), "ELF") << path;
      const int machine =
          static_cast<unsigned char>(header[18]) | (static_cast<unsigned char>(header[19]) << 8);
      EXPECT_EQ(machine, 183) << path << " is not an AArch64 library (EM_AARCH64 = 183)";
    }
  }
}

}  // namespace
}  // namespace tunefarm::tracker

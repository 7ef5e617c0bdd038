// The API documents built straight from a Dispatcher and farm_api::JobStatus values: a measuring
// worker names the job of its lease, a worker that left is listed as gone, and a job's rate and ETA
// follow from its clock.
#include "tracker/http/api_json.h"

#include <gtest/gtest.h>

namespace tunefarm::tracker::http {
namespace {

using nlohmann::json;

TEST(ApiJsonTest, BusyWorkerNamesTheJobOfItsLease) {
  Dispatcher d;
  farm_api::WorkerDescription w;
  w.worker_id = "w-1-box";
  w.device_key = "k";
  w.cores = 4;
  ASSERT_TRUE(d.AddWorker(w, 1000).ok());
  MeasureWork work;
  work.job_id = "job-7";
  work.device_key = "k";
  std::vector<Assignment> leases = d.Submit(
      work, [](const WorkOutcome&) {}, 1000);
  ASSERT_EQ(leases.size(), 1u);
  json busy = WorkersJson(d, 3500)["workers"];
  ASSERT_EQ(busy.size(), 1u);
  EXPECT_EQ(busy[0]["state"], "measuring");
  EXPECT_EQ(busy[0]["job_id"], "job-7");
  EXPECT_EQ(busy[0]["lease_id"], leases[0].lease_id);
  EXPECT_DOUBLE_EQ(busy[0]["heartbeat_age_s"].get<double>(), 2.5);
  EXPECT_EQ(busy[0]["hardware"]["cores"], 4);

  WorkOutcome done;
  done.error_kind = tuner::ErrorKind::kWrongAnswer;
  done.worker_id = "w-1-box";
  d.Complete("w-1-box", leases[0].lease_id, done, 4000);
  json idle = WorkersJson(d, 4000)["workers"][0];
  EXPECT_EQ(idle["state"], "idle");
  EXPECT_TRUE(idle["job_id"].is_null());
  EXPECT_EQ(idle["measured"], 1);
  EXPECT_EQ(idle["failures"], 1);
  d.RemoveWorker("w-1-box", 5000);
  json gone = WorkersJson(d, 5000)["workers"];  // a worker that left stays listed, as gone
  ASSERT_EQ(gone.size(), 1u);
  EXPECT_EQ(gone[0]["state"], "gone");
  EXPECT_EQ(gone[0]["gone_ms"], 5000);
  EXPECT_EQ(gone[0]["measured"], 1);
}

TEST(ApiJsonTest, RateAndEtaComeFromTheJobsClock) {
  farm_api::JobStatus job;
  job.id = "j";
  job.state = farm_api::JobState::kRunning;
  job.trials = 100;
  job.progress.trials_done = 20;
  job.created_ms = 10'000;
  job.updated_ms = 15'000;
  json running = JobJson(job, 20'000);  // 20 trials in 10 s
  EXPECT_DOUBLE_EQ(running["rate"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(running["eta_seconds"].get<double>(), 40.0);
  EXPECT_DOUBLE_EQ(running["progress"].get<double>(), 0.2);
  EXPECT_TRUE(running["best_gflops"].is_null());

  job.state = farm_api::JobState::kSucceeded;
  json finished = JobJson(job, 99'000);  // stops at updated_ms: 20 trials in 5 s
  EXPECT_DOUBLE_EQ(finished["rate"].get<double>(), 4.0);
  EXPECT_TRUE(finished["eta_seconds"].is_null());
}

TEST(ApiJsonTest, GflopsNeedsBothNumbers) {
  EXPECT_DOUBLE_EQ(Gflops(2e9, 0.5).get<double>(), 4.0);
  EXPECT_TRUE(Gflops(std::nullopt, 0.5).is_null());
  EXPECT_TRUE(Gflops(2e9, std::nullopt).is_null());
  EXPECT_TRUE(Gflops(2e9, 0.0).is_null());
}

}  // namespace
}  // namespace tunefarm::tracker::http

// The leaderboard's models (ModelLeaderboardJson): one row per (model, target, device key), the
// model job that measured fastest end to end, unmeasured jobs left out.
#include "tracker/http/model_job_json.h"

#include <gtest/gtest.h>

namespace tunefarm::tracker::http {
namespace {

farm_api::ModelJobStatus Measured(const std::string& id, const std::string& model,
                                  const std::string& key, double seconds, double untuned,
                                  int64_t created_ms) {
  farm_api::ModelJobStatus job;
  job.id = id;
  job.state = farm_api::JobState::kSucceeded;
  job.model_name = model;
  job.target = "llvm";
  job.device_key = key;
  job.created_ms = created_ms;
  job.latency = {seconds, untuned, "worker-" + id};
  return job;
}

TEST(ModelLeaderboardJsonTest, EachModelAndDeviceKeyShowsItsFastestMeasuredModelJob) {
  std::vector<farm_api::ModelJobStatus> jobs = {
      Measured("m1", "resnet18.onnx", "epyc", 0.030, 0.033, 1),
      Measured("m2", "resnet18.onnx", "epyc", 0.021, 0.033, 2),
      Measured("m3", "resnet18.onnx", "rasp4b", 0.250, 0, 3),
      Measured("m4", "mobilenet_v2.onnx", "epyc", 0.004, 0.005, 4),
      Measured("m5", "resnet18.onnx", "epyc", 0.021, 0.033, 5),  // a tie: the earlier job stays
  };
  farm_api::ModelJobStatus unmeasured = Measured("m6", "vgg16.onnx", "epyc", 0, 0, 6);
  unmeasured.latency = {};
  jobs.push_back(unmeasured);

  const nlohmann::json rows = ModelLeaderboardJson(jobs);
  ASSERT_EQ(rows.size(), 3u) << rows.dump(1);
  EXPECT_EQ(rows[0]["model"], "mobilenet_v2.onnx");
  EXPECT_EQ(rows[1]["model_job_id"], "m2");
  EXPECT_EQ(rows[1]["device_key"], "epyc");
  EXPECT_EQ(rows[1]["model_jobs"], 3);
  EXPECT_DOUBLE_EQ(rows[1]["speedup"].get<double>(), 0.033 / 0.021);
  EXPECT_EQ(rows[1]["measured_by"], "worker-m2");
  // Same model, slower key after the faster one; no untuned measurement, no speedup.
  EXPECT_EQ(rows[2]["model_job_id"], "m3");
  EXPECT_TRUE(rows[2]["untuned_seconds"].is_null());
  EXPECT_TRUE(rows[2]["speedup"].is_null());
  EXPECT_TRUE(ModelLeaderboardJson(std::vector<farm_api::ModelJobStatus>{}).empty());
}

}  // namespace
}  // namespace tunefarm::tracker::http

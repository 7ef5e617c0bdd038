// farm_api::ModelJobSpec as the model_jobs table stores it (every field survives the JSON round
// trip, a wrong type names the field), its checks, and the job spec each task gets.
#include "farm_api/model_job.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace tunefarm::tracker {
namespace {

using ::testing::HasSubstr;

farm_api::ModelJobSpec ModelSpec() {
  farm_api::ModelJobSpec s;
  s.model_name = "resnet18.onnx";
  s.tasks = {{"conv2d_nchwc:1,64,56,56,64,3,3,1,1:float32", 4, 0},
             {"conv2d_nchwc:1,128,28,28,128,3,3,1,1:float32", 3},
             {"conv2d_winograd_nchwc:1,64,56,56,64,3,3,1,1,16,16:float32", 4, 0}};
  s.target = "llvm -mtriple=aarch64-linux-gnu";
  s.device_key = "rasp4b";
  s.trials = 640;
  s.batch_size = 32;
  s.parallel_tasks = 3;
  s.tuner = "ga";
  s.seed = 7;
  s.measure.repeat = 4;
  s.measure.min_repeat_ms = 9;
  s.priority = 5;
  s.transfer = false;
  s.round_robin = true;
  // Task 0's output block: 16 runs task 0, 32 task 2 (a made-up choice, for the round trip).
  s.layout.vars = {{16, {16, 32}, 64}};
  s.layout.site_required = {true};
  s.layout.uses = {{0, 0, {{0, 16}}}, {2, 0, {{0, 32}}}};
  return s;
}

TEST(ModelJobTest, EveryFieldSurvivesTheJsonRoundTrip) {
  const farm_api::ModelJobSpec s = ModelSpec();
  absl::StatusOr<farm_api::ModelJobSpec> back =
      farm_api::ModelJobSpecFromJson(farm_api::ModelJobSpecToJson(s));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->model_name, s.model_name);
  ASSERT_EQ(back->tasks.size(), 3u);
  EXPECT_EQ(back->tasks[1].workload, s.tasks[1].workload);
  EXPECT_EQ(back->tasks[1].weight, 3);
  EXPECT_EQ(back->tasks[1].layer, -1);
  EXPECT_EQ(back->tasks[2].layer, 0);
  EXPECT_EQ(back->target, s.target);
  EXPECT_EQ(back->device_key, s.device_key);
  EXPECT_EQ(back->trials, 640);
  EXPECT_EQ(back->batch_size, 32);
  EXPECT_EQ(back->parallel_tasks, 3);
  EXPECT_EQ(back->tuner, "ga");
  EXPECT_EQ(back->seed, 7u);
  EXPECT_EQ(back->measure.repeat, 4);
  EXPECT_EQ(back->measure.min_repeat_ms, 9);
  EXPECT_EQ(back->priority, 5);
  EXPECT_FALSE(back->transfer);
  EXPECT_TRUE(back->round_robin);
  EXPECT_EQ(tuner::LayoutChoiceToJson(back->layout), tuner::LayoutChoiceToJson(s.layout));
  // Without a layout choice the field is left out, and a spec stored before it reads as none.
  farm_api::ModelJobSpec plain = ModelSpec();
  plain.layout = {};
  EXPECT_THAT(farm_api::ModelJobSpecToJson(plain), ::testing::Not(HasSubstr("layout")));
  absl::StatusOr<farm_api::ModelJobSpec> plain_back =
      farm_api::ModelJobSpecFromJson(farm_api::ModelJobSpecToJson(plain));
  ASSERT_TRUE(plain_back.ok()) << plain_back.status();
  EXPECT_TRUE(plain_back->layout.empty());
}

TEST(ModelJobTest, MalformedStoredSpecsNameTheProblem) {
  EXPECT_THAT(farm_api::ModelJobSpecFromJson("[1]").status().message(),
              HasSubstr("not a JSON object"));
  EXPECT_THAT(farm_api::ModelJobSpecFromJson(R"({"tasks":3})").status().message(),
              HasSubstr("'tasks'"));
  EXPECT_THAT(farm_api::ModelJobSpecFromJson(R"({"tasks":[1]})").status().message(),
              HasSubstr("not a JSON object"));
  EXPECT_THAT(farm_api::ModelJobSpecFromJson(R"({"tasks":[{"weight":"x"}]})").status().message(),
              HasSubstr("tasks.weight"));
  EXPECT_THAT(farm_api::ModelJobSpecFromJson(R"({"trials":"x","tasks":[]})").status().message(),
              HasSubstr("trials"));
  EXPECT_THAT(farm_api::ModelJobSpecFromJson(R"({"tasks":[{"layer":1.5}]})").status().message(),
              HasSubstr("tasks.layer"));
  EXPECT_THAT(
      farm_api::ModelJobSpecFromJson(R"({"tasks":[],"layout":{"vars":3}})").status().message(),
      HasSubstr("layout choice: field 'vars' is not an array"));
  // A spec stored before tasks had layers: each task a layer of its own.
  absl::StatusOr<farm_api::ModelJobSpec> old = farm_api::ModelJobSpecFromJson(
      R"({"tasks":[{"workload":"dense:1,8,8:float32","weight":2}]})");
  ASSERT_TRUE(old.ok()) << old.status();
  EXPECT_EQ(old->tasks[0].layer, -1);
}

TEST(ModelJobTest, ValidationRefusesWhatCannotBeScheduled) {
  EXPECT_TRUE(ValidateModelJobSpec(ModelSpec(), 100000).ok());
  auto refused = [](farm_api::ModelJobSpec s, int max_trials = 100000) {
    absl::Status st = ValidateModelJobSpec(s, max_trials);
    EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
    return std::string(st.message());
  };
  farm_api::ModelJobSpec s = ModelSpec();
  s.tasks.clear();
  EXPECT_THAT(refused(s), HasSubstr("no tasks"));
  s = ModelSpec();
  s.tasks[1].workload = s.tasks[0].workload;
  EXPECT_THAT(refused(s), HasSubstr("same workload"));
  s = ModelSpec();
  s.tasks[0].weight = 0;
  EXPECT_THAT(refused(s), HasSubstr("0 only for a layout_transform"));
  // A layout transform is timed for the build's layout choice, not run by every model run.
  farm_api::ModelJobSpec with_transform = ModelSpec();
  with_transform.tasks.push_back({"layout_transform:1,64,56,56,16,32:float32", 0, -1});
  EXPECT_TRUE(ValidateModelJobSpec(with_transform, 100000).ok());
  s.tasks[0].weight = std::numeric_limits<double>::infinity();
  EXPECT_THAT(refused(s), HasSubstr("weight"));
  s = ModelSpec();
  s.tasks[2].layer = -2;
  EXPECT_THAT(refused(s), HasSubstr("task 2 has layer -2"));
  s.tasks[2].layer = farm_api::kMaxModelTasks;
  EXPECT_THAT(refused(s), HasSubstr("layer"));
  s = ModelSpec();
  EXPECT_THAT(refused(s, 100), HasSubstr("trials must be in 1..100"));
  s.batch_size = 0;
  EXPECT_THAT(refused(s), HasSubstr("batch_size"));
  s = ModelSpec();
  s.parallel_tasks = 65;
  EXPECT_THAT(refused(s), HasSubstr("parallel_tasks"));
  s = ModelSpec();
  s.model_name = std::string(300, 'm');
  EXPECT_THAT(refused(s), HasSubstr("model_name"));
  s = ModelSpec();
  s.device_key = "two words";
  EXPECT_THAT(refused(s), HasSubstr("device_key"));
  s = ModelSpec();
  s.priority = 101;
  EXPECT_THAT(refused(s), HasSubstr("priority"));
  s = ModelSpec();
  s.layout.uses[1].task = 3;
  EXPECT_THAT(refused(s), HasSubstr("layout choice: use 1 names task 3 of 3"));
}

TEST(ModelJobTest, EachTaskGetsAJobSpecOfItsOwnNamingTheModelJob) {
  const farm_api::ModelJobSpec s = ModelSpec();
  farm_api::JobSpec job = farm_api::ModelTaskJobSpec(s, "model-0000abcd", 1, 64);
  EXPECT_EQ(job.workload, s.tasks[1].workload);
  EXPECT_EQ(job.trials, 64);
  EXPECT_EQ(job.target, s.target);
  EXPECT_EQ(job.device_key, s.device_key);
  EXPECT_EQ(job.tuner, "ga");
  EXPECT_EQ(job.batch_size, 32);
  EXPECT_EQ(job.priority, 5);
  EXPECT_FALSE(job.transfer);
  EXPECT_EQ(job.measure.repeat, 4);
  EXPECT_EQ(job.model_job_id, "model-0000abcd");
  EXPECT_EQ(job.model_task, 1);
  EXPECT_NE(job.seed, farm_api::ModelTaskJobSpec(s, "model-0000abcd", 0, 64).seed)
      << "each task searches its own stream";
  // The model job link survives the jobs table's JSON.
  absl::StatusOr<farm_api::JobSpec> back = farm_api::JobSpecFromJson(farm_api::JobSpecToJson(job));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->model_job_id, "model-0000abcd");
  EXPECT_EQ(back->model_task, 1);
}

}  // namespace
}  // namespace tunefarm::tracker

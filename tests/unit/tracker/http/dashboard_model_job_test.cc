// The dashboard's model jobs against a real farm on loopback: a TrackerServer with its dashboard,
// two in-process rpc_server workers and one small model job of three tasks, two of them
// alternatives for one layer; the API documents, the pages and /metrics are checked against the
// model job and its tasks' records; and a model job with a layout choice, on a farm of its own.
#include <algorithm>
#include <thread>

#include "tests/unit/tracker/http/dashboard_test_util.h"

namespace tunefarm::tracker {
namespace {

using nlohmann::json;
using testing::Count;
using testing::Get;
using testing::GetJson;

constexpr char kModelKey[] = "dash-model";
constexpr char kModelToken[] = "t0k";

// A model job of `trials` on `key` that random search gets through in seconds (batches of 3,
// two short repeats); the caller gives the tasks.
farm_api::ModelJobSpec QuickModelJob(const std::string& key, int trials) {
  farm_api::ModelJobSpec spec;
  spec.device_key = key;
  spec.trials = trials;
  spec.batch_size = 3;
  spec.tuner = "random";
  spec.measure.repeat = 2;
  spec.measure.min_repeat_ms = 1;
  return spec;
}

// Waits (at most 90 s) for the model job to finish.
void WaitUntilFinished(const ModelJobManager& model_jobs, const std::string& id) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
  while (std::chrono::steady_clock::now() < deadline) {
    absl::StatusOr<farm_api::ModelJobStatus> now = model_jobs.Get(id);
    if (now.ok() && farm_api::IsFinished(now->state)) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

class DashboardModelJobTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::string(testing::FreshDir("model_job"));
    farm_ = testing::DashboardFarm::Start(*dir_, kModelToken, kModelKey, 2).release();
    ASSERT_NE(farm_, nullptr);
    server_ = &farm_->server();
    farm_api::ModelJobSpec spec = QuickModelJob(kModelKey, 12);
    spec.model_name = "tiny.onnx";
    // Layer 0 as A.B or as A.B' (two algorithms of one product, as a conv's direct and Winograd
    // forms are): the estimate counts the faster.
    spec.tasks = {{"matmul:32,32,32:float32", 2, 0},
                  {"matmul:16,16,16:float32", 1, 1},
                  {"dense:32,32,32:float32", 2, 0}};
    auto job = server_->model_jobs().Submit(spec);
    ASSERT_TRUE(job.ok()) << job.status();
    id_ = new std::string(job->id);
    WaitUntilFinished(server_->model_jobs(), job->id);
    auto reported = server_->model_jobs().ReportLatency(*id_, {0.004, 0.006, "worker-x"});
    ASSERT_TRUE(reported.ok()) << reported.status();
  }

  static void TearDownTestSuite() {
    delete farm_;
    delete id_;
    delete dir_;
  }

  static int port() { return server_->http_port(); }

  static std::string* dir_;
  static testing::DashboardFarm* farm_;
  static TrackerServer* server_;
  static std::string* id_;
};

std::string* DashboardModelJobTest::dir_ = nullptr;
testing::DashboardFarm* DashboardModelJobTest::farm_ = nullptr;
TrackerServer* DashboardModelJobTest::server_ = nullptr;
std::string* DashboardModelJobTest::id_ = nullptr;

TEST_F(DashboardModelJobTest, ListAndDetailDocumentsMatchTheModelJob) {
  json list = GetJson(port(), "/api/model_jobs");
  ASSERT_EQ(list["model_jobs"].size(), 1u);
  const json& m = list["model_jobs"][0];
  EXPECT_EQ(m["id"], *id_);
  EXPECT_EQ(m["state"], "succeeded") << m["message"];
  EXPECT_EQ(m["trials_done"], 12);
  EXPECT_EQ(m["model"], "tiny.onnx");
  EXPECT_DOUBLE_EQ(m["measured_seconds"].get<double>(), 0.004);
  EXPECT_DOUBLE_EQ(m["speedup"].get<double>(), 1.5);
  ASSERT_EQ(m["tasks"].size(), 3u);
  for (const json& t : m["tasks"]) ASSERT_TRUE(t["best_seconds"].is_number()) << t.dump();
  const json& a = m["tasks"][0];
  const json& b = m["tasks"][2];
  EXPECT_EQ(a["layer"], 0);
  EXPECT_EQ(b["layer"], 0);
  const bool a_faster = a["best_seconds"].get<double>() <= b["best_seconds"].get<double>();
  EXPECT_EQ(a["chosen"], a_faster);
  EXPECT_EQ(b["chosen"], !a_faster);
  EXPECT_EQ(m["tasks"][1]["chosen"], true);
  const json& slower = a_faster ? b : a;
  EXPECT_EQ(slower["share"].get<double>(), 0) << "the build does not run it";
  const double estimate =
      2 * std::min(a["best_seconds"].get<double>(), b["best_seconds"].get<double>()) +
      m["tasks"][1]["best_seconds"].get<double>();
  double shares = 0;
  for (const json& t : m["tasks"]) shares += t["share"].get<double>();
  EXPECT_NEAR(m["estimated_seconds"].get<double>(), estimate, 1e-12);
  EXPECT_NEAR(shares, 1.0, 1e-9);

  json detail = GetJson(port(), "/api/model_jobs/" + *id_);
  const json& curve = detail["curve"];
  ASSERT_FALSE(curve.empty());
  double last = 1e9;
  int last_trial = 0;
  for (const json& p : curve) {
    EXPECT_GT(p["trial"].get<int>(), last_trial);
    EXPECT_LT(p["estimated_seconds"].get<double>(), last) << "the estimate only falls";
    last = p["estimated_seconds"].get<double>();
    last_trial = p["trial"].get<int>();
  }
  EXPECT_LE(last_trial, 12);
  // A fresh database: the model job's own records hold each task's best.
  EXPECT_NEAR(last, estimate, 1e-12);
  for (const json& t : detail["model_job"]["tasks"]) EXPECT_TRUE(t.contains("default"));

  testing::Reply missing = Get(port(), "/api/model_jobs/model-nope");
  EXPECT_EQ(missing.status, 404);
  EXPECT_NE(missing.body.find("no model job model-nope"), std::string::npos) << missing.body;
}

TEST_F(DashboardModelJobTest, PagesShowTheModelJobItsChartsAndItsTasks) {
  testing::Reply list = Get(port(), "/models");
  ASSERT_EQ(list.status, 200);
  EXPECT_EQ(Count(list.body, "class=\"model-job\""), 1);
  EXPECT_NE(list.body.find("4.000 ms"), std::string::npos) << "the measured latency";
  EXPECT_NE(list.body.find("1.50×"), std::string::npos);
  testing::Reply page = Get(port(), "/models/" + *id_);
  ASSERT_EQ(page.status, 200);
  EXPECT_EQ(Count(page.body, "id=\"model-trials-chart\""), 1);
  EXPECT_EQ(Count(page.body, "id=\"model-time-chart\""), 1);
  EXPECT_EQ(Count(page.body, "class=\"estimate\""), 2);
  EXPECT_EQ(Count(page.body, "class=\"measured\""), 2) << "the measured line on both charts";
  EXPECT_EQ(Count(page.body, "class=\"model-task\""), 2);
  EXPECT_EQ(Count(page.body, "class=\"model-task alternative\""), 1);
  EXPECT_EQ(Count(page.body, "(not run)"), 1);
  EXPECT_NE(page.body.find("worker-x"), std::string::npos);
  EXPECT_EQ(Get(port(), "/models/model-nope").status, 404);
}

TEST_F(DashboardModelJobTest, TheLeaderboardShowsTheModelsBestEndToEndLatency) {
  json board = GetJson(port(), "/api/workloads");
  ASSERT_EQ(board["models"].size(), 1u) << board.dump(1);
  const json& m = board["models"][0];
  EXPECT_EQ(m["model"], "tiny.onnx");
  EXPECT_EQ(m["device_key"], kModelKey);
  EXPECT_EQ(m["model_job_id"], *id_);
  EXPECT_DOUBLE_EQ(m["measured_seconds"].get<double>(), 0.004);
  EXPECT_DOUBLE_EQ(m["speedup"].get<double>(), 1.5);
  EXPECT_EQ(board["workloads"].size(), 3u) << "the tasks' workloads stay on the board";

  testing::Reply page = Get(port(), "/workloads");
  ASSERT_EQ(page.status, 200);
  EXPECT_EQ(Count(page.body, "id=\"model-leaderboard\""), 1);
  EXPECT_EQ(Count(page.body, "class=\"best-model\""), 1);
  EXPECT_NE(page.body.find("href=\"/models/" + *id_ + "\""), std::string::npos) << page.body;
  EXPECT_EQ(Count(page.body, "class=\"best\""), 3);
}

TEST_F(DashboardModelJobTest, MetricsCountModelJobsAndTheBestMeasuredLatency) {
  testing::Reply m = Get(port(), "/metrics");
  ASSERT_EQ(m.status, 200);
  EXPECT_NE(m.body.find("tunefarm_model_jobs{state=\"succeeded\"} 1"), std::string::npos) << m.body;
  EXPECT_NE(m.body.find("tunefarm_model_latency_seconds{model=\"tiny.onnx\",device_key=\"" +
                        std::string(kModelKey) + "\"} 0.004"),
            std::string::npos)
      << m.body;
  EXPECT_NE(m.body.find("# TYPE tunefarm_model_job_estimated_seconds gauge"), std::string::npos);
}

// A layout choice of one conv: its output in sixteens runs task 0; in eights it runs task 1 and
// needs task 2 (a transform) at an optional site. Task 0 is a 64^3 product, task 1 a 16^3 one and
// task 2 a 160^3 one, so the eights' conv is fastest but the layout in eights is not: the estimate
// and the shares are the sixteens', where by layer task 1 alone would count.
TEST(DashboardLayoutModelJobTest, TheEstimateAndTheSharesAreTheChosenLayouts) {
  const std::string key = "dash-layout";
  const std::string dir = testing::FreshDir("layout_model_job");
  std::unique_ptr<testing::DashboardFarm> farm =
      testing::DashboardFarm::Start(dir, kModelToken, key, 1);
  ASSERT_NE(farm, nullptr);
  TrackerServer& server = farm->server();
  farm_api::ModelJobSpec spec = QuickModelJob(key, 9);
  spec.model_name = "blocked.onnx";
  spec.tasks = {{"matmul:64,64,64:float32", 1, 0},
                {"matmul:16,16,16:float32", 1, 0},
                {"matmul:160,160,160:float32", 1, -1}};
  spec.layout.vars = {{16, {8, 16}, 16}};
  spec.layout.site_required = {true, false};
  spec.layout.uses = {{0, 0, {{0, 16}}}, {1, 0, {{0, 8}}}, {2, 1, {{0, 8}}}};
  absl::StatusOr<farm_api::ModelJobStatus> job = server.model_jobs().Submit(spec);
  ASSERT_TRUE(job.ok()) << job.status();
  WaitUntilFinished(server.model_jobs(), job->id);

  json detail = GetJson(server.http_port(), "/api/model_jobs/" + job->id);
  const json& m = detail["model_job"];
  ASSERT_EQ(m["state"], "succeeded") << m["message"];
  const json& tasks = m["tasks"];
  for (const json& t : tasks) ASSERT_TRUE(t["best_seconds"].is_number()) << t.dump();
  const double b0 = tasks[0]["best_seconds"], b1 = tasks[1]["best_seconds"],
               b2 = tasks[2]["best_seconds"];
  ASSERT_LT(b1, b0) << "the eights' conv is the faster";
  ASSERT_GT(b1 + b2, b0) << "but not with its transform";
  EXPECT_EQ(tasks[0]["chosen"], true);
  EXPECT_EQ(tasks[0]["runs"], 1);
  for (int i : {1, 2}) {
    EXPECT_EQ(tasks[i]["chosen"], false) << i;
    EXPECT_EQ(tasks[i]["share"].get<double>(), 0) << i;
  }
  EXPECT_NEAR(m["estimated_seconds"].get<double>(), b0, 1e-12);
  EXPECT_NEAR(tasks[0]["share"].get<double>(), 1.0, 1e-9);
  ASSERT_FALSE(detail["curve"].empty());
  EXPECT_NEAR(detail["curve"].back()["estimated_seconds"].get<double>(), b0, 1e-12)
      << "the curve's estimate is the layout's too";

  testing::Reply page = Get(server.http_port(), "/models/" + job->id);
  ASSERT_EQ(page.status, 200);
  EXPECT_EQ(Count(page.body, "(not run)"), 2);
}

}  // namespace
}  // namespace tunefarm::tracker

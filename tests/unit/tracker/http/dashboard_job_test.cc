// The dashboard against a real farm on loopback: a TrackerServer with its dashboard, two
// in-process rpc_server workers, and one small job; every API document and page is then checked
// against the record database.
#include <thread>

#include "tests/unit/tracker/http/dashboard_test_util.h"
#include "tuner/record_store.h"

namespace tunefarm::tracker {
namespace {

using nlohmann::json;
using testing::Count;
using testing::Get;
using testing::GetJson;

constexpr char kJobKey[] = "dash-test";
constexpr char kJobToken[] = "t0k";

class DashboardJobTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::string(testing::FreshDir("job"));
    farm_ = testing::DashboardFarm::Start(*dir_, kJobToken, kJobKey, 2).release();
    ASSERT_NE(farm_, nullptr);
    server_ = &farm_->server();
    farm_api::JobSpec spec;
    spec.workload = "matmul:32,32,32";
    spec.device_key = kJobKey;
    spec.trials = 6;
    spec.tuner = "random";
    spec.batch_size = 3;
    spec.measure.repeat = 2;
    spec.measure.min_repeat_ms = 1;
    auto job = server_->jobs().Submit(spec);
    ASSERT_TRUE(job.ok()) << job.status();
    job_id_ = new std::string(job->id);
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
      auto status = server_->jobs().Get(job->id);
      if (status.ok() && farm_api::IsFinished(status->state)) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }

  static void TearDownTestSuite() {
    delete farm_;
    delete job_id_;
    delete dir_;
  }

  static int port() { return server_->http_port(); }
  static std::vector<tuner::Record> Records() {
    auto store = tuner::RecordStore::Open(*dir_ + "/dash.db");
    EXPECT_TRUE(store.ok()) << store.status();
    auto records = (*store)->JobHistory(*job_id_);
    EXPECT_TRUE(records.ok()) << records.status();
    return records.ok() ? *records : std::vector<tuner::Record>{};
  }

  static std::string* dir_;
  static testing::DashboardFarm* farm_;
  static TrackerServer* server_;
  static std::string* job_id_;
};

std::string* DashboardJobTest::dir_ = nullptr;
testing::DashboardFarm* DashboardJobTest::farm_ = nullptr;
TrackerServer* DashboardJobTest::server_ = nullptr;
std::string* DashboardJobTest::job_id_ = nullptr;

TEST_F(DashboardJobTest, JobApiHasEveryTrialWithBestSoFarNonDecreasing) {
  ASSERT_GT(port(), 0);
  json doc = GetJson(port(), "/api/jobs/" + *job_id_);
  EXPECT_EQ(doc["job"]["state"], "succeeded") << doc.dump();
  EXPECT_EQ(doc["job"]["trials_done"], 6);
  EXPECT_DOUBLE_EQ(doc["job"]["progress"].get<double>(), 1.0);
  EXPECT_GT(doc["job"]["rate"].get<double>(), 0);
  std::vector<tuner::Record> records = Records();
  ASSERT_EQ(doc["trials"].size(), records.size());
  ASSERT_GE(records.size(), 6u);
  double best = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    const json& t = doc["trials"][i];
    EXPECT_EQ(t["trial"], i + 1);
    EXPECT_EQ(t["outcome"], std::string(tuner::ErrorKindName(records[i].error_kind)));
    if (t["best_gflops"].is_number()) {
      EXPECT_GE(t["best_gflops"].get<double>(), best);
      best = t["best_gflops"].get<double>();
    }
    if (records[i].error_kind == tuner::ErrorKind::kOk) {
      // 2*32^3 FLOPs in the median time.
      double median = *tuner::MedianSeconds(records[i].repeat_seconds);
      EXPECT_NEAR(t["gflops"].get<double>(), 2.0 * 32 * 32 * 32 / median / 1e9, 1e-9);
    }
  }
  EXPECT_GT(best, 0);
  EXPECT_TRUE(doc["error_breakdown"].is_object());
  EXPECT_EQ(GetJson(port(), "/api/jobs")["jobs"].size(), 1u);
}

TEST_F(DashboardJobTest, WorkersApiListsBothWorkers) {
  json doc = GetJson(port(), "/api/workers");
  ASSERT_EQ(doc["workers"].size(), 2u) << doc.dump();
  int64_t measured = 0;
  for (const json& w : doc["workers"]) {
    EXPECT_EQ(w["device_key"], kJobKey);
    EXPECT_EQ(w["state"], "idle");
    EXPECT_TRUE(w["job_id"].is_null());
    EXPECT_GT(w["hardware"]["cores"].get<int>(), 0);
    measured += w["measured"].get<int64_t>();
  }
  EXPECT_EQ(static_cast<size_t>(measured), Records().size());
}

TEST_F(DashboardJobTest, LeaderboardHasTheBestConfigAndTheDefault) {
  json doc = GetJson(port(), "/api/workloads");
  ASSERT_EQ(doc["workloads"].size(), 1u) << doc.dump();
  const json& w = doc["workloads"][0];
  EXPECT_EQ(w["key"], "matmul:32,32,32:float32");
  EXPECT_DOUBLE_EQ(w["flops"].get<double>(), 2.0 * 32 * 32 * 32);
  ASSERT_EQ(w["best"].size(), 1u);
  const json& best = w["best"][0];
  EXPECT_EQ(best["device_key"], kJobKey);
  json job = GetJson(port(), "/api/jobs/" + *job_id_)["job"];
  EXPECT_EQ(best["config"], job["best_config"]);
  EXPECT_DOUBLE_EQ(best["median_seconds"].get<double>(), job["best_seconds"].get<double>());
  // The tuning loop measures the template's default first, so it has a record.
  ASSERT_TRUE(best["default"].is_object()) << best.dump();
  EXPECT_GE(best["default"]["median_seconds"].get<double>(), best["median_seconds"].get<double>());
  EXPECT_GE(best["speedup"].get<double>(), 1.0);
}

TEST_F(DashboardJobTest, RecordApiHasRepeatsAndLoweredIr) {
  json job = GetJson(port(), "/api/jobs/" + *job_id_);
  const int64_t id = job["trials"][0]["record_id"];
  json r = GetJson(port(), "/api/records/" + std::to_string(id));
  EXPECT_EQ(r["id"], id);
  EXPECT_EQ(r["repeat_seconds"].size(), 2u) << r.dump();
  ASSERT_TRUE(r["lowered_ir"].is_string()) << r["lowered_ir_error"];
  EXPECT_NE(r["lowered_ir"].get<std::string>().find("// PrimFunc matmul("), std::string::npos);
  EXPECT_NE(r["lowered_ir"].get<std::string>().find("for"), std::string::npos);
  EXPECT_EQ(Get(port(), "/api/records/999999").status, 404);
}

TEST_F(DashboardJobTest, PagesRenderWithTheirElementCounts) {
  const size_t records = Records().size();
  testing::Reply fleet = Get(port(), "/fleet");
  EXPECT_EQ(fleet.status, 200);
  EXPECT_EQ(Count(fleet.body, "<tr class=\"worker\""), 2);
  testing::Reply job = Get(port(), "/jobs/" + *job_id_);
  EXPECT_EQ(job.status, 200);
  EXPECT_EQ(Count(job.body, "<circle class=\"trial "), static_cast<int>(records));
  EXPECT_EQ(Count(job.body, "class=\"error-kind\""), 7);
  EXPECT_NE(job.body.find("data-live=\"0\""), std::string::npos);  // finished: no refresh
  testing::Reply fragment = Get(port(), "/jobs/" + *job_id_ + "?fragment=1");
  EXPECT_EQ(fragment.body.find("<html"), std::string::npos);
  EXPECT_EQ(Count(fragment.body, "<circle class=\"trial "), static_cast<int>(records));
  testing::Reply jobs = Get(port(), "/jobs");
  EXPECT_EQ(Count(jobs.body, "<tr class=\"job\""), 1);
  testing::Reply board = Get(port(), "/workloads");
  EXPECT_EQ(Count(board.body, "<tr class=\"best\""), 1);
  EXPECT_EQ(Get(port(), "/").status, 200);
  json first = GetJson(port(), "/api/jobs/" + *job_id_)["trials"][0];
  testing::Reply record =
      Get(port(), "/records/" + std::to_string(first["record_id"].get<int64_t>()));
  EXPECT_EQ(record.status, 200);
  EXPECT_EQ(Count(record.body, "<tr class=\"repeat\""), 2);
  EXPECT_NE(record.body.find("<pre id=\"ir\">"), std::string::npos);
}

TEST_F(DashboardJobTest, MetricsAreServedAsPrometheusText) {
  testing::Reply m = Get(port(), "/metrics");
  EXPECT_EQ(m.status, 200);
  EXPECT_EQ(m.content_type, "text/plain; version=0.0.4");
  EXPECT_NE(m.body.find("tunefarm_results_total"), std::string::npos) << m.body;
}

TEST_F(DashboardJobTest, CancelNeedsTheToken) {
  testing::Reply none = testing::Post(port(), "/api/jobs/" + *job_id_ + "/cancel");
  EXPECT_EQ(none.status, 401);
  EXPECT_TRUE(json::parse(none.body).contains("error"));
  testing::Reply wrong =
      testing::Post(port(), "/api/jobs/" + *job_id_ + "/cancel", {{"Authorization", "Bearer x"}});
  EXPECT_EQ(wrong.status, 401);
  testing::Reply unknown =
      testing::Post(port(), "/api/jobs/nope/cancel", {{"Authorization", "Bearer t0k"}});
  EXPECT_EQ(unknown.status, 404);
  // A finished job is returned unchanged.
  testing::Reply ok =
      testing::Post(port(), "/api/jobs/" + *job_id_ + "/cancel", {{"Authorization", "Bearer t0k"}});
  EXPECT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(json::parse(ok.body)["state"], "succeeded");
}

}  // namespace
}  // namespace tunefarm::tracker

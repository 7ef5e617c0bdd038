// The dashboard without workers: every page with an empty database, unknown ids and paths, the
// token rule, and 10,000 records of one job rendered well under a second.
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>

#include "tests/unit/tracker/http/dashboard_test_util.h"
#include "tuner/record_store.h"

namespace tunefarm::tracker {
namespace {

using nlohmann::json;
using testing::Count;
using testing::Get;
using testing::GetJson;

// This machine's first IPv4 address that is not loopback; empty when it has none.
std::string NonLoopbackAddress() {
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return "";
  std::string found;
  for (ifaddrs* a = list; a != nullptr && found.empty(); a = a->ifa_next) {
    if (a->ifa_addr == nullptr || a->ifa_addr->sa_family != AF_INET) continue;
    char text[INET_ADDRSTRLEN] = {};
    inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(a->ifa_addr)->sin_addr, text, sizeof text);
    if (std::string(text).rfind("127.", 0) != 0) found = text;
  }
  freeifaddrs(list);
  return found;
}

TEST(DashboardPagesTest, RemotePeersNeedTheTokenEvenToRead) {
  const std::string address = NonLoopbackAddress();
  if (address.empty()) GTEST_SKIP() << "no non-loopback IPv4 address";
  std::string dir = testing::FreshDir("remote");
  TrackerServerOptions options = testing::DashboardTrackerOptions(dir, "s3cret");
  options.http_listen = address + ":0";
  auto server = TrackerServer::Start(options);
  ASSERT_TRUE(server.ok()) << server.status();
  httplib::Client client(address, (*server)->http_port());
  auto denied = client.Get("/api/workers");
  ASSERT_TRUE(denied);
  EXPECT_EQ(denied->status, 401);
  auto allowed = client.Get("/api/workers", {{"Authorization", "Bearer s3cret"}});
  ASSERT_TRUE(allowed);
  EXPECT_EQ(allowed->status, 200);
  auto by_query = client.Get("/fleet?token=s3cret");
  ASSERT_TRUE(by_query);
  EXPECT_EQ(by_query->status, 200);
  EXPECT_NE(by_query->get_header_value("Set-Cookie").find("tunefarm_token="), std::string::npos);
  auto by_cookie = client.Get("/fleet", {{"Cookie", "tunefarm_token=s3cret"}});
  ASSERT_TRUE(by_cookie);
  EXPECT_EQ(by_cookie->status, 200);
  auto post_cookie = client.Post("/api/jobs/x/cancel", {{"Cookie", "tunefarm_token=s3cret"}}, "",
                                 "application/json");
  ASSERT_TRUE(post_cookie);
  EXPECT_EQ(post_cookie->status, 401);
}

// The docs make tokens with base64, whose '+' a query turns into a space unless the user encodes
// it (issue 44: "tokens that must be URL-encoded in ?token="). Both spellings are accepted.
TEST(DashboardPagesTest, ABase64TokenWorksInTheQueryEncodedOrNot) {
  std::string dir = testing::FreshDir("base64_token");
  auto server = TrackerServer::Start(testing::DashboardTrackerOptions(dir, "ab+c/d=="));
  ASSERT_TRUE(server.ok()) << server.status();
  const int port = (*server)->http_port();
  EXPECT_EQ(testing::Post(port, "/api/jobs/x/cancel?token=ab+c/d==").status, 404);
  EXPECT_EQ(testing::Post(port, "/api/jobs/x/cancel?token=ab%2Bc%2Fd%3D%3D").status, 404);
  EXPECT_EQ(testing::Post(port, "/api/jobs/x/cancel?token=ab+c/d=").status, 401);
}

TEST(DashboardPagesTest, EmptyDatabaseRendersEveryPage) {
  std::string dir = testing::FreshDir("empty");
  auto server = TrackerServer::Start(testing::DashboardTrackerOptions(dir, ""));
  ASSERT_TRUE(server.ok()) << server.status();
  const int port = (*server)->http_port();
  ASSERT_GT(port, 0);
  for (const char* path : {"/", "/fleet", "/jobs", "/workloads", "/metrics"}) {
    testing::Reply r = Get(port, path);
    EXPECT_EQ(r.status, 200) << path;
    EXPECT_LT(r.seconds, 5.0) << path;  // a hang, not a speed target
  }
  EXPECT_EQ(Count(Get(port, "/fleet").body, "<tr class=\"worker\""), 0);
  EXPECT_EQ(GetJson(port, "/api/workers")["workers"].size(), 0u);
  EXPECT_EQ(GetJson(port, "/api/jobs")["jobs"].size(), 0u);
  EXPECT_EQ(GetJson(port, "/api/workloads")["workloads"].size(), 0u);
  for (const char* path : {"/api/jobs/nope", "/api/records/1", "/api/records/x", "/api/nothing"}) {
    testing::Reply r = Get(port, path);
    EXPECT_EQ(r.status, 404) << path;
    EXPECT_EQ(r.content_type, "application/json") << path;
    EXPECT_TRUE(json::parse(r.body).contains("error")) << path << ": " << r.body;
  }
  for (const char* path : {"/jobs/nope", "/records/1", "/nothing"}) {
    testing::Reply r = Get(port, path);
    EXPECT_EQ(r.status, 404) << path;
    EXPECT_NE(r.body.find("class=\"error\""), std::string::npos) << path << ": " << r.body;
  }
}

TEST(DashboardPagesTest, TenThousandRecordsRenderInLinearTime) {
  std::string dir = testing::FreshDir("big");
  auto server = TrackerServer::Start(testing::DashboardTrackerOptions(dir, "s3cret"));
  ASSERT_TRUE(server.ok()) << server.status();
  const int port = (*server)->http_port();
  // No worker has this key: the job waits, and its records come from the batch below. It asks
  // for more trials than the batch holds: a job whose start (asynchronous, slow under ASan)
  // counts the batch as its earlier records would otherwise end as done before the cancel.
  farm_api::JobSpec spec;
  spec.workload = "matmul:32,32,32";
  spec.device_key = "nobody";
  spec.trials = 20000;
  spec.tuner = "random";
  spec.batch_size = 1;
  auto job = (*server)->jobs().Submit(spec);
  ASSERT_TRUE(job.ok()) << job.status();

  auto store = tuner::RecordStore::Open(dir + "/dash.db");
  ASSERT_TRUE(store.ok()) << store.status();
  std::vector<tuner::Record> records;
  for (int i = 0; i < 10000; ++i) {
    tuner::Record r;
    r.workload_key = "matmul:32,32,32:float32";
    r.target = job->target;
    r.device_key = "nobody";
    r.config_json = "{\"i\":" + std::to_string(i) + "}";
    r.error_kind = i % 10 == 3 ? tuner::ErrorKind::kRunTimeout : tuner::ErrorKind::kOk;
    if (r.error_kind == tuner::ErrorKind::kOk) {
      r.repeat_seconds = {1e-4 + (i % 97) * 1e-6, 1e-4 + (i % 89) * 1e-6};
    }
    r.measured_by = "w-1-synthetic";
    r.job_id = job->id;
    records.push_back(std::move(r));
  }
  ASSERT_TRUE((*store)->InsertBatch(records).ok());

  testing::Reply page = Get(port, "/jobs/" + job->id);
  EXPECT_EQ(page.status, 200);
  // Not a speed target (bench/ has those): a bound loose enough for a loaded CI machine that
  // still catches a page quadratic in its records. Sanitized builds run 3-10x slower.
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  EXPECT_LT(page.seconds, 5.0);
#endif
  EXPECT_EQ(Count(page.body, "<circle class=\"trial "), 10000);
  EXPECT_EQ(Count(page.body, "<circle class=\"trial run_timeout"), 1000);
  EXPECT_NE(page.body.find("data-live=\"1\""), std::string::npos);  // the job still waits
  testing::Reply board = Get(port, "/workloads");
  EXPECT_EQ(board.status, 200);
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  EXPECT_LT(board.seconds, 5.0);
#endif
  EXPECT_EQ(Count(board.body, "<tr class=\"best\""), 1);
  json api = GetJson(port, "/api/jobs/" + job->id);
  EXPECT_EQ(api["trials"].size(), 10000u);
  EXPECT_EQ(api["error_breakdown"]["run_timeout"], 1000);
  std::printf("10,000 records: /jobs/{id} %.3f s (%zu bytes), /workloads %.3f s\n", page.seconds,
              page.body.size(), board.seconds);

  // Reads are open on loopback; the change needs the token, in a header or the query.
  const std::string cancel = "/api/jobs/" + job->id + "/cancel";
  EXPECT_EQ(testing::Post(port, cancel).status, 401);
  EXPECT_EQ(testing::Post(port, cancel + "?token=wrong").status, 401);
  testing::Reply ok = testing::Post(port, cancel + "?token=s3cret");
  EXPECT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(json::parse(ok.body)["state"], "cancelled");
  EXPECT_EQ(GetJson(port, "/api/jobs/" + job->id)["job"]["state"], "cancelled");
}

}  // namespace
}  // namespace tunefarm::tracker

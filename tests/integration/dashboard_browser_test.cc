// The dashboard in a real browser: headless Chromium loads each page from a tracker with two
// `tunefarm worker` processes and a job, runs its scripts, and the test reads the resulting DOM
// (fleet rows, one chart point per record, the leaderboard's best config). A screenshot of each
// page is saved beside the test's database.
#include <cstdio>
#include <filesystem>
#include <regex>

#include "tests/integration/farm_fixture.h"

namespace tunefarm::integration {
namespace {

// The page's DOM after its scripts ran, or empty when Chromium could not be run.
std::string DumpDom(const std::string& url, const std::string& screenshot) {
  const std::string flags =
      "--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --virtual-time-budget=3000 "
      "--window-size=1280,900";
  std::string dom;
  if (FILE* p =
          ::popen(("chromium " + flags + " --dump-dom '" + url + "' 2>/dev/null").c_str(), "r")) {
    char buf[65536];
    size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof(buf), p)) > 0) dom.append(buf, n);
    ::pclose(p);
  }
  const std::string shot =
      "chromium " + flags + " --screenshot='" + screenshot + "' '" + url + "' >/dev/null 2>&1";
  EXPECT_EQ(std::system(shot.c_str()), 0) << shot;
  EXPECT_TRUE(std::filesystem::exists(screenshot)) << screenshot;
  return dom;
}

size_t Count(const std::string& text, const std::regex& pattern) {
  return static_cast<size_t>(std::distance(std::sregex_iterator(text.begin(), text.end(), pattern),
                                           std::sregex_iterator()));
}

TEST(DashboardBrowserTest, FleetJobChartAndLeaderboardInChromium) {
  if (std::system("command -v chromium >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "chromium is not installed (scripts/install-deps.sh installs it)";
  }
  Farm farm("browser");
  tracker::TrackerServerOptions options = Farm::FastOptions();
  options.http_listen = "127.0.0.1:0";
  farm.StartTracker(options);
  ASSERT_GT(farm.server()->http_port(), 0);
  const std::string base = absl::StrCat("http://127.0.0.1:", farm.server()->http_port());
  ChildProcess w1 = farm.StartWorker("cpu-web");
  ChildProcess w2 = farm.StartWorker("cpu-web");
  ASSERT_TRUE(farm.WaitForWorkers("cpu-web", 2));

  // A job still running while the fleet page is looked at.
  farm_api::JobSpec spec = SmallJob("cpu-web", 300);
  spec.batch_size = 2;
  auto client = farm.Client();
  absl::StatusOr<farm_api::JobStatus> job = client->SubmitJob(spec);
  ASSERT_TRUE(job.ok()) << job.status();
  auto deadline = Farm::Deadline(60);
  while (std::chrono::steady_clock::now() < deadline && farm.JobRecords(job->id).size() < 6) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const std::string shots = farm.dir();
  std::string fleet = DumpDom(base + "/fleet", shots + "/fleet.png");
  EXPECT_EQ(Count(fleet, std::regex(R"(<tr[^>]*class="[^"]*\bworker\b)")), 2u) << fleet;
  EXPECT_NE(fleet.find("cpu-web"), std::string::npos);

  // Stopped, so the number of records no longer moves while the chart is compared with them.
  ASSERT_TRUE(client->CancelJob(job->id).ok());
  ASSERT_EQ(farm.WaitForJob(job->id).state, farm_api::JobState::kCancelled);
  const size_t records = farm.JobRecords(job->id).size();
  std::string chart = DumpDom(base + "/jobs/" + job->id, shots + "/job.png");
  EXPECT_EQ(Count(chart, std::regex(R"(<circle[^>]*class="[^"]*\btrial\b)")), records) << chart;

  std::string board = DumpDom(base + "/workloads", shots + "/workloads.png");
  auto best = client->QueryBest("matmul:32,32,32:float32", "", "cpu-web");
  ASSERT_TRUE(best.ok() && !best->empty());
  EXPECT_GE(Count(board, std::regex(R"(<tr[^>]*class="[^"]*\bbest\b)")), 1u) << board;
  // Every knob value of the best config is on the leaderboard.
  for (const std::string& part : {std::string("matmul:32,32,32:float32"), std::string("cpu-web")}) {
    EXPECT_NE(board.find(part), std::string::npos) << part;
  }
  std::printf("screenshots: %s/{fleet,job,workloads}.png\n", shots.c_str());
}

}  // namespace
}  // namespace tunefarm::integration

// `tunefarm demo`, the README's main job, run as a user runs it: a tracker, two workers and two
// jobs in this process, several times in a row (it used to abort under load: a worker thread
// held a reference into a vector of workers that grew while the thread ran).
#include "tools/commands/demo_command.h"

#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>

namespace tunefarm::tools {
namespace {

using ::testing::HasSubstr;

std::string FreshDemoDb(const std::string& name) {
  std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / ("tf_demo_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return (dir / "demo.db").string();
}

DemoOptions SmallDemo(const std::string& db) {
  DemoOptions o;
  o.db = db;
  o.trials = 3;
  o.workers = 3;  // more workers than jobs: the list of workers grows while the first run
  o.matmul = "matmul:32,32,32";
  o.conv = "conv2d_nchwc:1,8,8,8,8,3,3,1,1";
  o.progress = false;
  return o;
}

TEST(DemoCommandTest, RunsToTheEndSeveralTimesInARow) {
  for (int run = 0; run < 3; ++run) {
    SCOPED_TRACE(run);
    std::ostringstream out, err;
    const int code = RunDemoCommand(SmallDemo(FreshDemoDb("runs")), nullptr, out, err);
    EXPECT_EQ(code, 0) << out.str() << err.str();
    EXPECT_THAT(out.str(), HasSubstr("3 workers of device key"));
    EXPECT_THAT(out.str(), HasSubstr("matmul:32,32,32"));
    // Only a re-timing in turns is printed as a speedup, with its interval (or "no measurable
    // gain"), never a ratio of two records.
    EXPECT_THAT(out.str(), HasSubstr(" best configs and the default, 10 alternating rounds)"));
    EXPECT_THAT(out.str(), HasSubstr("tuned against default: "));
    EXPECT_THAT(out.str(), HasSubstr("(95 % CI, 10 rounds)"));
    EXPECT_THAT(out.str(), ::testing::Not(HasSubstr("tuned is")));
    EXPECT_THAT(out.str(), HasSubstr("query it again: tunefarm best"));
  }
}

TEST(DemoCommandTest, RefusesNonsenseCountsBeforeStartingAnything) {
  DemoOptions o = SmallDemo(FreshDemoDb("usage"));
  o.workers = 0;
  std::ostringstream out, err;
  EXPECT_EQ(RunDemoCommand(o, nullptr, out, err), 2);
  EXPECT_THAT(err.str(), HasSubstr("--workers"));
  EXPECT_FALSE(std::filesystem::exists(o.db));
}

}  // namespace
}  // namespace tunefarm::tools

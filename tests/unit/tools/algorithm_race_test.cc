// `model build --race`: a conv's rival algorithms (the other Winograd tiles, the direct conv)
// whose records are close to the chosen one's are built into whole modules and timed against the
// current best in the model; a rival is kept only when the race's verdict says it is faster, the
// largest stakes first, within a time budget. The verdict is a median ratio and a sign test.
#include "driver/algorithm_race.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "driver/local_race_timer.h"
#include "driver/model_executor.h"
#include "tests/unit/tools/model_records_fixture.h"
#include "tools/commands/model_build_command.h"

namespace tunefarm::tools {
namespace {

using testing::AddRecord;
using testing::ChainedConvsModel;
using ::testing::HasSubstr;
using testing::TaskKeys;
using testing::TunedConfigJson;
using testing::WinogradConfigJson;
using testing::WinogradKeyOf;
namespace fs = std::filesystem;

driver::RaceTimes Rounds(const std::vector<double>& incumbent,
                         const std::vector<double>& challenger) {
  return driver::RaceTimes{incumbent, challenger, "test"};
}

TEST(AlgorithmRaceTest, AChallengerWinsByItsMedianRatioInThreeRoundsOfFour) {
  const std::vector<double> ones(16, 1.0);
  absl::StatusOr<driver::RaceVerdict> clear =
      driver::JudgeRace(Rounds(ones, std::vector<double>(16, 0.9)), 0.01);
  ASSERT_TRUE(clear.ok()) << clear.status();
  EXPECT_TRUE(clear->challenger_wins);
  EXPECT_EQ(clear->wins, 16);
  EXPECT_NEAR(clear->ratio, 0.9, 1e-12);

  // Faster by 0.5 % only: inside the margin.
  absl::StatusOr<driver::RaceVerdict> close =
      driver::JudgeRace(Rounds(ones, std::vector<double>(16, 0.995)), 0.01);
  ASSERT_TRUE(close.ok());
  EXPECT_FALSE(close->challenger_wins);

  // A median 10 % faster, but only 11 of 16 rounds: a sign test that chance passes too often.
  std::vector<double> mixed(16, 0.9);
  for (int r = 0; r < 5; ++r) mixed[r] = 1.2;
  absl::StatusOr<driver::RaceVerdict> lucky = driver::JudgeRace(Rounds(ones, mixed), 0.01);
  ASSERT_TRUE(lucky.ok());
  EXPECT_EQ(lucky->wins, 11);
  EXPECT_FALSE(lucky->challenger_wins);
  mixed[4] = 0.9;  // 12 of 16
  EXPECT_TRUE(driver::JudgeRace(Rounds(ones, mixed), 0.01)->challenger_wins);
}

TEST(AlgorithmRaceTest, TimesWithoutRoundsOrOfUnequalCountsAreRefused) {
  EXPECT_EQ(driver::JudgeRace(Rounds({}, {}), 0.01).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(driver::JudgeRace(Rounds({1, 1}, {1}), 0.01).status().code(),
            absl::StatusCode::kInvalidArgument);
  absl::StatusOr<driver::RaceVerdict> zero = driver::JudgeRace(Rounds({1, 0}, {1, 1}), 0.01);
  EXPECT_EQ(zero.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(zero.status().message(), HasSubstr("round 1"));
}

TEST(AlgorithmRaceTest, AlgorithmsAreNamedByTheirTile) {
  EXPECT_EQ(driver::AlgorithmName(0), "direct");
  EXPECT_EQ(driver::AlgorithmName(4), "F(4x4)");
}

// The chained model with records of its second conv: direct, F(4x4) and F(2x2) at these times.
struct RecordedModel {
  std::string model, db, direct_key;
};

RecordedModel Recorded(double direct_s, double f4_s, double f2_s) {
  RecordedModel m;
  m.model = ChainedConvsModel();
  const std::vector<std::string> keys = TaskKeys(m.model);
  EXPECT_EQ(keys.size(), 2u);
  if (keys.size() != 2) return m;
  m.direct_key = keys[1];
  m.db = ::testing::TempDir() + "/race_" + std::to_string(getpid()) + ".db";
  fs::remove(m.db);
  AddRecord(m.db, keys[1], TunedConfigJson(keys[1]), {direct_s});
  AddRecord(m.db, WinogradKeyOf(keys[1]), WinogradConfigJson(keys[1], 4), {f4_s});
  AddRecord(m.db, WinogradKeyOf(keys[1]), WinogradConfigJson(keys[1], 2), {f2_s});
  return m;
}

driver::ModelCompileOptions WithRecords(const RecordedModel& m) {
  driver::ModelCompileOptions o;
  o.db = m.db;
  o.device_key = "box";
  return o;
}

std::string Bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A timer that judges by a rule instead of the clock, checking what it is given.
driver::ModuleRaceTimer ScriptedTimer(double challenger_share, int* calls) {
  return [challenger_share, calls](
             const std::string& incumbent,
             const std::string& challenger) -> absl::StatusOr<driver::RaceTimes> {
    ++*calls;
    EXPECT_TRUE(fs::exists(incumbent)) << incumbent;
    EXPECT_TRUE(fs::exists(challenger)) << challenger;
    EXPECT_NE(Bytes(incumbent), Bytes(challenger)) << "a rival builds another module";
    return driver::RaceTimes{std::vector<double>(16, 1e-3),
                             std::vector<double>(16, challenger_share * 1e-3), "test"};
  };
}

// The race of `m` with ScriptedTimer(challenger_share), counting the timer's calls.
absl::StatusOr<driver::RaceResult> ScriptedRace(
    const RecordedModel& m, double challenger_share, int* calls, std::ostream& log,
    const driver::RaceOptions& options = driver::RaceOptions()) {
  *calls = 0;
  return driver::RaceAlgorithms(m.model, WithRecords(m), target::Target::Host(),
                                ScriptedTimer(challenger_share, calls), options,
                                [&log](const std::string& line) { log << line << "\n"; });
}

TEST(AlgorithmRaceTest, ARivalThatRunsTheModelFasterReplacesTheRecordsChoice) {
  // The records choose F(4x4); F(2x2) and direct are within 2x of it.
  const RecordedModel m = Recorded(0.0005, 0.0003, 0.0004);
  int calls = 0;
  std::ostringstream log;
  absl::StatusOr<driver::RaceResult> raced = ScriptedRace(m, 0.9, &calls, log);
  ASSERT_TRUE(raced.ok()) << raced.status();
  // F(2x2), the closer record, first; then direct against the F(2x2) build that won.
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(raced->challenges, 2);
  EXPECT_EQ(raced->changed, 1);
  EXPECT_EQ(raced->algorithms.at(m.direct_key), 0);
  EXPECT_THAT(log.str(), HasSubstr("F(2x2) against F(4x4): 0.900 of the model's time, faster in "
                                   "16 of 16 rounds: F(2x2)"));
  EXPECT_THAT(log.str(), HasSubstr("direct against F(2x2)"));

  // Built with the race's algorithms, the conv runs direct, with its record's config.
  driver::ModelCompileOptions o = WithRecords(m);
  o.algorithms = raced->algorithms;
  absl::StatusOr<driver::CompiledModel> built =
      driver::CompileModel(m.model, o, target::Target::Host());
  ASSERT_TRUE(built.ok()) << built.status();
  for (const graph::GroupKernel& k : built->built.kernels) {
    EXPECT_EQ(k.schedule.find("winograd"), std::string::npos) << k.schedule;
  }
  ASSERT_EQ(built->algorithms.size(), 1u);
  EXPECT_TRUE(built->algorithms[0].forced);
  EXPECT_EQ(built->algorithms[0].chosen, 0);
  fs::remove(m.db);
}

TEST(AlgorithmRaceTest, TheRecordsChoiceStaysWhenNoRivalWins) {
  const RecordedModel m = Recorded(0.0005, 0.0003, 0.0004);
  int calls = 0;
  std::ostringstream log;
  absl::StatusOr<driver::RaceResult> raced = ScriptedRace(m, 1.0, &calls, log);
  ASSERT_TRUE(raced.ok()) << raced.status();
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(raced->changed, 0);
  EXPECT_EQ(raced->algorithms.at(m.direct_key), 4);
  EXPECT_THAT(log.str(), HasSubstr("direct against F(4x4): 1.000 of the model's time, faster in 0 "
                                   "of 16 rounds: F(4x4)"));
  fs::remove(m.db);
}

TEST(AlgorithmRaceTest, OnlyRivalsWithinTheBandAreRacedAndNoneAfterTheBudget) {
  // Direct's record is 3.3x F(4x4)'s: not worth a build.
  const RecordedModel m = Recorded(0.0010, 0.0003, 0.0004);
  int calls = 0;
  std::ostringstream log;
  absl::StatusOr<driver::RaceResult> raced = ScriptedRace(m, 1.0, &calls, log);
  ASSERT_TRUE(raced.ok()) << raced.status();
  EXPECT_EQ(calls, 1);
  EXPECT_THAT(log.str(), HasSubstr("race: 1 rivals of 1 conv workloads"));

  driver::RaceOptions spent;
  spent.budget_s = 0;
  raced = ScriptedRace(m, 0.5, &calls, log, spent);
  ASSERT_TRUE(raced.ok()) << raced.status();
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(raced->unraced, 1);
  EXPECT_EQ(raced->algorithms.at(m.direct_key), 4);
  fs::remove(m.db);
}

TEST(AlgorithmRaceTest, ATimerErrorEndsTheRace) {
  const RecordedModel m = Recorded(0.0005, 0.0003, 0.0004);
  std::ostringstream log;
  absl::StatusOr<driver::RaceResult> raced = driver::RaceAlgorithms(
      m.model, WithRecords(m), target::Target::Host(),
      [](const std::string&, const std::string&) -> absl::StatusOr<driver::RaceTimes> {
        return absl::UnavailableError("the worker went away");
      },
      driver::RaceOptions(), [&log](const std::string& line) { log << line << "\n"; });
  EXPECT_EQ(raced.status().code(), absl::StatusCode::kUnavailable);
  fs::remove(m.db);
}

TEST(AlgorithmRaceTest, TheLocalTimerTimesBothModulesInEveryRound) {
  const RecordedModel m = Recorded(0.0005, 0.0003, 0.0004);
  const std::string dir = ::testing::TempDir() + "/race_timer_" + std::to_string(getpid());
  fs::create_directories(dir);
  driver::ModelCompileOptions winograd = WithRecords(m), direct = WithRecords(m);
  direct.algorithms[m.direct_key] = 0;
  for (auto [options, name] : {std::pair{&winograd, "/a.so"}, std::pair{&direct, "/b.so"}}) {
    absl::StatusOr<driver::CompiledModel> built =
        driver::CompileModel(m.model, *options, target::Target::Host());
    ASSERT_TRUE(built.ok()) << built.status();
    ASSERT_TRUE(driver::ExportCompiledModel(*built, dir + name).ok());
  }
  absl::StatusOr<driver::RaceTimes> times =
      driver::LocalRaceTimer(4, 2)(dir + "/a.so", dir + "/b.so");
  ASSERT_TRUE(times.ok()) << times.status();
  ASSERT_EQ(times->incumbent.size(), 4u);
  ASSERT_EQ(times->challenger.size(), 4u);
  for (int r = 0; r < 4; ++r) {
    EXPECT_GT(times->incumbent[r], 0);
    EXPECT_LT(times->incumbent[r], 1.0);
    EXPECT_GT(times->challenger[r], 0);
  }
  absl::StatusOr<driver::RaceTimes> missing =
      driver::LocalRaceTimer(4, 2)(dir + "/a.so", dir + "/none.so");
  EXPECT_FALSE(missing.ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("none.so"));
  fs::remove_all(dir);
  fs::remove(m.db);
}

TEST(AlgorithmRaceTest, ModelBuildRacesOnlyWithRecordsAndForThisMachine) {
  const RecordedModel m = Recorded(0.0005, 0.0003, 0.0004);
  ModelBuildOptions b;
  b.file = m.model;
  b.output = ::testing::TempDir() + "/raced_" + std::to_string(getpid()) + ".so";
  b.race = true;
  std::ostringstream out, err;
  EXPECT_EQ(RunModelBuildCommand(b, out, err), 2);
  EXPECT_THAT(err.str(), HasSubstr("--race needs --db"));
  b.compile = WithRecords(m);
  b.target = "llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72";
  err.str("");
  EXPECT_EQ(RunModelBuildCommand(b, out, err), 2);
  EXPECT_THAT(err.str(), HasSubstr("--race times the model here"));
  EXPECT_FALSE(fs::exists(b.output));
  fs::remove(m.db);
}

}  // namespace
}  // namespace tunefarm::tools

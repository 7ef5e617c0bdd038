// The measure child process: it answers requests, its end is described by signal name, and
// nothing is left behind (the process is reaped) however it ends.
#include "runtime/measure/measure_child.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/measure/measure_program.h"
#include "runtime/measure/measure_protocol.h"

namespace tunefarm::runtime::measure {
namespace {

using ::testing::HasSubstr;

bool Reaped(pid_t pid) { return kill(pid, 0) != 0 && errno == ESRCH; }

std::unique_ptr<MeasureChild> StartChild() {
  absl::StatusOr<std::string> program = runtime::measure::FindMeasureProgram();
  EXPECT_TRUE(program.ok()) << program.status();
  if (!program.ok()) return nullptr;
  absl::StatusOr<std::unique_ptr<MeasureChild>> child = MeasureChild::Start(*program);
  EXPECT_TRUE(child.ok()) << child.status();
  return child.ok() ? *std::move(child) : nullptr;
}

TEST(MeasureChildTest, AnswersAndIsReapedOnDestruction) {
  std::unique_ptr<MeasureChild> child = StartChild();
  ASSERT_NE(child, nullptr);
  const pid_t pid = child->pid();
  runtime::measure::MeasureRequest q;
  q.id = 3;
  q.library_path = "/nonexistent.so";
  q.function_name = "f";
  MeasureChild::Reply reply = child->Exchange(runtime::measure::SerializeRequest(q), 10);
  ASSERT_EQ(reply.kind, MeasureChild::Reply::Kind::kLine) << reply.text;
  absl::StatusOr<runtime::measure::MeasureResponse> r = runtime::measure::ParseResponse(reply.text);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->id, 3);
  EXPECT_EQ(r->status, runtime::measure::ErrorKind::kRuntimeError);
  child.reset();
  EXPECT_TRUE(Reaped(pid));
}

TEST(MeasureChildTest, ADeadChildIsReportedBySignalName) {
  std::unique_ptr<MeasureChild> child = StartChild();
  ASSERT_NE(child, nullptr);
  const pid_t pid = child->pid();
  kill(pid, SIGBUS);
  MeasureChild::Reply reply = child->Exchange("{}", 10);
  EXPECT_EQ(reply.kind, MeasureChild::Reply::Kind::kDied);
  EXPECT_EQ(reply.text, "killed by SIGBUS");
  EXPECT_FALSE(child->alive());
  EXPECT_TRUE(Reaped(pid));
}

TEST(MeasureChildTest, AnIdleDeathIsNoticedBeforeTheNextRequest) {
  std::unique_ptr<MeasureChild> child = StartChild();
  ASSERT_NE(child, nullptr);
  const pid_t pid = child->pid();
  EXPECT_FALSE(child->ExitedWhileIdle());
  kill(pid, SIGKILL);
  for (int i = 0; i < 200 && !child->ExitedWhileIdle(); ++i) usleep(5000);
  EXPECT_FALSE(child->alive());
  EXPECT_TRUE(Reaped(pid));
}

TEST(MeasureChildTest, BadProgramIsAnError) {
  absl::StatusOr<std::unique_ptr<MeasureChild>> child = MeasureChild::Start("/nonexistent/prog");
  EXPECT_FALSE(child.ok());
  EXPECT_THAT(child.status().message(), HasSubstr("/nonexistent/prog"));
  EXPECT_THAT(runtime::measure::FindMeasureProgram("/nonexistent/prog").status().message(),
              HasSubstr("not an executable"));
}

TEST(MeasureChildTest, TheEnvironmentNamesTheProgram) {
  const char* saved = std::getenv(runtime::measure::kMeasureProgramEnv);
  const std::string previous = saved != nullptr ? saved : "";
  setenv(runtime::measure::kMeasureProgramEnv, "/nonexistent/env-measure", 1);
  absl::StatusOr<std::string> found = runtime::measure::FindMeasureProgram();
  EXPECT_THAT(found.status().message(), HasSubstr("TUNEFARM_MEASURE_PROGRAM"));
  // An explicit path wins over the environment.
  absl::StatusOr<std::string> explicit_path = runtime::measure::FindMeasureProgram("/bin/true");
  EXPECT_EQ(explicit_path.value_or(""), "/bin/true");
  if (saved != nullptr) {
    setenv(runtime::measure::kMeasureProgramEnv, previous.c_str(), 1);
  } else {
    unsetenv(runtime::measure::kMeasureProgramEnv);
  }
}

TEST(MeasureChildTest, WaitStatusDescriptions) {
  EXPECT_EQ(DescribeWaitStatus(SIGSEGV), "killed by SIGSEGV");  // WIFSIGNALED encoding
  EXPECT_EQ(DescribeWaitStatus(3 << 8), "exited with status 3");
}

}  // namespace
}  // namespace tunefarm::runtime::measure

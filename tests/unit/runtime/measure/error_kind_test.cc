// The one outcome vocabulary: every kind has a stable, distinct name that parses back.
#include "runtime/measure/error_kind.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <set>
#include <string>

namespace tunefarm::runtime::measure {
namespace {

using ::testing::HasSubstr;

TEST(ErrorKindTest, EveryKindHasADistinctNameThatParsesBack) {
  std::set<std::string> names;
  for (ErrorKind kind : kAllErrorKinds) {
    const std::string name(ErrorKindName(kind));
    EXPECT_TRUE(names.insert(name).second) << name;
    absl::StatusOr<ErrorKind> back = ParseErrorKind(name);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(*back, kind);
  }
  EXPECT_EQ(names.size(), 8u);
}

// These names are stored in record databases and sent by older workers: they never change.
TEST(ErrorKindTest, NamesAreTheStoredOnes) {
  EXPECT_EQ(ErrorKindName(ErrorKind::kOk), "ok");
  EXPECT_EQ(ErrorKindName(ErrorKind::kBuildError), "build_error");
  EXPECT_EQ(ErrorKindName(ErrorKind::kBuildTimeout), "build_timeout");
  EXPECT_EQ(ErrorKindName(ErrorKind::kRuntimeError), "runtime_error");
  EXPECT_EQ(ErrorKindName(ErrorKind::kRunTimeout), "run_timeout");
  EXPECT_EQ(ErrorKindName(ErrorKind::kWrongAnswer), "wrong_answer");
  EXPECT_EQ(ErrorKindName(ErrorKind::kWorkerLost), "worker_lost");
  EXPECT_EQ(ErrorKindName(ErrorKind::kInvalidConfig), "invalid_config");
}

TEST(ErrorKindTest, AnUnknownNameIsRefusedByName) {
  absl::StatusOr<ErrorKind> kind = ParseErrorKind("Ok");
  ASSERT_FALSE(kind.ok());
  EXPECT_EQ(kind.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(kind.status().message(), HasSubstr("'Ok'"));
}

}  // namespace
}  // namespace tunefarm::runtime::measure

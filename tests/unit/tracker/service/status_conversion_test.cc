// absl::Status <-> grpc::Status: the code and message carried over, a message over gRPC's
// metadata budget cut short instead of replacing the error.
#include "tracker/service/status_conversion.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <string>

namespace tunefarm::tracker {
namespace {

using ::testing::EndsWith;
using ::testing::StartsWith;

TEST(StatusConversionTest, CodeAndMessageCarryOver) {
  grpc::Status g = ToGrpcStatus(absl::NotFoundError("no job 'j-9'"));
  EXPECT_EQ(g.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(g.error_message(), "no job 'j-9'");
  EXPECT_EQ(FromGrpcStatus(g), absl::NotFoundError("no job 'j-9'"));
  EXPECT_TRUE(ToGrpcStatus(absl::OkStatus()).ok());
}

// An error that quoted a 40 KB input reached the client as "received initial metadata size
// exceeds limit".
TEST(StatusConversionTest, LongMessageIsCutToTheBudget) {
  const std::string message = "bad input '" + std::string(40 * 1024, 'x') + "'";
  grpc::Status g = ToGrpcStatus(absl::InvalidArgumentError(message));
  EXPECT_EQ(g.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_LT(g.error_message().size(), kMaxStatusMessageBytes + 32);
  EXPECT_THAT(g.error_message(), StartsWith("bad input 'xxx"));
  EXPECT_THAT(g.error_message(), EndsWith("... (40972 bytes)"));
}

}  // namespace
}  // namespace tunefarm::tracker

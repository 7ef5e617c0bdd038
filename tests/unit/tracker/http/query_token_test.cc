#include "tracker/http/query_token.h"

#include <gtest/gtest.h>

namespace tunefarm::tracker {
namespace {

TEST(QueryTokenTest, ReadsTheTokenAsTypedOrEncoded) {
  EXPECT_EQ(QueryTokenOf("/fleet?token=ab+c/d=="), "ab+c/d==");
  EXPECT_EQ(QueryTokenOf("/fleet?token=ab%2Bc%2fd%3D%3D"), "ab+c/d==");
  EXPECT_EQ(QueryTokenOf("/api/jobs/x/cancel?a=1&token=s3cret&b=2"), "s3cret");
  EXPECT_EQ(QueryTokenOf("/fleet?tokens=x&token=y"), "y");
}

TEST(QueryTokenTest, NoTokenOrBrokenEscapesAreKeptAsTheyAre) {
  EXPECT_EQ(QueryTokenOf("/fleet"), "");
  EXPECT_EQ(QueryTokenOf("/fleet?token"), "");
  EXPECT_EQ(QueryTokenOf("/fleet?token="), "");
  EXPECT_EQ(QueryTokenOf("/fleet?token=a%2"), "a%2");
  EXPECT_EQ(QueryTokenOf("/fleet?token=a%zz"), "a%zz");
  EXPECT_EQ(QueryTokenOf("/fleet?token=%-1"), "%-1");
}

}  // namespace
}  // namespace tunefarm::tracker

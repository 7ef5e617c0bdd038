// Which registrations continue a departed worker: only ids that left, once each, within the bound.
#include "tracker/worker_identities.h"

#include <gtest/gtest.h>

namespace tunefarm::tracker {
namespace {

TEST(WorkerIdentitiesTest, AReconnectChainKeepsTheFirstId) {
  WorkerIdentities ids;
  EXPECT_EQ(ids.Join("w1", ""), std::nullopt);
  ids.Leave("w1", "w1");
  EXPECT_EQ(ids.Join("w2", "w1"), "w1");
  ids.Leave("w2", "w1");
  EXPECT_EQ(ids.Join("w3", "w2"), "w1");
}

TEST(WorkerIdentitiesTest, OnlyADepartedUnclaimedIdCanBeClaimed) {
  WorkerIdentities ids;
  EXPECT_EQ(ids.Join("w2", "w1"), std::nullopt);  // w1 never left (connected or never issued)
  ids.Leave("w1", "w1");
  EXPECT_EQ(ids.Join("w3", "w1"), "w1");
  EXPECT_EQ(ids.Join("w4", "w1"), std::nullopt);  // used up: w3 holds that identity now
  EXPECT_EQ(ids.Join("w5", "w5"), std::nullopt);
}

TEST(WorkerIdentitiesTest, TheOldestDepartedIdsAreForgottenBeyondTheCapacity) {
  WorkerIdentities ids(2);
  ids.Leave("w1", "w1");
  ids.Leave("w2", "w2");
  EXPECT_EQ(ids.Join("w4", "w2"), "w2");  // claimed ids still count towards the bound
  ids.Leave("w3", "w3");
  EXPECT_EQ(ids.Join("w5", "w1"), std::nullopt);
  EXPECT_EQ(ids.Join("w6", "w3"), "w3");
}

}  // namespace
}  // namespace tunefarm::tracker

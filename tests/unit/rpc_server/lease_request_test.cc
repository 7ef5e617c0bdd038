// A tracker's lease as this worker's measure request: options with their defaults, and numbers
// the worker refuses (it trusts the wire no more than the tracker does) before it stores anything.
#include "rpc_server/lease_request.h"

#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <limits>
#include <string>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "proto/tunefarm/v1/worker.pb.h"
#include "runtime/measure/sha256.h"

namespace tunefarm::rpc_server {
namespace {

using ::testing::HasSubstr;

class LeaseRequestTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = absl::StrCat(::testing::TempDir(), "/lease_request_", getpid());
    std::filesystem::remove_all(dir_);
    absl::StatusOr<std::unique_ptr<ArtifactCache>> cache = ArtifactCache::Open(dir_, 1 << 20);
    ASSERT_TRUE(cache.ok()) << cache.status();
    cache_ = *std::move(cache);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  v1::Lease Lease() const {
    v1::Lease lease;
    lease.set_lease_id(7);
    const std::string bytes = "not really a library";
    lease.mutable_library()->set_sha256(runtime::measure::Sha256Hex(bytes));
    lease.mutable_library()->set_bytes(bytes);
    lease.set_function_name("f");
    return lease;
  }

  std::string dir_;
  std::unique_ptr<ArtifactCache> cache_;
};

TEST_F(LeaseRequestTest, DefaultsApply) {
  absl::StatusOr<PreparedLease> p = PrepareLease(Lease(), *cache_, /*can_build=*/false);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_DOUBLE_EQ(p->task.request.options.run_timeout_s, 10);
  EXPECT_EQ(p->task.request.options.repeat, 3);
  EXPECT_FALSE(p->task.request.options.check_correctness);  // no reference library
  EXPECT_EQ(cache_->size(), 1u);
}

TEST_F(LeaseRequestTest, NonFiniteOrHugeNumbersFailTheLeaseBeforeAnythingIsStored) {
  v1::Lease lease = Lease();
  lease.mutable_options()->set_cooldown_ms(1e300);
  absl::StatusOr<PreparedLease> p = PrepareLease(lease, *cache_, /*can_build=*/false);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(
      std::string(p.status().message()),
      HasSubstr("measure.cooldown_ms must be a finite number in [0, 60000] ms, got 1e+300"));

  lease = Lease();
  lease.mutable_options()->set_run_timeout_s(std::numeric_limits<double>::infinity());
  p = PrepareLease(lease, *cache_, /*can_build=*/false);
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(std::string(p.status().message()), HasSubstr("measure.run_timeout_s"));
  EXPECT_EQ(cache_->size(), 0u);
}

TEST_F(LeaseRequestTest, HashOnlyArtifactsTheCacheLacksAreListedNotFailed) {
  // Stored with its bytes by an earlier lease; the reference never came.
  ASSERT_TRUE(PrepareLease(Lease(), *cache_, /*can_build=*/false).ok());
  v1::Lease lease = Lease();
  lease.mutable_library()->clear_bytes();
  const std::string reference = runtime::measure::Sha256Hex("a reference never sent");
  lease.mutable_reference_library()->set_sha256(reference);
  lease.set_reference_function("ref");
  absl::StatusOr<PreparedLease> p = PrepareLease(lease, *cache_, /*can_build=*/false);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->missing, std::vector<std::string>{reference});
  EXPECT_EQ(p->task.lease_id, 7);
  EXPECT_TRUE(p->task.request.library_path.empty()) << "nothing to run";

  // Both gone (evicted behind the worker's back): both listed, library first.
  std::filesystem::remove_all(dir_);
  std::filesystem::create_directories(dir_);
  p = PrepareLease(lease, *cache_, /*can_build=*/false);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->missing, (std::vector<std::string>{lease.library().sha256(), reference}));

  // With the bytes again, it runs.
  lease = Lease();
  p = PrepareLease(lease, *cache_, /*can_build=*/false);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_TRUE(p->missing.empty());
  EXPECT_FALSE(p->task.request.library_path.empty());
}

v1::Lease LeaseToBuild() {
  v1::Lease lease;
  lease.set_lease_id(8);
  v1::BuildSpec* spec = lease.mutable_build();
  spec->set_workload_key("matmul:16,16,16:float32");
  spec->set_target("llvm");
  spec->set_config_json("{}");
  lease.mutable_options()->set_build_timeout_s(5);
  return lease;
}

TEST_F(LeaseRequestTest, ALeaseToBuildCarriesItsSpecAndTheLeaseOptions) {
  absl::StatusOr<PreparedLease> p = PrepareLease(LeaseToBuild(), *cache_, /*can_build=*/true);
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_TRUE(p->task.build.has_value());
  EXPECT_EQ(p->task.build->workload_key, "matmul:16,16,16:float32");
  EXPECT_EQ(p->task.build->target, "llvm");
  EXPECT_EQ(p->task.build->config_json, "{}");
  EXPECT_DOUBLE_EQ(p->task.build->build_timeout_s, 5);
  EXPECT_TRUE(p->task.build->with_reference);         // correctness is checked by default
  EXPECT_TRUE(p->task.request.library_path.empty());  // the build fills it in
  EXPECT_TRUE(p->artifacts.empty());
  EXPECT_EQ(cache_->size(), 0u);
}

TEST_F(LeaseRequestTest, AWorkerWithoutACompilerRefusesALeaseToBuild) {
  absl::StatusOr<PreparedLease> p = PrepareLease(LeaseToBuild(), *cache_, /*can_build=*/false);
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(std::string(p.status().message()), HasSubstr("has no compiler"));
}

TEST_F(LeaseRequestTest, AnIncompleteBuildSpecIsRefusedByName) {
  v1::Lease lease = LeaseToBuild();
  lease.mutable_build()->set_script_source("def x");  // a key and a script
  absl::StatusOr<PreparedLease> p = PrepareLease(lease, *cache_, /*can_build=*/true);
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(std::string(p.status().message()), HasSubstr("exactly one of a workload key"));
  lease = LeaseToBuild();
  lease.mutable_build()->clear_target();
  p = PrepareLease(lease, *cache_, /*can_build=*/true);
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(std::string(p.status().message()), HasSubstr("no target"));
  lease = LeaseToBuild();
  lease.mutable_build()->clear_config_json();
  p = PrepareLease(lease, *cache_, /*can_build=*/true);
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(std::string(p.status().message()), HasSubstr("no config"));
}

TEST_F(LeaseRequestTest, ABuildOnlyLeaseIsATaskToBuildAndSendBack) {
  v1::Lease lease = LeaseToBuild();
  lease.set_build_only(true);
  absl::StatusOr<PreparedLease> p = PrepareLease(lease, *cache_, /*can_build=*/true);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_TRUE(p->task.build_only);
  ASSERT_TRUE(p->task.build.has_value());
  EXPECT_FALSE(PrepareLease(LeaseToBuild(), *cache_, /*can_build=*/true)->task.build_only);
  // Build-only without anything to build is no lease.
  lease = Lease();
  lease.set_build_only(true);
  p = PrepareLease(lease, *cache_, /*can_build=*/true);
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(std::string(p.status().message()), HasSubstr("build_only but has no BuildSpec"));
  EXPECT_EQ(cache_->size(), 0u);
}

}  // namespace
}  // namespace tunefarm::rpc_server

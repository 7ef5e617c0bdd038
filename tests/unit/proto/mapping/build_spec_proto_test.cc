// The BuildSpec message and back: a spec survives the wire, the lease's options decide the build
// timeout and the reference, and an incomplete spec is refused by name.
#include "proto/mapping/build_spec_proto.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "proto/tunefarm/v1/worker.pb.h"

namespace tunefarm::proto_mapping {
namespace {

using ::testing::HasSubstr;
namespace rm = runtime::measure;

TEST(BuildSpecProtoTest, ASpecSurvivesTheWireWithTheLeasesOptions) {
  rm::BuildSpec spec;
  spec.script_name = "mul.te";
  spec.script_source = "n = var(\"n\")";
  spec.script_bindings = {{"n", 67}, {"m", 3}};
  spec.target = "llvm -mtriple=aarch64-linux-gnu";
  spec.config_json = R"({"tile":[4,16]})";
  rm::MeasureOptions options;
  options.build_timeout_s = 7;
  options.check_correctness = false;
  absl::StatusOr<rm::BuildSpec> back = BuildSpecFromProto(BuildSpecToProto(spec), options);
  ASSERT_TRUE(back.ok()) << back.status();
  rm::BuildSpec want = spec;
  want.build_timeout_s = 7;
  want.with_reference = false;
  EXPECT_EQ(*back, want);
}

TEST(BuildSpecProtoTest, AnIncompleteSpecIsRefusedByName) {
  v1::BuildSpec p;
  p.set_target("llvm");
  p.set_config_json("{}");
  absl::StatusOr<rm::BuildSpec> s = BuildSpecFromProto(p, {});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.status().message()), HasSubstr("exactly one of"));
  p.set_workload_key("matmul:16,16,16:float32");
  EXPECT_TRUE(BuildSpecFromProto(p, {}).ok());
  p.clear_target();
  EXPECT_THAT(std::string(BuildSpecFromProto(p, {}).status().message()), HasSubstr("no target"));
  p.set_target("llvm");
  p.clear_config_json();
  EXPECT_THAT(std::string(BuildSpecFromProto(p, {}).status().message()), HasSubstr("no config"));
}

}  // namespace
}  // namespace tunefarm::proto_mapping

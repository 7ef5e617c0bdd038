// Config JSON: compact output, round trip, and each parse error.
#include "compiler/space/config_json.h"

#include <gtest/gtest.h>

namespace tunefarm::space {
namespace {

class ConfigJsonTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(s_.DefineSplit("tile_x", {.extent = 64, .num_parts = 2}).ok());
    ASSERT_TRUE(s_.DefineReorder("order", 3).ok());
    ASSERT_TRUE(s_.DefineAnnotate("ann", {Annotation::kNone, Annotation::kUnroll}).ok());
    ASSERT_TRUE(s_.DefineChoice("pack", {int64_t{0}, int64_t{1}, std::string("auto")}).ok());
  }
  // Expects InvalidArgument with `needle` in the message.
  void ExpectError(const std::string& json, const std::string& needle) {
    absl::StatusOr<Config> c = ConfigFromJson(s_, json);
    ASSERT_FALSE(c.ok()) << json;
    EXPECT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument) << json;
    EXPECT_NE(c.status().message().find(needle), absl::string_view::npos) << c.status().message();
  }
  ConfigSpace s_;
};

TEST_F(ConfigJsonTest, CompactInDefinitionOrder) {
  absl::StatusOr<Config> c =
      ConfigFromJson(s_, R"({"pack":"auto","ann":"unroll","order":[0,2,1],"tile_x":[4,16]})");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(ConfigToJson(*c), R"({"tile_x":[4,16],"order":[0,2,1],"ann":"unroll","pack":"auto"})");
}

TEST_F(ConfigJsonTest, RoundTripsEveryConfig) {
  for (int64_t i = 0; i < s_.size(); ++i) {
    absl::StatusOr<Config> c = s_.Get(i);
    absl::StatusOr<Config> back = ConfigFromJson(s_, ConfigToJson(*c));
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(back->index(), i);
  }
}

TEST_F(ConfigJsonTest, Errors) {
  const std::string rest = R"("order":[0,1,2],"ann":"none","pack":0)";
  ExpectError(R"({"tile_x":[4,16],)", "malformed");
  ExpectError("", "malformed");
  ExpectError("[1,2]", "not an object");
  ExpectError(R"({"tile_x":[4,16],"tile_y":[1,1],)" + rest + "}", "unknown knob 'tile_y'");
  ExpectError(R"({"order":[0,1,2],"ann":"none","pack":0})", "missing knob 'tile_x'");
  ExpectError(R"({"tile_x":[4,15],)" + rest + "}", "tile_x");    // product 60
  ExpectError(R"({"tile_x":[4,16,1],)" + rest + "}", "tile_x");  // three parts
  ExpectError(R"({"tile_x":[4.0,16],)" + rest + "}", "tile_x");  // floats
  ExpectError(R"({"tile_x":"4x16",)" + rest + "}", "tile_x");    // wrong type
  ExpectError(R"({"tile_x":[4,16],"order":[0,1,1],"ann":"none","pack":0})", "order");
  ExpectError(R"({"tile_x":[4,16],"order":[0,1,2],"ann":"parallel","pack":0})", "ann");
  ExpectError(R"({"tile_x":[4,16],"order":[0,1,2],"ann":"none","pack":2})", "pack");
  ExpectError(R"({"tile_x":[4,16],"order":[0,1,2],"ann":"none","pack":true})", "pack");
  ExpectError(R"({"tile_x":[4,16],"order":[0,1,2],"ann":"none","pack":18446744073709551615})",
              "pack");
}

}  // namespace
}  // namespace tunefarm::space

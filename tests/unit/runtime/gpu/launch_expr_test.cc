#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <map>
#include <string>

#include "runtime/gpu/gpu_module.h"

namespace tunefarm::runtime::gpu {
namespace {

using ::testing::HasSubstr;

const std::map<std::string, int64_t> kValues = {{"n", 1000}, {"m", 7}, {"neg", -7}, {"b_1", 3}};

TEST(LaunchExprTest, Evaluates) {
  struct Case {
    const char* expr;
    int64_t want;
  };
  const Case cases[] = {
      {"1", 1},
      {"  42 ", 42},
      {"n", 1000},
      {"b_1", 3},
      {"1 + 2 * 3", 7},
      {"(1 + 2) * 3", 9},
      {"10 - 3 - 2", 5},  // left associative
      {"2 * 3 * 4", 24},
      {"-3 + 5", 2},
      {"--3", 3},
      {"-(n - 1)", -999},
      {"2 * -3", -6},
      {"floordiv(n + 63, 64)", 16},
      {"floordiv(7, 2)", 3},
      {"floordiv(-7, 2)", -4},
      {"floordiv(7, -2)", -4},
      {"floordiv(-7, -2)", 3},
      {"floordiv(neg, 7)", -1},
      {"floordiv(-8, 2)", -4},
      {"floormod(7, 2)", 1},
      {"floormod(-7, 2)", 1},
      {"floormod(7, -2)", -1},
      {"floormod(-7, -2)", -1},
      {"floormod(-8, 4)", 0},
      {"min(n, 256)", 256},
      {"max(m, 256)", 256},
      {"min(neg, m)", -7},
      {"max(1, min(n, 32)) * floordiv(m + 1, 2)", 128},
      {"floordiv(floordiv(n, 10), max(2, 3))", 33},
  };
  for (const Case& c : cases) {
    absl::StatusOr<int64_t> v = EvalLaunchExpr(c.expr, kValues);
    ASSERT_TRUE(v.ok()) << c.expr << ": " << v.status();
    EXPECT_EQ(*v, c.want) << c.expr;
  }
}

TEST(LaunchExprTest, ErrorsNameTheProblem) {
  struct Case {
    const char* expr;
    const char* message;
  };
  const Case cases[] = {
      {"k + 1", "unbound name 'k'"},
      {"floordiv(n, nn)", "unbound name 'nn'"},
      {"1 +", "unexpected end of expression"},
      {"", "unexpected end of expression"},
      {"1 2", "unexpected '2' at offset 2"},
      {"n / 2", "unexpected '/' at offset 2"},
      {"(1 + 2", "expected ')' but found end of expression"},
      {"min(1 2)", "expected ',' but found '2' at offset 6"},
      {"floordiv(1, 0)", "division by zero"},
      {"floormod(n, m - 7)", "division by zero"},
      {"sqrt(4, 1)", "unknown function 'sqrt'"},
      {"99999999999999999999", "integer too large"},
      {"9223372036854775807 + 1", "overflow"},
      {"4611686018427387904 * 2", "overflow"},
      {"#", "unexpected '#' at offset 0"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<int64_t> v = EvalLaunchExpr(c.expr, kValues);
    ASSERT_FALSE(v.ok()) << c.expr << " evaluated to " << *v;
    EXPECT_EQ(v.status().code(), absl::StatusCode::kInvalidArgument) << c.expr;
    EXPECT_THAT(std::string(v.status().message()), HasSubstr(c.message)) << c.expr;
    EXPECT_THAT(std::string(v.status().message()), HasSubstr(c.expr)) << c.expr;
  }
}

}  // namespace
}  // namespace tunefarm::runtime::gpu
